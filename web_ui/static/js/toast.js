// Telling the table: a toast (one sentence that goes by itself: longer for a refusal) and the
// screen reader's announcements. A toast that says the box can't be reached is marked as such,
// so it goes as soon as the box answers again while any other stays its time.

import { $, fill, h } from "./dom.js";

const shown = { timer: null, aboutLink: false, kind: null };

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
  if (text) shown.timer = setTimeout(() => { box.hidden = true; document.body.classList.remove("toasting"); },
    kind === "bad" ? 9000 : 5000);
}

// The box answers again: a toast saying it couldn't be reached is no longer true.
export function dropLinkToast() {
  if (shown.aboutLink) toast("");
}

// This page's write went through: a refusal shown for the one before it is no longer news.
export function dropRefusalToast() {
  if (shown.kind === "bad" && !shown.aboutLink) toast("");
}
