// Race to Three's screen: each player's points against the target, and a button per player.

import { h, num } from "../dom.js";

export function render(view) {
  return h("ol", { class: "race-to-three" }, view.players.map((p, i) =>
    h("li", null, h("strong", null, p.name), " ", num("points:" + i, p.points), ` of ${view.target}`)));
}

export function label(offer, view) {
  return "Point to " + view.players[offer.player].name;
}
