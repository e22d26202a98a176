// Any game without its own screen: who plays, the numbers its view shows, and what it waits for.

import { h, num, title, who } from "../dom.js";

const SKIP = new Set(["seat", "name", "colour", "account", "box"]);

export function players(view, extra) {
  if (!Array.isArray(view.players)) return null;
  return h("div", { class: "papers" }, view.players.map((p, i) => {
    if (typeof p !== "object" || p === null) return null;
    const facts = Object.entries(p).filter(([k, v]) => !SKIP.has(k) && (typeof v !== "object" || v === null));
    return h("article", { class: "paper" + (view.turn === i ? " is-turn" : "") },
      h("header", { class: "paper-head" }, who(p.name ?? "Player " + (i + 1), p.colour),
        view.turn === i ? h("span", { class: "tag tag-turn" }, "to play") : null),
      extra ? extra(p, i) : null,
      h("dl", { class: "facts" }, facts.map(([k, v]) => [h("dt", null, title(k)),
        h("dd", null, typeof v === "number" ? num(`${k}:${i}`, v, /cash|money/.test(k)) : String(v ?? "—"))])));
  }));
}

export function render(view) {
  return h("div", { class: "generic" }, players(view));
}
