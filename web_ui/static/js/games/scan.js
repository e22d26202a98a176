// SCAN (1988): the WE/THEY scoresheet and the race to 155. Suits are always named and marked
// with their symbol and value: their colour never carries meaning alone.

import { confirmButton, h, num } from "../dom.js";
import { announce } from "../toast.js";

export const SUITS = {
  spades: { symbol: "♠", word: "Spades" },
  hearts: { symbol: "♥", word: "Hearts" },
  diamonds: { symbol: "♦", word: "Diamonds" },
  clubs: { symbol: "♣", word: "Clubs" },
};

function suitTag(suit, value) {
  const s = SUITS[suit];
  return h("span", { class: "suit suit-" + suit }, h("span", { class: "suit-symbol", "aria-hidden": "true" }, s.symbol),
    " " + s.word + (value !== undefined ? ` (${value > 0 ? "+" : "−"}${Math.abs(value)})` : ""));
}

function race(view) {
  return h("section", { class: "race", "aria-label": view.target ? `The race to ${view.target}` : "The scores" },
    view.race.map((r, i) => {
      const col = view.columns[i];
      const won = view.winners.includes(r.side);
      const max = view.target || Math.max(1, ...view.race.map((x) => x.total));
      return h("div", { class: "race-row" + (won ? " is-winner" : "") },
        h("p", { class: "race-label" }, h("strong", null, col.label), col.label !== col.side ? ` (${col.players.join(" & ")})` : "",
          won ? [" ", h("span", { class: "tag tag-win" }, "winner")] : null),      // a space: read aloud, "WE (Ann & Cat)winner"
        h("p", { class: "cash" }, num("total:" + r.side, r.total), view.target ? h("span", { class: "of" }, ` of ${view.target}`) : null),
        h("progress", { max: String(max), value: String(Math.min(max, Math.max(0, r.total))), "aria-label": `${col.label}: ${r.total}` }),
        r.to_go !== null && r.to_go !== undefined ? h("p", { class: "small muted" }, r.to_go ? `${r.to_go} to go` : "reached the target") : null);
    }));
}

function sheet(view) {
  const head = h("tr", null, h("th", { scope: "col" }, "Hand"), view.columns.map((c) => h("th", { scope: "col" }, c.label)));
  const rows = view.rows.map((r) => h("tr", null, h("th", { scope: "row" }, String(r.hand)),
    r.points.map((p, i) => h("td", null, h("span", { class: "pts" }, (p > 0 ? "+" : "") + p), h("span", { class: "tot" }, " = " + r.totals[i])))));
  return h("section", { "aria-label": "The scoresheet" },
    h("table", { class: "sheet" }, h("caption", { class: "sr-only" }, "Points per hand, with running totals"),
      h("thead", null, head), h("tbody", null, rows.length ? rows : h("tr", null, h("td", { colspan: String(view.columns.length + 1), class: "muted" }, "No hands yet.")))));
}

// A time-limit game's countdown: the engine keeps no clock, so the page counts down to ends_at.
// The timer is no live region (a screen reader would hear every second), so time running out
// is said once, politely: as the countdown reaches zero on a page open then, or as a page opened
// (or reloaded) after the end first draws the game, since its timer's words are otherwise never
// heard. For each game (its id and end) the page remembers that it said so, since the timer is
// drawn again with each move.
const TIME_UP = "Time is up: tap “Time is up” to end the game.";
const told = new Set();            // the keys of the games whose time running out was said

function countdownKey(view, game) {
  return (game && game.id !== undefined ? game.id : "") + "@" + view.countdown.ends_at;
}

function tellTimeUp(key, left) {
  if (left > 0 || told.has(key)) return;
  told.add(key);
  announce(TIME_UP);
}

let ticker = null;
function countdown(view, game) {
  clearInterval(ticker);
  const c = view.countdown;
  if (!c) return null;
  const out = h("p", { class: "countdown", role: "timer", "aria-live": "off" });
  const end = c.ends_at ? Date.parse(c.ends_at) : NaN;
  const key = countdownKey(view, game);
  const show = () => {
    // ended early, the words say so: time did not run out
    if (c.time_up) { out.textContent = c.said || "Time is up."; return; }
    if (Number.isNaN(end)) { out.textContent = `Time limit: ${c.minutes} minutes.`; return; }
    const left = Math.max(0, Math.round((end - Date.now()) / 1000));
    out.textContent = left > 0 ? `Time left: ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}` : TIME_UP;
    tellTimeUp(key, left);
    if (!left) clearInterval(ticker);
  };
  show();
  if (!c.time_up && !Number.isNaN(end)) ticker = setInterval(() => { if (out.isConnected) show(); else clearInterval(ticker); }, 1000);
  return out;
}

export function render(view, game) {
  const values = view.suit_values || {};
  return h("div", { class: "scan" },
    // once the game is over no hand is dealt: the dealer of the next one is not named
    h("p", { class: "small muted" }, view.variant_name, view.over ? "" : ` · dealer: ${view.dealer}`, ` · deal ${view.deal} · ${view.trump}`),
    countdown(view, game), race(view), sheet(view),
    h("p", { class: "legend small" }, Object.keys(SUITS).map((s) => [suitTag(s, values[s]), " "])));
}

// How long typing must pause before the count of cards entered is said.
const COUNT_PAUSE_MS = 1000;

