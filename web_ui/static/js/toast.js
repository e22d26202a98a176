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

// Said to a screen reader: politely (#announce), or at once when ``urgent`` (#alert: a refusal).
// One happening is one announcement: what is said in one go (a move, then what the game waits
// for next) is joined and said together, a moment later, where two regions spoke each move. And a
// sentence said is never replaced before a screen reader has it: one said within that moment of
// another joins it (Undo's "Took back ..." was replaced by the busy tone's sentence in the same
// frame, and never heard). Each region is emptied once its words have had the time they take to
// read, and #alert as soon as anything newer is said, so an old refusal never stays in the page.
const JOIN_MS = 120;
const said = { polite: [], urgent: [], timer: null, clear: { "#announce": null, "#alert": null } };

export function announce(text, urgent) {
  if (!text) return;
  (urgent ? said.urgent : said.polite).push(String(text));
  if (!said.timer) said.timer = setTimeout(sayNow, JOIN_MS);
}

function sayNow() {
  said.timer = null;
  const polite = said.polite.splice(0).join(" ");
  const urgent = said.urgent.splice(0).join(" ");
  if (urgent) speak("#alert", urgent, "bad");
  else if (polite) unsay("#alert");        // a refusal is old news once anything newer is said
  if (polite) speak("#announce", polite);
}

// Emptied, then filled in the next frame: the same words said twice are heard twice.
function speak(sel, text, kind) {
  const box = $(sel);
  if (!box) return;
  box.textContent = "";
  requestAnimationFrame(() => { box.textContent = text; });
  clearTimeout(said.clear[sel]);
  said.clear[sel] = setTimeout(() => unsay(sel), toastMs(text, kind));
}

function unsay(sel) {
  clearTimeout(said.clear[sel]);
  const box = $(sel);
  if (box) box.textContent = "";
}

// What no longer applies is taken back: a refusal once a write has gone through, and everything
// said (or about to be) once the game's end card shows.
function unsayRefusal() {
  said.urgent.length = 0;
  unsay("#alert");
}

function unsayAll() {
  said.polite.length = 0;
  unsayRefusal();
  unsay("#announce");
}

// ``kind``: "ok" or "bad" (or none); ``aboutLink``: the sentence is about the box being out of
// reach; ``told``: a screen reader has heard it already. An empty ``text`` takes the toast away.
// The toast is no live region: its sentence is said here, at once for a refusal ("bad").
export function toast(text, kind, aboutLink, told) {
  if (!text && shown.kind === "bad") unsayRefusal();      // the refusal it showed goes with it
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

// The game's end card shows: what was said during the game is no longer news, and would cover
// the card ("... won! Finish to keep the result." stayed in the page after Finish).
export function dropToast() {
  toast("");
  unsayAll();
}

// This page's write went through: what was shown for the one before it (a refusal, an undo's
// "Took back ...") is no longer news; the write's own toast, if it has one, follows.
export function dropOldToast() {
  if (shown.kind && !shown.aboutLink) toast("");
  unsayRefusal();      // one said under a form, with no toast, too
}
