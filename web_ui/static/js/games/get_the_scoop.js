// Get the Scoop! (2011): the round and its phase, the First Player badge, the cards turned up.

import { h, title, who } from "../dom.js";
import { playerName } from "../offers.js";

const PHASES = [["protesters", "Protesters"], ["check", "Camera vans"], ["journalists", "Journalists"], ["police", "Police"]];
const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9"];
const SUITS = ["hearts", "diamonds", "clubs", "spades"];

function phases(view) {
  return h("ol", { class: "phases", "aria-label": "Phases of the round" }, PHASES.map(([key, name]) =>
    h("li", { class: view.phase === key ? "is-now" : "", "aria-current": view.phase === key ? "step" : null },
      name, view.phase === key ? h("span", { class: "sr-only" }, " (now)") : null)));
}

function reveal(view) {
  const r = view.last_reveal;
  if (!r) return null;
  const plays = r.plays.map((c) => h("li", null, h("strong", null, playerName(view, c.player)), ` → Protester #${c.protester}: `,
    h("span", { class: "card-face" }, `${c.rank} of ${c.suit}`), `, ${c.distance} toward ${c.toward}`, c.push ? h("strong", null, ", pushes") : null));
  const orders = (r.orders || []).filter((o) => o.players.length > 1).map((o) =>
    h("li", { class: "small muted" }, `Protester #${o.protester}: ${o.players.map((p) => playerName(view, p)).join(", then ")} (${o.how})`));
  return h("section", { "aria-label": "Cards turned up" }, h("h3", { class: "offer-heading" }, `Round ${r.round}: cards turned up, in order`),
    plays.length ? h("ol", { class: "plays" }, plays) : h("p", { class: "muted" }, "Everyone abstained."),
    orders.length ? h("ul", { class: "plays" }, orders) : null,
    r.abstained && r.abstained.length && plays.length ? h("p", { class: "small muted" }, "Abstained: " + r.abstained.map((p) => playerName(view, p)).join(", ")) : null);
}

export function render(view) {
  const police = view.police_this_round;
  return h("div", { class: "gts" },
    h("p", { class: "round" }, "Round ", h("strong", { class: "num-big" }, String(view.round))),
    phases(view),
    h("p", { class: "badge-first" }, h("span", { "aria-hidden": "true" }, "★ "), "First Player: ", h("strong", null, view.first_player_name)),
    h("ul", { class: "players-row" }, view.players.map((p) => h("li", { class: "player-chip" + (p.badge ? " has-badge" : "") +
      (view.journalist === p.seat ? " is-turn" : "") + ((view.winners || []).includes(p.seat) ? " is-winner" : "") },
      who(p.name, p.colour), p.badge ? h("span", { class: "tag tag-turn" }, "★ First") : null,
      p.done ? h("span", { class: "tag" }, "✓ done") : null,
      (view.winners || []).includes(p.seat) ? h("span", { class: "tag tag-win" }, "winner") : null))),
    reveal(view),
    police ? h("details", { class: "small" }, h("summary", null, `Police this round (step ${police.step})`),
      h("ul", null, Object.entries(police.moves).map(([o, d]) => h("li", null, `Officer ${o}: ${d}`)))) : null);
}

function revealForm(offer, view, act) {
  const rows = view.players.map((p) => {
    const id = "gts-" + p.seat;
    const prot = h("select", { id: id + "-p", class: "field-input", "aria-label": `${p.name}: Protester` },
      h("option", { value: "" }, "abstains"), [1, 2, 3, 4].map((n) => h("option", { value: String(n) }, "Protester " + n)));
    const rank = h("select", { id: id + "-r", class: "field-input", "aria-label": `${p.name}: card rank` }, RANKS.map((r) => h("option", { value: r }, r)));
    const suit = h("select", { id: id + "-s", class: "field-input", "aria-label": `${p.name}: card suit` }, SUITS.map((s) => h("option", { value: s }, title(s))));
    return { p, prot, rank, suit, el: h("fieldset", { class: "play-row" }, h("legend", null, p.name + (p.colour ? ` (${p.colour})` : "")), prot, rank, suit) };
  });
  const form = h("form", { class: "hand-form" }, h("h3", { class: "offer-heading" }, "Turn up the cards: who directs which Protester?"),
    rows.map((r) => r.el), h("button", { type: "submit", class: "offer" }, "Reveal the cards"));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const plays = rows.filter((r) => r.prot.value).map((r) => ({ player: r.p.seat, protester: Number(r.prot.value), rank: r.rank.value, suit: r.suit.value }));
    act({ type: "reveal", plays });
  });
  return form;
}

export function form(offer, view, act) {
  return offer.type === "reveal" ? revealForm(offer, view, act) : null;
}

export function label(offer, view) {
  switch (offer.type) {
    case "check": return offer.winners.length ? `${playerName(view, offer.winners[0])}'s van holds a Protester` : "No van holds a Protester";
    case "end_turn": return `${playerName(view, offer.player)}'s Journalists are done`;
    case "police": return `${playerName(view, offer.player)} moved the police`;
    default: return null;
  }
}

export function group(type, offers, view) {
  return { check: "Check the camera vans", end_turn: `${playerName(view, offers[0].player)}'s Journalists' turn (${view.actions_per_turn} actions)`,
    police: "The First Player moves the police" }[type] ?? null;
}
