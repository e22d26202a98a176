// Telling the table: a toast (one sentence that goes by itself: longer for a refusal) and the
// screen reader's announcements. A toast that says the box can't be reached is marked as such,
// so it goes as soon as the box answers again while any other stays its time.

import { $, fill, h } from "./dom.js";

const shown = { timer: null, aboutLink: false };

// Said to a screen reader: politely, or at once when ``urgent`` (a refusal).
export function announce(text, urgent) {
  const box = $(urgent ? "#alert" : "#announce");
  if (!box) return;
  box.textContent = "";
  requestAnimationFrame(() => { box.textContent = text; });
}

// ``kind``: "ok" or "bad" (or none); ``aboutLink``: the sentence is about the box being out of
// reach. An empty ``text`` takes the toast away.
export function toast(text, kind, aboutLink) {
  shown.aboutLink = Boolean(text && aboutLink);
  const box = $("#toast");
  if (!box) return;
  fill(box, h("span", null, text), text && kind !== "ok" && /join/i.test(text) ? [" ", h("a", { href: "/join" }, "Join")] : null);
  box.className = "toast" + (kind ? " toast-" + kind : "");
  box.hidden = !text;
  clearTimeout(shown.timer);
  if (text) shown.timer = setTimeout(() => { box.hidden = true; }, kind === "bad" ? 9000 : 5000);
}

// The box answers again: a toast saying it couldn't be reached is no longer true.
export function dropLinkToast() {
  if (shown.aboutLink) toast("");
}
