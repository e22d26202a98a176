// Scoop! (2002): the map of Locations with their marks, each reporter's Steno Pad, whose turn.

import { h, num, who } from "../dom.js";
import { actionOf, playerName } from "../offers.js";

// The count is read out as text ("3 marks"): an aria-label on a span with no role is never heard.
function marks(n) {
  return h("span", { class: "marks" },
    h("span", { "aria-hidden": "true" }, n ? "●".repeat(Math.min(n, 8)) + (n > 8 ? "+" : "") : "○"),
    h("span", { class: "marks-n" }, String(n)), h("span", { class: "sr-only" }, n === 1 ? " mark" : " marks"));
}

function placeName(view, place) {
  if (place === "times") return "the Action City Times";
  if (place === "street") return "the street";
  const loc = view.locations.find((l) => l.number === place);
  return loc ? `#${loc.number} ${loc.name}` : String(place);
}

function map(view) {
  const tiles = view.locations.map((l) => h("li", { class: "loc" + (view.ickel && view.ickel.nickel_on === l.number ? " has-nickel" : "") },
    h("span", { class: "loc-name" }, h("span", { class: "loc-no" }, "#" + l.number), " ", l.name),
    marks(l.marks),
    l.here.length ? h("span", { class: "loc-here" }, "Here: " + l.here.join(", ")) : null,
    l.beat_of.length ? h("span", { class: "loc-beat" }, "Beat of " + l.beat_of.join(", ")) : null,
    view.ickel && view.ickel.nickel_on === l.number ? h("span", { class: "loc-beat" }, "N. Ickel's nickel") : null));
  const atTimes = view.players.filter((p) => p.place === "times").map((p) => p.name);
  const onStreet = view.players.filter((p) => p.place === "street").map((p) => p.name);
  return h("section", { "aria-label": "The map of Locations" },
    h("ol", { class: "locations" }, tiles),
    h("p", { class: "small muted" }, "At the Times: ", atTimes.join(", ") || "nobody", " · On the street: ", onStreet.join(", ") || "nobody"));
}

function pad(p, view) {
  const turn = view.turn === p.seat && view.phase !== "over";
  const won = view.winner === p.seat;
  return h("article", { class: "pad" + (turn ? " is-turn" : "") + (won ? " is-winner" : ""), "aria-label": `${p.name}'s Steno Pad` },
    h("header", { class: "paper-head" }, who(p.name, p.colour), turn ? h("span", { class: "tag tag-turn" }, "to play") : null,
      won ? h("span", { class: "tag tag-win" }, "winner") : null, p.box ? h("span", { class: "tag" }, "the box") : null),
    h("p", { class: "cash" }, num("sold:" + p.seat, p.sold), h("span", { class: "of" }, ` of ${p.to_win} sold`)),
    h("p", { class: "small" }, p.where),
    p.steno.length ? h("ul", { class: "steno" }, p.steno.map((s) => h("li", null, `#${s.location} ${s.name}: `, marks(s.marks))))
      : h("p", { class: "small muted" }, "Steno Pad empty"),
    p.sales.length ? h("p", { class: "small" }, "Sold: " + p.sales.map((s) => s.name).join(", ")) : null,
    p.beat ? h("p", { class: "small muted" }, "Beat: " + placeName(view, p.beat)) : null,
    p.blocked ? h("p", { class: "small muted" }, "Can't pitch " + placeName(view, p.blocked) + " " + (p.blocked_when || "this turn")) : null);
}

// The On the Street chart's entry for a move's roll, which the mover acts on before moving, as
// words.street_words says it in the log: the board's own words, or which entry to read.
function streetWords(r) {
  const row = r.value === 0 ? 10 : r.value;
  const entry = String(r.street).trim();
  return /^On the Street \d+: read entry \d+ on the board's chart/.test(entry)
    ? `first read entry ${row} of the board's On the Street chart` : `first the On the Street chart's ${row}: ${entry}`;
}

