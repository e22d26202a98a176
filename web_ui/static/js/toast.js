// Telling the table: a toast (one sentence that goes by itself, after the time its words take to
// read: longer for a refusal; the next toast replaces it) and the screen reader's announcements.
// A toast that says the box can't be reached is marked as such, so it goes as soon as the box
// answers again while any other stays its time.

import { $, fill, h } from "./dom.js";

const shown = { timer: null, aboutLink: false, kind: null };

// How long a toast stays: 4 s and 60 ms a word to read it (3 s more for a refusal, to act on it
// too), never more than 15 s: Redo's sentence (a SCAN hand, thirty words) is gone in under 6 s.
const READ_MS = 4000, REFUSAL_MS = 3000, WORD_MS = 60, MOST_MS = 15000;
function toastMs(text, kind) {
  const words = String(text || "").split(/\s+/).filter(Boolean).length;
  return Math.min(MOST_MS, READ_MS + (kind === "bad" ? REFUSAL_MS : 0) + WORD_MS * words);
}

// Said to a screen reader: politely, or at once when ``urgent`` (a refusal).
export function announce(text, urgent) {
  const box = $(urgent ? "#alert" : "#announce");
  if (!box) return;
  box.textContent = "";
  requestAnimationFrame(() => { box.textContent = text; });
}

// ``kind``: "ok" or "bad" (or none); ``aboutLink``: the sentence is about the box being out of
// reach; ``told``: a screen reader has heard it already. An empty ``text`` takes the toast away.
// The toast is no live region: its sentence is said here, at once for a refusal ("bad").
export function toast(text, kind, aboutLink, told) {
  shown.aboutLink = Boolean(text && aboutLink);
  shown.kind = text ? kind || null : null;
  if (text && !told) announce(text, kind === "bad");
  const box = $("#toast");
  if (!box) return;
  fill(box, h("span", null, text), text && kind !== "ok" && /join/i.test(text) ? [" ", h("a", { href: "/join" }, "Join")] : null);
  box.className = "toast" + (kind ? " toast-" + kind : "");
  box.hidden = !text;
  // room under the page while it shows, so the last controls (Finish, Time is up) scroll above it
  document.body.classList.toggle("toasting", Boolean(text));
  clearTimeout(shown.timer);
  if (text) shown.timer = setTimeout(() => toast(""), toastMs(text, kind));
}

// The box answers again: a toast saying it couldn't be reached is no longer true.
export function dropLinkToast() {
  if (shown.aboutLink) toast("");
}

// The game's end card shows: what was said during the game is no longer news, and would cover the card.
export function dropToast() {
  toast("");
}

// This page's write went through: what was shown for the one before it (a refusal, an undo's
// "Took back ...") is no longer news; the write's own toast, if it has one, follows.
export function dropOldToast() {
  if (shown.kind && !shown.aboutLink) toast("");
}
