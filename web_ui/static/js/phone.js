// The simulated phone beside the panel: the dial, the hook button (and the sentence beside it that
// says why the handset is where it is) and the buttons that post to
// the box's /api/sim/ (a refusal is said under them, in #phone-error), what the feed says of the
// hook and the last digit, and the phone's window display, an image the box draws, fetched again
// after anything that may change it. The dial does nothing while the box is out of reach.

import { $ } from "./dom.js";
import { send } from "./api.js";
import { boxIsAway } from "./reach.js";
import { announce } from "./toast.js";

const WINDOW_WAIT = 150;     // ms: a burst of messages redraws the window once
const shown = { windowTimer: null, receiver: null };   // receiver: the handset's sound, as last heard

// The window display drawn again (once, shortly) after a message that may change it.
export function refreshWindow() {
  const img = $("#window-img");
  if (!img) return;
  clearTimeout(shown.windowTimer);
  shown.windowTimer = setTimeout(() => { img.src = "/api/oracles/window.png?t=" + Date.now(); }, WINDOW_WAIT);
}

// The sentence beside Hang up / Lift the handset: why the handset is where it is. Dialing on the
// cradle lifts it first and it stays lifted after the digit, as a real one does (the editor
// speaks into it, a join code is several digits): without this a player who only tapped a digit
// sees "lifted" and takes it for stuck. "busy": the line's busy tone, a real phone's own
// reminder that the call is over and the handset is still up.
function showHookNote() {
  const note = $("#hook-note");
  if (!note) return;
  const hook = document.body.dataset.hook;
  note.textContent = hook !== "off" ? note.dataset.on : shown.receiver === "busy" ? note.dataset.busy : note.dataset.off;
}

// The handset "off" (lifted) or "on" (on the cradle), as the feed says.
export function showHook(state) {
  const s = $("#hook-state");
  // a change is said (the page's own "Lift the handset", a digit dialed on the cradle, or the
  // real handset): not the state at load
  if (document.body.dataset.hook && document.body.dataset.hook !== state) {
    announce(state === "off" ? "Handset lifted: it stays off the hook until you hang up." : "Handset on the cradle.");
  }
  if (s) s.textContent = state === "off" ? "lifted" : "on the cradle";
  const button = $("#hook-button");
  if (button) { button.textContent = state === "off" ? "Hang up" : "Lift the handset"; button.dataset.hook = state; }
  document.body.dataset.hook = state;
  showHookNote();
}

// What the handset plays now (the box's phone.sound: dial, silence, ringback, verdict, busy).
// Only busy is shown, as the sentence beside Hang up, and said once when it starts.
export function showReceiver(sound) {
  if (!sound || sound === shown.receiver) return;
  shown.receiver = sound;
  if (sound === "busy" && document.body.dataset.hook === "off" && $("#hook-note")) announce($("#hook-note").dataset.busy);
  showHookNote();
}

export function showDigit(digit) {
  const d = $("#last-digit");
  if (d) d.textContent = digit;
}

function simPost(url, body) {
  send(url, body, { retries: 1, key: null }).then((r) => {
    const box = $("#phone-error");
    if (box) { box.textContent = r.ok ? "" : r.data.message; box.hidden = r.ok; }
  });
}

// The page's phone made live: whichever of its parts the page has.
export function wirePhone() {
  const dial = $("#dial");
  if (dial) dial.addEventListener("dial", (e) => boxIsAway() || simPost("/api/sim/dial", { digit: e.detail.digit }));
  const hookButton = $("#hook-button");
  if (hookButton) document.body.dataset.hook = hookButton.dataset.hook;   // the state the page was rendered with
  if (hookButton) hookButton.addEventListener("click", () => simPost("/api/sim/hook", { state: document.body.dataset.hook === "off" ? "on" : "off" }));
  for (const b of document.querySelectorAll("[data-sim-post]")) {
    b.addEventListener("click", () => simPost(b.dataset.simPost, JSON.parse(b.dataset.simBody || "{}")));
  }
  const windowImg = $("#window-img");
  if (windowImg) {
    windowImg.addEventListener("error", () => { windowImg.hidden = true; });
    windowImg.addEventListener("load", () => { windowImg.hidden = false; });
    if (windowImg.complete && !windowImg.naturalWidth) windowImg.hidden = true;
  }
}