function handForm(offer, view, act) {
  const values = view.suit_values || {};
  const inputs = {};
  const preview = {};
  // The count shows at each key, and is said when typing pauses: as a live region it was said
  // at every key, twice a field ("1 cards entered" as the 1 went in, then again for the 0).
  const count = h("p", { class: "small" });
  let countTimer = null;
  let countSaid = null;
  const sayCount = () => {
    clearTimeout(countTimer);
    countTimer = setTimeout(() => {
      if (!count.isConnected || count.textContent === countSaid) return;
      countSaid = count.textContent;
      announce(countSaid);
    }, COUNT_PAUSE_MS);
  };
  const expected = view.cards_per_hand_said;     // No Trump: "45, 48 or 51", one count or another, never a range
  // as the box will score it: a side under 0 scores nothing, and under the "plus_scores" option's
  // "best" only the best + side scores (its preview said every + side's score)
  const update = () => {
    let cards = 0;
    const worth = {};
    for (const side of offer.sides) {
      worth[side] = 0;
      for (const suit of offer.suits) {
        const n = Number(inputs[side][suit].value || 0);
        cards += n;
        worth[side] += n * (values[suit] || 0);
      }
    }
    const best = Math.max(...Object.values(worth));
    for (const side of offer.sides) {
      const score = worth[side];
      preview[side].textContent = score < 0 ? `scores 0 (${score} counts as 0)`
        : view.plus_scores === "best" && score > 0 && score < best ? `scores 0 (cards worth ${score}; only the best + ${view.side_word} scores)`
        : `scores ${score}`;
    }
    count.textContent = `${cards} card${cards === 1 ? "" : "s"} entered; this game takes ${expected}.`;
  };
  const sides = offer.sides.map((side, i) => {
    inputs[side] = {};
    preview[side] = h("span", { class: "preview" });
    const label = view.columns[i] ? view.columns[i].label : side;
    return h("fieldset", { class: "hand-side" }, h("legend", null, label + (label !== side ? ` (${side})` : "")),
      offer.suits.map((suit) => {
        const id = `hand-${i}-${suit}`;
        const input = h("input", { id, type: "number", inputmode: "numeric", min: "0", max: "13", step: "1", value: "0",
          class: "field-input", name: `${side}:${suit}` });
        input.addEventListener("input", () => { update(); sayCount(); });
        inputs[side][suit] = input;
        return h("label", { for: id, class: "field field-suit" }, suitTag(suit), input);
      }), preview[side]);
  });
  const form = h("form", { class: "hand-form" }, h("h3", { class: "offer-heading" }, `Hand ${view.rows.length + 1}: cards each ${view.side_word} took`),
    sides, count, h("button", { type: "submit", class: "offer" }, `Score hand ${view.rows.length + 1}`));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const taken = {};
    for (const side of offer.sides) {
      taken[side] = {};
      for (const suit of offer.suits) taken[side][suit] = Number(inputs[side][suit].value || 0);
    }
    act({ type: "hand", taken });
  });
  update();
  countSaid = count.textContent;      // drawn with the form: nothing typed yet, nothing to say
  return form;
}

export function waiting(view) {
  if (view.over) return "";
  return `${view.dealer} deals hand ${view.rows.length + 1}; when it's played, enter the cards each ${view.side_word} took`;
}

// "hand" says little: the sheet's newest row says what it did, each side's points and its total
// so far ("WE +45 (45)" left the 45 in brackets for a newcomer to guess at).
export function lastMove(view, said) {
  if (!said || !/^(hand|Took back|Put back)/.test(said) || !view.rows.length) return null;
  const r = view.rows[view.rows.length - 1];
  const sides = view.columns.map((c, i) => `${c.label} ${r.points[i] > 0 ? "+" : ""}${r.points[i]} (total ${r.totals[i]})`).join(", ");
  return said.startsWith("hand") ? `hand ${r.hand} scored: ${sides}` : `${said}; the sheet now ends at hand ${r.hand}: ${sides}`;
}

// The seconds left on the countdown, by this device's clock; null when the game gave no end.
function secondsLeft(view) {
  const end = view.countdown && view.countdown.ends_at ? Date.parse(view.countdown.ends_at) : NaN;
  return Number.isNaN(end) ? null : Math.max(0, Math.round((end - Date.now()) / 1000));
}

// "Time is up" ends the game: with time still on the countdown it asks first (as Abandon does,
// "No, keep playing" focused), and sends this device's clock ("at"), so the engine, which reads
// none, can say the game was ended before its time ran out rather than that time ran out.
function timeUpButton(offer, view, act, label) {
  return confirmButton({ id: "time-up", label, className: "offer", yesClass: "offer", box: "div",
    yes: "Yes, end the game now", no: "No, keep playing",
    ask: () => {
      const left = secondsLeft(view);
      if (!left) return false;
      const clock = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
      return `Time hasn't run out: ${clock} left. End the game now? The highest score entered so far wins.`;
    },
    onYes: () => act({ type: "time_up", at: new Date().toISOString() }) });
}

export function form(offer, view, act, label) {
  if (offer.type === "time_up") return timeUpButton(offer, view, act, label || "Time is up");
  return offer.type === "hand" ? handForm(offer, view, act) : null;
}

export function label(offer) {
  return offer.type === "time_up" ? "Time is up: the highest score wins" : null;
}

export function group(type) {
  return type === "time_up" ? "The countdown" : null;
}