function lastRollWords(view) {
  const r = view.last_roll;
  if (!r) return null;
  const text = {
    beat_rolled: () => `rolled ${r.value}: beat ${placeName(view, r.location)}${r.taken ? " (taken, roll again)" : ""}`,
    move_rolled: () => `rolled ${r.value}: move up to ${r.steps} spaces` + (r.street ? `; ${streetWords(r)}` : ""),
    pitch_rolled: () => `rolled ${r.value} pitching ${placeName(view, r.story)}: ${r.sold ? "SOLD!" : "not sold"}`,
    marked: () => `rolled ${r.value}: a mark at ${placeName(view, r.location)}`,
  }[r.type];
  return text ? `${playerName(view, r.player)} ${text()}` : null;
}

// "Bob's roll" says little: the roll itself says what it did.
export function lastMove(view, said) {
  return said && /roll$/.test(said) ? lastRollWords(view) : null;
}

export function render(view) {
  const ickel = view.ickel ? h("p", { class: "notice" }, `N. Ickel's nickel is on #${view.ickel.nickel_on} ${view.ickel.nickel_on_name}.`) : null;
  return h("div", { class: "scoop2002" }, ickel, map(view),
    h("div", { class: "papers" }, view.players.map((p) => pad(p, view))));
}

export function label(offer, view) {
  switch (offer.type) {
    case "move": return "Move";
    case "stay": return "Stay on the scene (+1 mark)";
    case "pitch": return "Pitch " + placeName(view, offer.story);
    case "arrive": return offer.place === "times" ? "The Times" : offer.place === "street" ? "The street" : placeName(view, offer.place);
    case "roll": return "Roll (the box rolls)";
    default: return null;
  }
}

export function group(type, offers, view) {
  const name = playerName(view, offers[0].player);
  return { move: `${name}'s turn`, stay: null, pitch: "Pitch a story", arrive: `${name}: where did the coin stop?`,
    roll: view.waiting_for ? view.waiting_for.charAt(0).toUpperCase() + view.waiting_for.slice(1) : "Roll" }[type] ?? null;
}

// The stopwatch button's last digit, offered as a one-tap roll until it is used (the panel's
// oracle hook hands it over as the button gives it).
let stopwatch = null;
export function onOracle(kind, data) {
  if (kind === "stopwatch") stopwatch = typeof data.digit === "number" ? data.digit : null;
}

// A new game forgets the last one's stopwatch: "Use the stopwatch: 7" in a fresh game offered a
// press made in the game before.
export function forgetOracles() {
  stopwatch = null;
}

// Roll: one tap lets the box roll; or enter the stopwatch's hundredths digit. Against a sum or for
// odd/even a 0 counts as the game's "zero" option says (0 as read, or 10); a roll that picks a
// Location (Part 2's mark, a beat) reads a 0 as the tenth whatever the option: "0 counts as 0"
// said over a mark's roll named a Location #0 there is none of.
function zeroWords(view) {
  if (view.phase === "mark" || view.phase === "beats") return `a 0 is ${placeName(view, 10)}`;
  return `0 counts as ${view.zero_reads_as === 0 ? "0" : "10"}`;
}

export function form(offer, view, act, text) {
  if (offer.type !== "roll") return null;
  const use = stopwatch === null ? null : h("button", { type: "button", class: "offer offer-strong", id: "use-stopwatch",
    onclick: () => { const d = stopwatch; stopwatch = null; act(actionOf(offer, { value: d })); } }, `Use the stopwatch: ${stopwatch}`);
  const digits = h("div", { class: "digit-row", role: "group", "aria-label": "Or enter the stopwatch's digit" },
    [1, 2, 3, 4, 5, 6, 7, 8, 9, 0].map((d) => h("button", { type: "button", class: "digit", "aria-label": `Stopwatch showed ${d}`,
      onclick: () => act(actionOf(offer, { value: d })) }, String(d))));
  return h("div", { class: "roll" }, use,
    h("button", { type: "button", class: "offer", onclick: () => act(actionOf(offer)) }, text),
    h("p", { class: "small muted" }, `…or the stopwatch's hundredths digit (${zeroWords(view)}):`), digits);
}
