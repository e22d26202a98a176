// The box out of reach: the live feed lost and the box not answering (switched off, out of the
// Wi-Fi's reach). A banner says so where the eye is, every control that needs the box is held
// (disabled, with the banner as its reason) and the health strip stops claiming OK. The page
// asks the box often while it is away, so all of it clears within a second of the box answering
// again. What the page does then (draw the health strip, read the game again, open the live
// feed) it tells this module once, with watchTheBox: the modules that do it import this one.

import { $, h } from "./dom.js";
import { dropLinkToast } from "./toast.js";

export const OFFLINE_WORDS = "The box can't be reached — is it on, and is this device on its Wi-Fi? " +
  "Nothing is lost: the buttons come back by themselves as soon as it answers.";
const PROBE_EVERY = 400;       // ms between asks while the box is away
const PROBE_WAIT = 1500;       // ms an ask may take before the box counts as away
// The controls that talk to the box: the game's moves and its undo, the start button, the
// simulated phone and buttons. Typing (names, a printed value) and choosing stay free.
const NEEDS_THE_BOX = "#game-area button:not(.quiet), #game-area #abandon, #game-area #abandon-yes, .side button";

const offline = { down: false, timer: null, asking: false };
const nothing = () => {};
// heard(report): the box's health report, from an ask; changed(): away or back, so the health
// strip says so; back(): the box answers again (read the game afresh); reconnect(): open the
// live feed again.
const hooks = { heard: nothing, changed: nothing, back: nothing, reconnect: nothing };

export function watchTheBox(given) {
  Object.assign(hooks, given);
}

// Whether the box is out of reach (the banner is up and the controls held).
export function boxIsAway() {
  return offline.down;
}

async function boxAnswers() {
  const stop = new AbortController();
  const late = setTimeout(() => stop.abort(), PROBE_WAIT);
  try {
    const r = await fetch("/api/health", { headers: { Accept: "application/json" }, cache: "no-store", signal: stop.signal });
    if (!r.ok) return false;
    hooks.heard(await r.json());
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(late);
  }
}

// Ask the box (once at a time): away when it doesn't answer, back when it does again.
export async function checkTheBox() {
  if (offline.asking) return;
  offline.asking = true;
  try {
    const there = await boxAnswers();
    if (!there) goOffline();
    else if (offline.down) { boxIsBack(); hooks.reconnect(); }
  } finally {
    offline.asking = false;
  }
}

function goOffline() {
  if (offline.down) return;
  offline.down = true;
  document.body.dataset.link = "down";
  const link = $("#link");
  if (link) { link.textContent = "offline"; link.className = "badge badge-warn"; link.title = OFFLINE_WORDS; }
  let banner = $("#offline");
  if (!banner) {
    banner = h("div", { id: "offline", class: "offline-banner", role: "alert" },
      h("strong", null, "Offline. "), h("span", { id: "offline-words" }, OFFLINE_WORDS));
    const main = $("main");
    if (main) main.prepend(banner);
  }
  banner.hidden = false;
  holdControls();
  hooks.changed();
  clearInterval(offline.timer);
  offline.timer = setInterval(checkTheBox, PROBE_EVERY);
}

// The box answered (an ask, or the live feed opened): stop asking, and if it was away, let the
// controls go, take the banner down and read the game afresh.
export function boxIsBack() {
  clearInterval(offline.timer);
  offline.timer = null;
  dropLinkToast();
  if (!offline.down) return;
  offline.down = false;
  delete document.body.dataset.link;
  const banner = $("#offline");
  if (banner) banner.hidden = true;
  holdControls();
  hooks.changed();
  const link = $("#link");
  if (link && link.textContent === "offline") { link.textContent = "reconnecting…"; link.title = ""; }
  hooks.back();
}

// Holds the controls that need the box while it is away, and lets them go when it is back (after
// every draw too). Only what this held is let go again (a button disabled for its own reason
// stays so).
export function holdControls() {
  if (offline.down) {
    for (const el of document.querySelectorAll(NEEDS_THE_BOX)) {
      if (el.disabled && !el.dataset.held) continue;
      el.disabled = true;
      el.dataset.held = "1";
      el.setAttribute("aria-disabled", "true");
      el.setAttribute("aria-describedby", "offline-words");
      el.title = OFFLINE_WORDS;
    }
    for (const d of document.querySelectorAll("rotary-dial")) { d.inert = true; d.setAttribute("aria-disabled", "true"); }
  } else {
    for (const el of document.querySelectorAll("[data-held]")) {
      el.disabled = false;
      delete el.dataset.held;
      el.removeAttribute("aria-disabled");
      el.removeAttribute("aria-describedby");
      el.removeAttribute("title");
    }
    for (const d of document.querySelectorAll("rotary-dial")) { d.inert = false; d.removeAttribute("aria-disabled"); }
  }
}
