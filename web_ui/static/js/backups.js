// The host's backups, on the history page (web_ui/backups.py says how the box does each part).
// Download: a link, with the secret key only when the box is asked for it. Restore, in two
// steps as the command asks: the file is sent to be checked (the box answers what it would
// replace), then the host confirms; newsdesk restarts to put it in place and this page comes
// back by itself once the box answers again, saying what it restored.

import { $ } from "./dom.js";
import { send } from "./api.js";

const section = $("#backups");
const download = $("#backup-download");
const secret = $("#backup-secret");
const form = $("#restore-form");
const file = $("#restore-file");
const checked = $("#restore-check");
const status = $("#restore-status");
const error = $("#restore-error");
const said = $("#restore-said");
const done = $("#restore-done");
const RESTORED = "newsdesk-restored";   // sessionStorage: what the reload after a restore says it restored
let token = null;
let restored = "";                      // "Restored from <file>: <its store in words>.", kept from the check

function say(text) { status.textContent = text; }

// The check's answer said once, politely: the paragraph that shows it is no live region (it would
// be read again on every change), and the focus goes on to the button it describes.
let saying = null;

function announce(text) {
  said.textContent = "";
  saying = setTimeout(() => { said.textContent = text; }, 100);   // emptied first: the same answer twice is said twice
}

function fail(text) {
  error.textContent = text;
  error.hidden = !text;
}

function forget() {
  token = null;
  clearTimeout(saying);
  said.textContent = "";
  checked.hidden = true;
  form.hidden = false;
  restoring();
}

const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function answering() {
  try {
    const r = await fetch("/api/health", { cache: "no-store" });
    return r.ok;
  } catch {
    return false;
  }
}

// The box stops within a few seconds of the confirmation and starts again with the backup:
// wait for it to go, then for it to answer, then show the restored table.
async function comeBack() {
  const until = Date.now() + 10000;
  let went = false;
  while (Date.now() < until && !went) {
    went = !(await answering());
    if (!went) await wait(500);
  }
  for (;;) {
    await wait(1000);
    if (await answering()) break;
  }
  if (went) remember(restored);      // a box that never went has not put the backup in place yet
  location.reload();
}

// The box answered again after going: the backup is in place (a start that can't finish a restore
// never answers). The page that comes back says so, once: the note is read once and thrown away,
// and one older than a few minutes (the page came back elsewhere, a join page) is not news.
const FRESH_MS = 5 * 60 * 1000;

function remember(text) {
  try {
    sessionStorage.setItem(RESTORED, JSON.stringify({ text, at: Date.now() }));
  } catch { /* storage off: the page comes back unsaid */ }
}

function recall() {
  let note = null;
  try {
    note = JSON.parse(sessionStorage.getItem(RESTORED) || "null");
    sessionStorage.removeItem(RESTORED);
  } catch { /* no storage, or not our note: nothing to say */ }
  if (!note || typeof note.text !== "string" || !(Date.now() - note.at < FRESH_MS)) return;
  done.textContent = note.text;
  done.hidden = false;
  done.focus();                        // read out, and where the host's eyes are taken
}

// While a file is chosen or checked the page must not reload under the host (panel.js reads
// the history again when a game ends): the body says so.
function restoring() {
  if (file.files.length || !checked.hidden) document.body.dataset.restoring = "yes";
  else delete document.body.dataset.restoring;
}

if (section) {
  recall();
  file.addEventListener("change", restoring);
  secret.addEventListener("change", () => {
    download.href = "/api/backups/download" + (secret.checked ? "?secret=yes" : "");
    $("#backup-secret-note").hidden = !secret.checked;
  });

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const chosen = file.files[0];
    if (!chosen) return;
    fail("");
    say("Checking " + chosen.name + "…");
    // a header carries Latin-1 only: another name is left for the box to call "the uploaded file"
    const name = /^[\x20-\x7e]{1,120}$/.test(chosen.name) ? chosen.name : "";
    let r;
    try {
      r = await fetch("/api/backups/check", {
        method: "POST",
        headers: { "Content-Type": "application/zip", Accept: "application/json", "X-Newsdesk": "1",
                   "X-Newsdesk-File-Name": name },
        body: chosen,
        credentials: "same-origin",
      });
    } catch {
      say("");
      fail("The newsdesk can't be reached; check the Wi-Fi, then try again.");
      return;
    }
    const data = await r.json().catch(() => ({ message: r.statusText || "The box refused the file." }));
    say("");
    if (!r.ok) {
      fail(data.message);
      return;
    }
    token = data.token;
    restored = `Restored from ${data.backup.name}: ${data.backup.store}.`;
    done.hidden = true;                // an earlier restore's message is old news now
    $("#restore-words").textContent = data.message;
    announce(data.message);
    form.hidden = true;
    checked.hidden = false;
    restoring();
    $("#restore-confirm").focus();
  });

  $("#restore-cancel").addEventListener("click", async () => {
    forget();
    const r = await fetch("/api/backups/check", {      // the box's checked copy goes too
      method: "DELETE", headers: { Accept: "application/json", "X-Newsdesk": "1" }, credentials: "same-origin",
    }).catch(() => null);
    say(r && r.ok ? "Nothing was changed." : "Nothing was changed (the box keeps its checked copy until it restarts).");
  });

  $("#restore-confirm").addEventListener("click", async () => {
    if (!token) return;
    $("#restore-confirm").disabled = true;
    const { ok, data } = await send("/api/backups/restore", { token });
    $("#restore-confirm").disabled = false;
    if (!ok) {
      forget();
      fail(data.message);
      return;
    }
    checked.hidden = true;
    clearTimeout(saying);
    said.textContent = "";             // the comparison is past: nothing left to find there
    say(data.message);
    if (data.restarting) comeBack();
  });
}
