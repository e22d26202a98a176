// The Workbench: the guided bring-up checklist and the dial tester. Polls /api/workbench twice
// a second (the box ticks steps and measures digits itself); each digit shows its numbers, its
// pulse train as an SVG drawn by the box, and a link to download its recording as a trace file.

import "./panel.js";
import { $, $$, fill, h } from "./dom.js";
import { getJSON, send } from "./api.js";

const boot = JSON.parse(($("#boot") || { textContent: "{}" }).textContent || "{}");
const HINT_AFTER = 15000;   // ms a step may wait before its hint shows
const shownAt = Date.now();
let standard = (boot.state && boot.state.standard) || "bell";
let lastDigits = "";

function error(text) {
  const el = $("#wb-error");
  el.hidden = !text;
  el.textContent = text || "";
}

function steps(list) {
  const waited = Date.now() - shownAt > HINT_AFTER;
  fill($("#steps"), list.map((s) => h("li", { class: s.seen ? "step seen" : "step", id: "step-" + s.id },
    h("span", { class: "tick", "aria-hidden": "true" }, s.seen ? "✔" : "○"), " ",
    h("span", { class: "step-title" }, s.title), s.seen ? h("span", { class: "sr-only" }, " (seen)") : null,
    !s.seen && s.hint ? h("p", { class: "small muted hint", hidden: !waited }, s.hint) : null)));
}

function num(x, digits = 1, unit = "") {
  return typeof x === "number" ? x.toFixed(digits) + unit : "—";
}

function digit(d) {
  const verdict = d.passed === true ? "PASS" : d.passed === false ? "FAIL" : "—";
  return h("article", { class: "digit-test", id: "digit-" + d.id },
    h("h3", {}, `Digit ${d.digit}: ${d.pulses} pulse${d.pulses === 1 ? "" : "s"} `,
      h("span", { class: d.passed === false ? "verdict bad" : "verdict" }, verdict)),
    h("dl", { class: "figures" },
      h("dt", {}, "Speed"), h("dd", {}, num(d.pps, 2, " pps")),
      h("dt", {}, "Break"), h("dd", {}, num(d.break_pct, 0, " %")),
      h("dt", {}, "Along the train"), h("dd", {}, d.pps_min === null ? "—" :
        `${num(d.pps_min, 2)}–${num(d.pps_max, 2)} pps (${num(d.spread_pct, 0, " %")})`),
      h("dt", {}, "First pulse"), h("dd", {}, `${num(d.first_pps, 2, " pps")}, ${num(d.first_break_pct, 0, " % break")}`),
      h("dt", {}, "Decided"), h("dd", {}, `${num(d.latency_ms, 0, " ms")} after the last pulse`)),
    h("p", { class: "small" }, d.notes.join("; ")),
    h("img", { class: "logic", src: `/api/workbench/digit/${d.id}.svg`, alt: `The pulse train of digit ${d.digit}: ` +
      `breaks ${d.breaks_ms.join(", ")} ms, makes ${d.makes_ms.join(", ")} ms`, loading: "lazy" }),
    h("p", { class: "small" }, h("a", { href: `/api/workbench/digit/${d.id}.csv`, download: "" },
      "Download the recording (dial trace)")));
}

function tester(state) {
  const sel = $("#standard");
  if (!sel.options.length) {
    for (const [name, s] of Object.entries(state.standards)) sel.append(h("option", { value: name }, s.title));
    sel.value = standard;
  }
  const s = state.standards[standard];
  $("#limits").textContent = `pass: ${s.pps[0]}–${s.pps[1]} pps` + (s.adjust ? ` (adjusted to ${s.adjust[0]}–${s.adjust[1]})` : "") +
    `, ${s.break_pct[0]}–${s.break_pct[1]} % break`;
  const key = JSON.stringify(state.digits);
  if (key !== lastDigits) {
    lastDigits = key;
    fill($("#digits"), state.digits.length ? state.digits.map(digit) :
      h("p", { class: "muted" }, "No digit dialed yet: lift the handset and dial a 0."));
  }
  const name = $("#profile-name");
  if (!name.value) name.value = state.profile_name;
  const p = state.profile;
  $("#profile").textContent = p ? `${state.profile_name}: ${p.pps} pps, ${p.break_pct} % break (kept ${p.updated}); ` +
    "the decoder starts from it" : `No profile kept for ${state.profile_name} yet.`;
}

async function refresh() {
  try {
    const state = await getJSON(`/api/workbench?standard=${encodeURIComponent(standard)}`);
    steps(state.steps);
    tester(state);
    error("");
  } catch (e) {
    error(`The workbench can't be read: ${e.message}`);
  }
}

async function act(url, body) {
  const r = await send(url, body || {});
  error(r.ok ? "" : r.data.message);
  refresh();
}

const SIM = {
  lift: ["/api/sim/hook", { state: "off" }],
  hangup: ["/api/sim/hook", { state: "on" }],
  dial0: ["/api/sim/dial", { digit: 0 }],
  dice: ["/api/oracles/sim/dice", {}],
  stopwatch: ["/api/oracles/sim/stopwatch", {}],
};

$("#ring").addEventListener("click", () => act("/api/workbench/ring"));
$("#reset").addEventListener("click", () => act("/api/workbench/bringup/reset"));
$("#keep").addEventListener("click", () => act("/api/workbench/profile", { name: $("#profile-name").value, standard }));
$("#standard").addEventListener("change", (e) => { standard = e.target.value; lastDigits = ""; refresh(); });
if (boot.virtualPhone) {
  $("#virtual").hidden = false;
  for (const b of $$("[data-sim]")) b.addEventListener("click", () => act(...SIM[b.dataset.sim]));
}
if (boot.state) { steps(boot.state.steps); tester(boot.state); }
setInterval(refresh, 500);
