// A new release under an open page (web_ui/release.py): the page reloads itself at the next
// quiet moment, so a tablet left on the table runs the box's code and looks, not last week's.
//
// The page names its own release in <meta name="newsdesk-release">; the box names its own in
// every /api/health answer, which the panel reads every 15 s and as soon as the box answers
// again after a restart (health.js hands each answer to heardRelease). Another release than the
// page's: reload now if the table is quiet, else say "a new version is ready" with a button and
// reload by itself once it is quiet. Quiet means nobody is in the middle of something a reload
// would throw away or cut short:
//   - no form half-filled: no field someone changed and left changed (names typed into the
//     start form, a value chosen), and no field holding the focus while someone is at the page
//     (the keyboard is up; a field left focused for FIELD_IDLE_MS with nothing typed holds no more);
//   - nobody touched the page in the last QUIET_MS (a tap on its way to a move);
//   - no dial being turned on the screen, and the handset on its cradle (a call in progress);
//   - no question open (a dialog, the abandon confirmation), no move on its way to the box
//     (aria-busy), no restore chosen (backups.js), no end-of-game screen being read;
//   - the box answering (a reload while it is away would show the browser's error page).

import { $, h } from "./dom.js";

const QUIET_MS = 1000;          // ms since the last touch, key or typing before a reload
const FIELD_IDLE_MS = 30000;    // ms a focused field, untouched, holds a reload (a tablet left on "New game")
const CHECK_EVERY = 250;        // ms between looks for a quiet moment once a release is waiting
const TRIED = "newsdesk-release-reloaded";   // sessionStorage: the release this tab last reloaded for
const OPEN_QUESTIONS = "dialog[open], [role=dialog]:not([hidden]), [role=alertdialog]:not([hidden]), #abandon-yes:not([hidden])";
const FIELDS = "input, textarea, select, [contenteditable]";
const NOT_FIELDS = new Set(["button", "submit", "reset", "image", "hidden"]);

const meta = document.querySelector('meta[name="newsdesk-release"]');
const mine = meta ? meta.content : "";
let waiting = null;             // the box's release, once it differs from the page's
let timer = null;
let touched = -Infinity;        // performance.now() of the last touch, key or typing
const started = new Map();      // field -> its value when someone first came to it

function isField(el) {
  return el instanceof Element && el.matches(FIELDS) && !(el.tagName === "INPUT" && NOT_FIELDS.has(el.type));
}

function valueOf(el) {
  if (el.tagName === "INPUT" && (el.type === "checkbox" || el.type === "radio")) return String(el.checked);
  if (el.tagName === "SELECT") return Array.from(el.selectedOptions, (o) => o.value).join("\n");
  if (el.isContentEditable) return el.textContent;
  return el.value;
}

for (const type of ["pointerdown", "keydown", "input", "change", "wheel"]) {
  document.addEventListener(type, (e) => { if (e.isTrusted) touched = performance.now(); }, { capture: true, passive: true });
}
document.addEventListener("focusin", (e) => {
  if (isField(e.target) && !started.has(e.target)) started.set(e.target, valueOf(e.target));
}, true);
// a field left as it was found is not half-filled, whatever a script puts in it later
document.addEventListener("focusout", (e) => {
  if (started.has(e.target) && valueOf(e.target) === started.get(e.target)) started.delete(e.target);
}, true);

// The first field left changed, or null: fields the page has since taken away (a form sent and
// replaced by the game) no longer count.
function halfFilled() {
  for (const [el, was] of started) {
    if (!el.isConnected) started.delete(el);
    else if (valueOf(el) !== was) return el;
  }
  return null;
}

// Why this is not a quiet moment (a few words), or "" when it is.
function busyWith() {
  const body = document.body;
  if (body.dataset.link === "down" || navigator.onLine === false) return "the box can't be reached";
  const idle = performance.now() - touched;
  if (halfFilled()) return "a form is half-filled";
  if (isField(document.activeElement) && idle < FIELD_IDLE_MS) return "a field has the focus";
  if (idle < QUIET_MS) return "someone is touching the page";
  if (Array.from(document.querySelectorAll("rotary-dial")).some((d) => d.turning)) return "the dial is turning";
  if (body.dataset.hook === "off") return "the handset is lifted";
  if (document.querySelector(OPEN_QUESTIONS)) return "a question is open";
  if (document.querySelector("[aria-busy=true]")) return "a move is on its way";
  if (body.dataset.restoring) return "a restore is chosen";
  if (body.dataset.ended) return "the end of a game is shown";
  return "";
}

function reload() {
  try { sessionStorage.setItem(TRIED, waiting); } catch { /* storage off: reload all the same */ }
  clearInterval(timer);
  location.reload();
}

function showReady() {
  let banner = $("#new-release");
  if (!banner) {
    banner = h("div", { id: "new-release", class: "release-banner", role: "status" },
      h("span", null, "A new version of the panel is ready; this page loads it by itself when the table is quiet. "),
      h("button", { type: "button", class: "quiet", id: "new-release-reload", onclick: reload }, "Reload now"));
    const main = $("main") || document.body;
    main.prepend(banner);
  }
  banner.hidden = false;
}

function lookForQuiet() {
  if (!busyWith()) reload();
}

// What the box said its release is (an /api/health answer, or just its release field).
export function heardRelease(report) {
  const theirs = report && typeof report.release === "string" ? report.release : "";
  if (!mine || !theirs || theirs === mine || theirs === waiting) return;
  waiting = theirs;
  let tried = null;
  try { tried = sessionStorage.getItem(TRIED); } catch { /* no storage: no memory of a last try */ }
  showReady();
  // reloaded for this release already and still given the old page (a cache between the tablet
  // and the box): the button stays, but no reload on its own, which would only come round again
  if (tried === theirs) return;
  lookForQuiet();
  clearInterval(timer);
  timer = setInterval(lookForQuiet, CHECK_EVERY);
}
