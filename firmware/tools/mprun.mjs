// Runs Python under real MicroPython (its WebAssembly build) for the firmware checks.
//
//   node firmware/tools/mprun.mjs < job.json
//
// job.json: {"files": {"/fw/decoder.py": "<source>", ...}, "path": ["/fw"], "code": "<python>",
//            "heap": <bytes, optional>}
// The code runs in __main__ with `path` put in front of sys.path; it leaves its answer as a
// string in the global `result`. Prints {"result": ..., "output": "<what it printed>"} as JSON;
// on a Python error prints {"error": "<traceback>", "output": ...} and exits 1.
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";
import { readFileSync } from "node:fs";
import { dirname } from "node:path";

const job = JSON.parse(readFileSync(0, "utf8"));
let output = "";
const keep = (line) => { output += line + "\n"; };
const mp = await loadMicroPython({ heapsize: job.heap || 1024 * 1024, stdout: keep, stderr: keep });

function mkdirs(dir) {
  if (dir === "/" || dir === "") return;
  mkdirs(dirname(dir));
  try { mp.FS.mkdir(dir); } catch (e) { /* exists */ }
}
for (const [path, text] of Object.entries(job.files || {})) {
  mkdirs(dirname(path));
  mp.FS.writeFile(path, text);
}
const prelude = "import sys\nfor _p in reversed(" + JSON.stringify(job.path || []) + "):\n    sys.path.insert(0, _p)\n";
try {
  mp.runPython(prelude + job.code);
  const result = mp.globals.get("result");
  process.stdout.write(JSON.stringify({ result: result === undefined ? null : result, output }) + "\n");
} catch (e) {
  process.stdout.write(JSON.stringify({ error: String(e), output }) + "\n");
  process.exit(1);
}
