// The health strip: each part of the box (phone, buttons, display, audio, store, MQTT, backup) in
// a word when it is well and in plain words when it isn't, from the box's health report (the
// page's own at load, read again every 15 s and whenever the feed says the phone's link changed).
// A wiring fault the phone's decoder reports shows on the phone's part until it says the line
// works again; while the box can't be reached the strip says only that, never a stale "OK".

import { $, h } from "./dom.js";
import { getJSON } from "./api.js";
import { heardRelease } from "./release.js";
import { OFFLINE_WORDS, boxIsAway, checkTheBox } from "./reach.js";

const PART_NAMES = { phone: "Phone", buttons: "Buttons", display: "Display", audio: "Audio", store: "Store", mqtt: "MQTT", backup: "Backup" };
const HEALTH_EVERY = 15000;    // ms between asks for the report while the page is open
const health = { report: null, phoneFault: null };

// Draws the report the page was made with, and asks for a fresh one every HEALTH_EVERY ms.
export function startHealth(report) {
  health.report = report || null;
  showHealth();
  setInterval(pollHealth, HEALTH_EVERY);
}

// A report the box gave to an ask made elsewhere (the out-of-reach probe): kept for the next
// draw, and handed to the release check (a new release shows by its report).
export function heardHealth(report) {
  health.report = report;
  heardRelease(report);
}

// The decoder's word on the phone's wiring: a fault's sentence, or "" once the line behaves again.
export function phoneFault(message) {
  health.phoneFault = message;
  showHealth();
}

export function showHealth() {
  const strip = $("#health");
  if (strip && boxIsAway()) {
    // what the box last said of its parts is not known now: say that, never a stale "OK"
    strip.replaceChildren(h("li", { class: "health-item health-fault", title: OFFLINE_WORDS },
      h("span", { class: "health-mark", "aria-hidden": "true" }, "✕"),
      h("span", { class: "health-name" }, "Box"),
      h("span", { class: "health-words" }, "can't be reached")));
    return;
  }
  if (!strip || !health.report) return;
  strip.replaceChildren(...health.report.parts.map((p) => {
    let status = p.status;
    let summary = p.summary;
    if (p.part === "phone" && health.phoneFault) { status = "fault"; summary = "Wiring fault: " + health.phoneFault; }
    const mark = { ok: "✓", warn: "!", fault: "✕", absent: "–" }[status] || "?";
    // Green parts say so in a word; anything else says in plain words what is wrong.
    const short = { ok: "OK", absent: "off" }[status];
    return h("li", { class: "health-item health-" + status, title: summary + (p.detail ? " " + p.detail : "") },
      h("span", { class: "health-mark", "aria-hidden": "true" }, mark),
      h("span", { class: "health-name" }, PART_NAMES[p.part] || p.part),
      h("span", { class: "health-words" }, short ? [short, h("span", { class: "sr-only" }, ": " + summary)] : summary));
  }));
}

// Asks the box for its report and draws it; no answer is the box perhaps out of reach.
export async function pollHealth() {
  try { health.report = await getJSON("/api/health"); showHealth(); heardRelease(health.report); } catch { checkTheBox(); }
}
