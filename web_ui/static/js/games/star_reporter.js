// Star Reporter (1937): each reporter's travel state (plane, telephone, assignment) and points,
// the Disasters turned up against the Catastrophe to come, and the last throw in the rules' words.

import { h, num, title, who } from "../dom.js";
import { actionOf, playerName } from "../offers.js";

const FACES = ["", "⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];
const METHOD = { automobile: "By automobile", train: "By train", airplane: "By airplane" };

// The dice button's last throw (two dice), used by the next throw until it is used (the panel's
// oracle hook hands it over as the button gives it).
let dice = null;
export function onOracle(kind, data) {
  if (kind === "dice") dice = Array.isArray(data.faces) && data.faces.length === 2 ? data.faces.slice() : null;
}

// A new game forgets the last one's throw: a fresh game offering "the dice button's 4 + 6" would
// throw it for a reporter who never pressed the button in this game.
export function forgetOracles() {
  dice = null;
}

// "let the box roll instead": the notice goes, and with it the button that had the focus; the
// focus goes on to the throw it changed (or the offers), not to the page's top, where a keyboard
// or a screen reader would start the page over.
function forgetDice(e) {
  dice = null;
  const area = e.currentTarget.closest("#game-area") || document;
  e.currentTarget.closest(".notice").remove();
  const next = area.querySelector("#offers .offer-throw") || area.querySelector("#offers");
  if (next) next.focus();
}

function throwFaces(d) {
  return h("span", { class: "dice-faces" }, h("span", { "aria-hidden": "true" }, d.map((f) => FACES[f] || f).join(" ")),
    h("span", { class: "dice-numbers" }, ` ${d[0]} + ${d[1]} = ${d[0] + d[1]}`));
}

function assignment(a) {
  if (a.status === "done") return "Assignment done: back to Urbania or telephone for a new one";
  const bits = [a.city, a.event, a.points !== null && a.points !== undefined ? `${a.points} points` : null, a.grid ? `(${a.grid})` : null].filter(Boolean);
  return "Assignment: " + (bits.length ? bits.join(" · ") : "the News card in front of them");
}

function reporter(p, view) {
  const turn = view.turn === p.seat && view.phase !== "over";
  const won = (view.winners || []).includes(p.seat);
  const plane = p.plane.chartered ? `Plane chartered, at ${p.plane.at}` : `No plane yet (planes wait at ${p.plane.at})`;
  const phone = p.telephone.on_board ? `Telephoning for ${p.telephone.for === "plane" ? "the plane" : "an assignment"}: ${p.telephone.attempts} tr${p.telephone.attempts === 1 ? "y" : "ies"}` : null;
  return h("article", { class: "paper" + (turn ? " is-turn" : "") + (won ? " is-winner" : ""), "aria-label": `${p.name}, reporter` },
    h("header", { class: "paper-head" }, who(p.name, p.colour), turn ? h("span", { class: "tag tag-turn" }, "to throw") : null,
      view.mover === p.seat && view.phase === "moved" ? h("span", { class: "tag" }, "just moved") : null,
      won ? h("span", { class: "tag tag-win" }, "Star Reporter") : null),
    h("p", { class: "cash" }, num("score:" + p.seat, p.score), h("span", { class: "of" }, " points")),
    h("p", { class: "small" }, assignment(p.assignment)),
    h("p", { class: "small muted" }, plane),
    phone ? h("p", { class: "small" }, "☎ " + phone) : null,
    p.cards.length ? h("p", { class: "small muted" }, `${p.cards.length} card${p.cards.length > 1 ? "s" : ""} won`) : null);
}

export function render(view) {
  const d = view.disasters || { drawn: 0, before_catastrophe: 0, open: [] };
  const last = view.last_throw;
  return h("div", { class: "star" },
    last ? h("section", { class: "verdict-box throw-box", "aria-label": "The last throw" },
      h("p", { class: "throw-dice" }, throwFaces(last.dice)), h("p", { class: "message" }, last.reading)) : null,
    h("p", { class: "round" }, "Disasters ", h("strong", { class: "num-big" }, num("disasters", d.drawn)),
      ` of ${d.before_catastrophe} before the Catastrophe`,
      // a space before each tag: its margin shows one, but the text read aloud ran on ("Catastrophe1 open to all");
      // once the Catastrophe is reached and the game is over, no Disaster is open to anyone
      d.open.length && view.phase !== "over" ? [" ", h("span", { class: "tag tag-turn" }, `${d.open.length} open to all`)] : null,
      view.catastrophe === "open" ? [" ", h("span", { class: "tag tag-turn" }, "Catastrophe open!")] : null),
    // a game that knows one airport has no flights: the airplane is not offered, and this says why
    view.no_flights ? h("p", { class: "small muted" }, "No flights: " + view.no_flights) : null,
    dice ? h("p", { class: "notice" }, "The next throw uses the dice button's ", throwFaces(dice), " ",
      h("button", { type: "button", class: "quiet", id: "forget-dice", onclick: forgetDice }, "let the box roll instead")) : null,
    h("div", { class: "papers" }, view.players.map((p) => reporter(p, view))));
}

export function label(offer, view) {
  switch (offer.type) {
    case "throw":
      if (!offer.method) return "Throw for who moves first";
      if (offer.method === "telephone") return offer.purpose === "plane" ? "Telephone for the plane" : "Telephone for a new assignment";
      return METHOD[offer.method] || title(offer.method);
    // its form asks the airport first, then this button: the words follow the choice made above them
    case "land": return view.phase === "plane_call" ? "Send the plane there" : "Fly there";
    case "draw": return "Draw a new News card";
    // same_city: after a Disaster won on this move, as a Disaster after the News card
    case "news": return offer.same_city ? `The News card${cityOf(offer, view)} is in the same city too` : "Reached the assignment's city";
    // same_city: a card won on this move already names the city reached, and this one does too
    case "disaster": return offer.same_city ? `Disaster #${offer.card} is in the same city too` : `Reached Disaster #${offer.card}`;
    case "catastrophe": {
      // disaster: an open Disaster's city is the Catastrophe's too, both won with this tap; with
      // news as well, the News card's city too: all three
      if (offer.disaster !== undefined && offer.news) {
        return offer.same_city ? `The Catastrophe, the News card${cityOf(offer, view)} and Disaster #${offer.disaster} are in the same city too!`
          : `Reached the Catastrophe at the News card's and Disaster #${offer.disaster}'s city${cityOf(offer, view)} too`;
      }
      if (offer.disaster !== undefined) {
        return offer.same_city ? `The Catastrophe and Disaster #${offer.disaster} are in the same city too!`
          : `Reached the Catastrophe at Disaster #${offer.disaster}'s city too`;
      }
      if (!offer.news) return offer.same_city ? "The Catastrophe is in the same city too!" : "Reached the Catastrophe!";
      return offer.same_city ? `The Catastrophe and the News card${cityOf(offer, view)} are in the same city too!`
        : `Reached the Catastrophe at the News card's city${cityOf(offer, view)} too`;
    }
    default: return null;
  }
}

// " (Riverton)": the city on the mover's News card, when it was entered as drawn
function cityOf(offer, view) {
  const me = view.players && view.players[offer.player];
  const city = me && me.assignment && me.assignment.city;
  return city ? ` (${city})` : "";
}

// What a move reached (News, a new card at Urbania, a Disaster, the Catastrophe) is headed with
// the mover's name, each kind of card alike: the next reporter's throws come first, and a card
// headed by nothing read as theirs. The panel says a heading once for groups in a row.
export function group(type, offers, view) {
  const name = playerName(view, offers[0].player);
  const reached = view.phase === "moved" ? `${name}: what the move reached` : null;
  return { throw: offers[0].method ? `${name}: announce the method, then throw` : `${name} throws`,
    land: `${name}'s plane`, draw: reached, news: reached, disaster: reached, catastrophe: reached }[type] ?? null;
}

// Throws: one tap; the box rolls, or the dice button's last throw is used.
export function form(offer, view, act, text) {
  if (offer.type !== "throw" || (offer.enter && offer.enter.length)) return null;
  return h("button", { type: "button", class: "offer offer-throw", dataset: { offer: JSON.stringify(actionOf(offer)) },
    onclick: () => { const extra = dice ? { dice } : {}; dice = null; act(actionOf(offer, extra)); } },
  h("span", null, text), offer.needs ? h("span", { class: "offer-needs" }, offer.needs) : null);
}
