// Star Reporter (1937): each reporter's travel state (car, train, plane, telephone) and credits,
// and the Disasters drawn against the Catastrophe to come. Reads what the engine's view shows
// and says nothing it doesn't.

import { h, num, title } from "../dom.js";
import { playerName } from "../offers.js";
import { players } from "./generic.js";

function first(obj, keys) {
  for (const k of keys) if (obj && obj[k] !== undefined && obj[k] !== null) return obj[k];
  return undefined;
}

export function render(view) {
  const drawn = first(view, ["disasters", "disasters_drawn", "disaster_count"]);
  const limit = first(view, ["disaster_limit", "disasters_to_catastrophe", "disasters_before_catastrophe"]);
  const open = first(view, ["disaster", "open_disaster", "catastrophe"]);
  const count = Array.isArray(drawn) ? drawn.length : drawn;
  return h("div", { class: "star" },
    count !== undefined ? h("p", { class: "round" }, "Disasters ", h("strong", { class: "num-big" }, num("disasters", count)),
      limit !== undefined ? ` of ${limit} before the Catastrophe` : null) : null,
    open && typeof open === "object" ? h("p", { class: "notice" }, "Open to all: ", open.city || open.name || open.event || JSON.stringify(open)) : null,
    players(view, (p) => {
      const travel = first(p, ["travel", "method", "state", "where"]);
      const credits = first(p, ["credits", "points", "score"]);
      return [credits !== undefined ? h("p", { class: "cash" }, num("credits:" + p.name, credits), h("span", { class: "of" }, " credits")) : null,
        travel !== undefined ? h("p", { class: "small" }, typeof travel === "object" ? Object.entries(travel).map(([k, v]) => `${title(k)}: ${v}`).join(" · ") : String(travel)) : null];
    }));
}

export function label(offer, view) {
  if (typeof offer.player !== "number") return null;
  const rest = Object.entries(offer).filter(([k, v]) => !["type", "player", "enter"].includes(k) && typeof v !== "object").map(([, v]) => v);
  return `${title(offer.type)}${rest.length ? " " + rest.join(" ") : ""}`;
}

export function group(type, offers, view) {
  return typeof offers[0].player === "number" ? `${playerName(view, offers[0].player)}: ${title(type)}` : null;
}
