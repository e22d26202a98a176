// Get the Scoop! (2011): the round and its phase, the First Player badge, the cards turned up
// and what they did, and, when the box keeps the board, the 12x12 board itself, each player's
// actions left in the Journalists' turn, the cards in hand and the police's step for the round.

import { h, title, who } from "../dom.js";
import { playerName } from "../offers.js";
import { announce } from "../toast.js";

const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9"];
const SUITS = ["hearts", "diamonds", "clubs", "spades"];
const PIP = { hearts: "♥", diamonds: "♦", clubs: "♣", spades: "♠" };
const ARROW = { up: "↑", down: "↓", left: "←", right: "→", "up-left": "↖", "up-right": "↗", "down-left": "↙", "down-right": "↘" };

function phaseList(view) {
  const list = [["protesters", "Protesters"]];
  if (!view.board) list.push(["check", "Camera vans"]);
  list.push(["journalists", "Journalists"], ["police", "Police"]);
  return list;
}

function phases(view) {
  return h("ol", { class: "phases", "aria-label": "Phases of the round" }, phaseList(view).map(([key, name]) =>
    h("li", { class: view.phase === key ? "is-now" : "", "aria-current": view.phase === key ? "step" : null },
      name, view.phase === key ? h("span", { class: "sr-only" }, " (now)") : null)));
}

function colourOf(view, piece) {
  const p = view.players.find((pl) => piece.startsWith(pl.colour));
  return p ? p.colour : null;
}

// The board as a grid: Protesters P1-P4, Police o1-o8, Journalists as their colour's initial.
function board(view) {
  const b = view.board;
  if (!b) return null;
  const side = (where) => h("span", { class: "gts-side gts-side-" + where }, `${PIP[view.sides[where]]} ${view.sides[where]}`);
  const moved = new Set();
  for (const c of (view.last_reveal && view.last_reveal.plays) || []) for (const m of c.moves || []) moved.add(m[2]);
  if (!squareAt(b, onSquare)) onSquare = b.columns[0] + "1";
  const rows = b.rows.map((row, r) => h("tr", null, h("th", { scope: "row" }, String(r + 1)), row.map((piece, c) => {
    const sq = b.columns[c] + (r + 1);
    const van = b.vans[sq];
    const cls = ["gts-sq"];
    if (van !== undefined) cls.push("gts-van", "gts-van-" + view.players[van].colour);
    if (moved.has(sq)) cls.push("gts-moved");
    let text = "", label = sq + ": empty";
    if (piece) {
      label = sq;
      if (piece[0] === "P") { cls.push("gts-protester"); text = piece; label += ": Protester " + piece.slice(1); }
      else if (piece[0] === "O") { cls.push("gts-police"); text = "o" + piece.slice(1); label += ": Police Officer " + piece.slice(1); }
      else { const colour = colourOf(view, piece); cls.push("gts-j", "gts-j-" + colour); text = colour ? colour[0].toUpperCase() : "J"; label += ": " + colour + " Journalist"; }
    }
    if (van !== undefined) label += `, ${view.players[van].name}'s camera van`;     // the ring's colour, in words
    return h("td", { class: cls.join(" "), role: "gridcell", id: "gts-sq-" + sq, tabindex: sq === onSquare ? "0" : "-1",
      title: label, "aria-label": label, dataset: { square: sq }, onclick: () => tapSquare(sq) }, text);
  })));
  const last = b.columns[b.columns.length - 1] + b.rows.length;
  const grid = h("table", { class: "gts-grid", role: "grid", "aria-label": `Squares, a1 top left to ${last} bottom right`,
    onkeydown: (e) => boardKey(e, b), onfocusin: (e) => rove(grid, e.target) },
  h("thead", null, h("tr", null, h("td", { class: "gts-corner" }), b.columns.split("").map((c) => h("th", { scope: "col" }, c)))),
  h("tbody", null, rows));
  // The side labels scroll with the grid, framing it: outside the scroller the right one sat by
  // whatever column the screen ended at, as if the board ended there.
  const scroller = h("div", { class: "table-scroll gts-scroll", role: "region",
    "aria-label": "The board's squares", "aria-describedby": "gts-scroll-hint" },
  h("div", { class: "gts-frame" }, side("top"), side("left"), grid, side("right"), side("bottom")));
  const hint = h("p", { id: "gts-scroll-hint", class: "gts-scroll-hint small", hidden: true },
    `Wider than the screen: swipe the board sideways (or use the arrow keys) to reach columns ${b.columns[0]} to ${b.columns[b.columns.length - 1]}.`);
  const wrap = h("div", { class: "gts-scroll-wrap" }, scroller);
  watchScrolling(scroller, wrap, hint);
  // which suit is on which side is a choice the rules leave open: said under the board
  return h("figure", { class: "gts-board", "aria-label": "The board" }, hint, wrap,
    view.sides_said ? h("figcaption", { class: "small muted gts-sides-said" }, view.sides_said) : null);
}

// The board is one stop for the Tab key, an ARIA grid with a roving tabindex: the square last
// focused (a1 at first) has tabindex 0, the rest -1; the arrow keys move the focus square by
// square, Home and End to the row's ends (with Ctrl, the board's corners), and Enter or Space does
// what a tap on the square does. The square is kept across redraws (a move on another tablet
// redraws the board), so Tab comes back to where the keys left off.
let onSquare = null;

function squareAt(b, sq) {
  const c = typeof sq === "string" ? b.columns.indexOf(sq[0]) : -1;
  const r = c >= 0 ? Number(sq.slice(1)) - 1 : -1;
  return c >= 0 && Number.isInteger(r) && r >= 0 && r < b.rows.length ? [r, c] : null;
}

function rove(grid, el) {
  const td = el.closest && el.closest("[data-square]");
  if (!td || td.tabIndex === 0) return;
  for (const other of grid.querySelectorAll("[data-square][tabindex='0']")) other.tabIndex = -1;
  td.tabIndex = 0;
  onSquare = td.dataset.square;
}

function boardKey(e, b) {
  const td = e.target.closest("[data-square]");
  const at = td && squareAt(b, td.dataset.square);
  if (!at || e.altKey || e.metaKey) return;
  if (e.key === "Enter" || e.key === " ") {
    e.preventDefault();          // Space would scroll the page
    tapSquare(td.dataset.square);
    return;
  }
  const [r, c] = at;
  const lastRow = b.rows.length - 1, lastCol = b.columns.length - 1;
  const to = { ArrowUp: [r - 1, c], ArrowDown: [r + 1, c], ArrowLeft: [r, c - 1], ArrowRight: [r, c + 1],
    Home: [e.ctrlKey ? 0 : r, 0], End: [e.ctrlKey ? lastRow : r, lastCol] }[e.key];
  if (!to) return;
  e.preventDefault();            // the focus moves; the board scrolls to it, never the page by the key
  const [nr, nc] = [Math.min(Math.max(to[0], 0), lastRow), Math.min(Math.max(to[1], 0), lastCol)];
  const next = document.getElementById("gts-sq-" + b.columns[nc] + (nr + 1));
  if (next) next.focus();
}

// On a phone the 12 columns of 44 px squares (a finger's) can't fit, so the board scrolls
// sideways within itself, never the page: the focused square is scrolled to (the arrow keys reach
// its far side), a sentence above says it scrolls, and a fade on either edge shows more board that way.
function watchScrolling(scroller, wrap, hint) {
  const update = () => {
    const more = scroller.scrollWidth - scroller.clientWidth > 1;
    hint.hidden = !more;
    wrap.classList.toggle("gts-more-left", more && scroller.scrollLeft > 1);
    wrap.classList.toggle("gts-more-right", more && scroller.scrollLeft < scroller.scrollWidth - scroller.clientWidth - 1);
  };
  scroller.addEventListener("scroll", update, { passive: true });
  if (window.ResizeObserver) {
    const seen = new ResizeObserver(() => { if (scroller.isConnected) update(); else seen.disconnect(); });
    seen.observe(scroller);        // its first report comes once the board is on the page
  }
}

// Which corner (camera van) is whose: read from the box's board where it keeps one; with the
// table's own board, the engine's order (seat 0 top-left, then clockwise, as the players were listed).
const CLOCKWISE = ["top-left", "top-right", "bottom-right", "bottom-left"];
function cornerOf(view, seat) {
  const b = view.board;
  const squares = b ? Object.keys(b.vans).filter((sq) => b.vans[sq] === seat) : [];
  if (!squares.length) return CLOCKWISE[seat] || "";
  const col = squares.reduce((t, sq) => t + b.columns.indexOf(sq[0]), 0) / squares.length;
  const row = squares.reduce((t, sq) => t + Number(sq.slice(1)) - 1, 0) / squares.length;
  return (row < b.rows.length / 2 ? "top" : "bottom") + "-" + (col < b.columns.length / 2 ? "left" : "right");
}

function corners(view) {
  return h("p", { class: "gts-corners small", id: "gts-corners" }, "Corners (camera vans): ",
    view.players.map((p, i) => [i ? ", " : "", h("strong", null, p.name), ` (${p.colour}) ${cornerOf(view, p.seat)}`]));
}

function reveal(view) {
  const r = view.last_reveal;
  if (!r) return null;
  const plays = r.plays.map((c) => h("li", null, h("strong", null, playerName(view, c.player)), ` → Protester #${c.protester}: `,
    h("span", { class: "card-face" }, `${c.rank} of ${c.suit}`), `, ${c.distance} toward ${c.toward}`, c.push ? h("strong", null, ", may push") : null,     // a 3, 6 or 9: whether it did is in its moves
    c.moves ? ` — ${c.moves.filter((m) => m[0] === "P" + c.protester).map((m) => m[2]).join(" → ") || "stayed"}` : null,
    c.stopped ? h("span", { class: "muted" }, ` (${c.stopped})`) : null));
  const orders = (r.orders || []).filter((o) => o.players.length > 1).map((o) =>
    h("li", { class: "small muted" }, `Protester #${o.protester}: ${o.players.map((p) => playerName(view, p)).join(", then ")} (${o.how === "drawn" ? "order drawn by the box" : o.how})`));
  const bluffed = r.bluffed || [];
  const names = (seats) => seats.map((p) => playerName(view, p)).join(", ");
  const idle = (r.abstained || []).filter((p) => !bluffed.includes(p));
  return h("section", { "aria-label": "Cards turned up" }, h("h3", { class: "offer-heading" }, `Round ${r.round}: cards turned up, in order`),
    plays.length ? h("ol", { class: "plays" }, plays) : h("p", { class: "muted" }, bluffed.length ? "Nobody directed a Protester." : "Everyone abstained."),
    orders.length ? h("ul", { class: "plays" }, orders) : null,
    bluffed.length ? h("p", { class: "small muted" }, "Bluffed (a card, no die; the card is discarded): " + names(bluffed)) : null,
    idle.length && (plays.length || bluffed.length) ? h("p", { class: "small muted" }, "Abstained: " + names(idle)) : null);
}

function police(view) {
  const p = view.police_this_round;
  if (!p) return null;
  const last = view.last_police;
  return h("details", { class: "small", open: view.phase === "police" ? true : null },
    // the arrows are for the eye; a screen reader hears the list below them in words
    // whose step it is, said beside it: past the rules' first two, the table is newsdesk's own
    h("summary", null, `Police this round (step ${p.step}${p.by ? ", " + p.by : ""})`, h("span", { "aria-hidden": "true" }, ": " + Object.entries(p.moves).map(([o, d]) => `${o}${ARROW[d] || d}`).join(" "))),
    h("ul", null, Object.entries(p.moves).map(([o, d]) => h("li", null, `Officer ${o}: ${d}`))),
    p.said ? h("p", { class: "muted gts-police-by" }, p.said) : null,
    last && last.blocked && last.blocked.length ? h("p", { class: "muted" }, `Last police turn, blocked: ${last.blocked.map((o) => o.slice(1)).join(", ")}`) : null);
}

function journalistTurn(view) {
  if (view.actions_left === null || view.actions_left === undefined || view.journalist === null) return null;
  return h("p", { class: "gts-actions" }, h("strong", null, playerName(view, view.journalist)), "'s Journalists: ",
    h("strong", { class: "num-big" }, String(view.actions_left)), ` of ${view.actions_per_turn} actions left`,
    (view.turn_log || []).length ? h("span", { class: "small muted" }, " · " + view.turn_log.map((e) =>
      e.type === "drew" ? "drew" : `${e.moves[e.moves.length - 1][1]}→${e.moves[e.moves.length - 1][2]} (${e.how})`).join(", ")) : null);
}

export function render(view) {
  return h("div", { class: "gts" },
    h("p", { class: "round" }, "Round ", h("strong", { class: "num-big" }, String(view.round))),
    phases(view),
    h("p", { class: "badge-first" }, h("span", { "aria-hidden": "true" }, "★ "), "First Player: ", h("strong", null, view.first_player_name)),
    h("ul", { class: "players-row" }, view.players.map((p) => h("li", { class: "player-chip" + (p.badge ? " has-badge" : "") +
      (view.journalist === p.seat ? " is-turn" : "") + ((view.winners || []).includes(p.seat) ? " is-winner" : "") },
      // a space before each tag: its margin shows one, but the text read aloud ran on ("★ First3 cards")
      who(p.name, p.colour), p.badge ? [" ", h("span", { class: "tag tag-turn" }, "★ First")] : null,
      typeof p.hand === "number" ? [" ", h("span", { class: "tag" }, `${p.hand} card${p.hand === 1 ? "" : "s"}`)] : null,
      p.done ? [" ", h("span", { class: "tag" }, "✓ done")] : null,
      (view.winners || []).includes(p.seat) ? [" ", h("span", { class: "tag tag-win" }, "winner")] : null))),
    journalistTurn(view),
    corners(view),
    board(view),
    reveal(view),
    police(view));
}

// A card picker starts on what it asks ("Rank…", "Suit…"), not on a card: started on the ace of
// hearts, every player's picker showed the same card, and the defaults sent were refused as one
// card played twice. The two side by side, each headed "Choose…", didn't say which was which.
function cardPicker(id, label, asks, values, words) {
  return h("select", { id, class: "field-input", required: true, "aria-label": label },
    h("option", { value: "" }, asks), values.map((v) => h("option", { value: v }, words(v))));
}

// A player who plays a card must say which: the sentence beside their row names what is unpicked.
function missingCard(row) {
  const missing = [row.rank, row.suit].filter((pick) => !pick.hidden && !pick.value);
  if (!missing.length) return null;
  const what = missing.length === 2 ? "rank and suit" : missing[0] === row.rank ? "rank" : "suit";
  return { missing, said: `${row.p.name}: choose the card's ${what}, as it will be turned up.` };
}

function showMissing(row, found) {
  row.problem.textContent = found ? found.said : "";
  row.problem.hidden = !found;
  for (const pick of [row.rank, row.suit]) {
    const wrong = Boolean(found) && found.missing.includes(pick);
    if (wrong) {
      pick.setAttribute("aria-invalid", "true");
      pick.setAttribute("aria-describedby", row.problem.id);
    } else {
      pick.removeAttribute("aria-invalid");
      pick.removeAttribute("aria-describedby");
    }
  }
}

function revealForm(offer, view, act) {
  const rows = view.players.map((p) => {
    const id = "gts-" + p.seat;
    const prot = h("select", { id: id + "-p", class: "field-input", "aria-label": `${p.name}: Protester` },
      h("option", { value: "" }, "abstains"), h("option", { value: "bluff" }, "bluffs (a card, no die)"),
      [1, 2, 3, 4].map((n) => h("option", { value: String(n) }, "Protester " + n)));
    const rank = cardPicker(id + "-r", `${p.name}: card rank`, "Rank…", RANKS, (r) => r);
    const suit = cardPicker(id + "-s", `${p.name}: card suit`, "Suit…", SUITS, title);
    const problem = h("p", { class: "error field-problem", id: id + "-problem", hidden: true });
    const row = { p, prot, rank, suit, problem };
    // a player who abstains turns up no card, and a bluffer's card moves no one: no rank or suit
    // to read beside either (nor a sentence about them)
    const card = () => {
      rank.hidden = suit.hidden = !prot.value || prot.value === "bluff";
      if (rank.hidden) showMissing(row, null);
    };
    prot.addEventListener("change", card);
    card();
    row.el = h("fieldset", { class: "play-row" }, h("legend", null, p.name + (p.colour ? ` (${p.colour})` : "")), prot, rank, suit, problem);
    return row;
  });
  // novalidate: an unpicked card gets its sentence beside its row, not the browser's bubble
  const form = h("form", { class: "hand-form", novalidate: true }, h("h3", { class: "offer-heading" }, "Turn up the cards: who directs which Protester?"),
    rows.map((r) => r.el), h("button", { type: "submit", class: "offer" }, "Reveal the cards"));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    let first = null;
    for (const r of rows) {
      const found = missingCard(r);
      showMissing(r, found);
      if (found && !first) first = found.missing[0];
    }
    if (first) { first.focus(); return; }      // the field says its sentence (described by it); nothing is sent
    const plays = rows.filter((r) => r.prot.value).map((r) => r.prot.value === "bluff" ? { player: r.p.seat, bluff: true }
      : { player: r.p.seat, protester: Number(r.prot.value), rank: r.rank.value, suit: r.suit.value });
    act({ type: "reveal", plays });
  });
  return form;
}

// Tapping the board (or Enter on a square) picks a move: a Journalist of the player whose turn it
// is, then where it goes. The squares it can go to are marked (and said), so the second tap isn't
// a guess; the choice lands in the move form's list, so the table sees it before sending it.
let tapped = null;

function tapSquare(sq) {
  const pick = document.getElementById("gts-move");
  if (!pick) return;
  const choices = JSON.parse(pick.dataset.choices || "[]");
  const mark = (square, cls, on) => { const td = document.querySelector(`[data-square='${square}']`); if (td) td.classList.toggle(cls, on); };
  const targets = (from) => choices.filter((c) => c.from === from).map((c) => c.to);
  if (tapped) { mark(tapped, "gts-picked", false); for (const to of targets(tapped)) mark(to, "gts-can-go", false); }
  const i = tapped ? choices.findIndex((c) => c.from === tapped && c.to === sq) : -1;
  if (i >= 0) { pick.value = String(i); tapped = null; pick.focus(); return; }
  tapped = choices.some((c) => c.from === sq) ? sq : null;
  if (!tapped) return;
  mark(tapped, "gts-picked", true);
  const to = targets(tapped);
  for (const square of to) mark(square, "gts-can-go", true);
  announce(`${tapped} picked: it can go to ${to.join(", ")}.`);
}

// One action: a Journalist's step, push or jump, chosen among the moves the box finds legal.
function moveForm(offer, view, act) {
  tapped = null;
  const pick = h("select", { id: "gts-move", class: "field-input", "aria-label": `${playerName(view, offer.player)}: Journalist move`,
    dataset: { choices: JSON.stringify(offer.choices.map((c) => ({ from: c.from, to: c.to }))) } },
    offer.choices.map((c, i) => h("option", { value: String(i) }, `${c.from} → ${c.to} (${c.how})`)));
  const form = h("form", { class: "hand-form" }, h("p", { class: "small muted" }, "Tap a Journalist on the board, then where it goes, or pick the move here."),
    pick, h("button", { type: "submit", class: "offer" }, "Move the Journalist"));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const c = offer.choices[Number(pick.value)];
    act({ type: "move", player: offer.player, from: c.from, to: c.to });
  });
  return form;
}

function drawForm(offer, view, act) {
  const hand = (view.players[offer.player] || {}).hand || 0;
  // a turn discards at most three cards in all (the view's discards_left), and a full hand discards one to draw
  const most = Math.min(hand, Number.isInteger(view.discards_left) ? view.discards_left : hand);
  const least = Math.min(offer.discard || 0, most);
  const discard = h("select", { id: "gts-discard", class: "field-input", "aria-label": "Cards discarded first (free)" },
    Array.from({ length: most - least + 1 }, (_, i) => least + i).map((k) =>
      h("option", { value: String(k), selected: k === offer.discard ? true : null }, `discard ${k}`)));
  const form = h("form", { class: "hand-form" }, discard, h("button", { type: "submit", class: "offer" }, "Draw a card"));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    act({ type: "draw", player: offer.player, discard: Number(discard.value) });
  });
  return form;
}

// "There can be multiple winners": each check offer names one van, so after the last of them the
// table ticks two or more vans and records them together (one van keeps its one tap).
function severalVans(offer, view, act, label) {
  const fragment = document.createDocumentFragment();
  const ticks = view.players.map((p) => h("input", { type: "checkbox", value: String(p.seat), id: "gts-van-" + p.seat }));
  const problem = h("p", { class: "error field-problem", id: "gts-vans-problem", hidden: true });
  const form = h("form", { class: "offer-form gts-vans", novalidate: true },
    h("fieldset", { "aria-describedby": problem.id }, h("legend", null, "Two or more vans hold a Protester: tick each"),
      view.players.map((p, i) => h("label", { class: "check-row", for: ticks[i].id }, ticks[i], p.name))),
    problem, h("button", { type: "submit", class: "offer" }, "These vans hold a Protester"));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const winners = ticks.filter((t) => t.checked).map((t) => Number(t.value));
    problem.hidden = winners.length >= 2;
    if (!problem.hidden) { problem.textContent = "Tick two or more vans here: one van has its own button above."; ticks[0].focus(); return; }
    act({ type: "check", winners });
  });
  fragment.append(h("button", { type: "button", class: "offer", onclick: () => act({ type: "check", winners: offer.winners }) }, label), form);
  return fragment;
}

export function form(offer, view, act, label) {
  if (offer.type === "reveal") return revealForm(offer, view, act);
  const last = view.players.length ? view.players[view.players.length - 1].seat : null;
  if (offer.type === "check" && offer.winners.length === 1 && offer.winners[0] === last && view.players.length > 1) {
    return severalVans(offer, view, act, label);
  }
  if (offer.type === "move" && Array.isArray(offer.choices)) return moveForm(offer, view, act);
  if (offer.type === "draw") return drawForm(offer, view, act);
  return null;
}

export function label(offer, view) {
  switch (offer.type) {
    case "check": return offer.winners.length ? `${playerName(view, offer.winners[0])}'s van holds a Protester` : "No van holds a Protester";
    case "end_turn": return `${playerName(view, offer.player)}'s Journalists are done`;
    case "police": return view.board ? `${playerName(view, offer.player)} moves the police` : `${playerName(view, offer.player)} moved the police`;
    default: return null;
  }
}

export function group(type, offers, view) {
  const left = view.actions_left ?? view.actions_per_turn;
  return { check: "Check the camera vans",
    move: `${playerName(view, offers[0].player)}: move a Journalist (1 action)`,
    draw: `${playerName(view, offers[0].player)}: draw a card (1 action; discarding is free)`,
    end_turn: view.board ? `${playerName(view, offers[0].player)}'s Journalists' turn (${left} of ${view.actions_per_turn} actions left)`
      : `${playerName(view, offers[0].player)}'s Journalists' turn (${view.actions_per_turn} actions)`,
    police: view.board ? "The First Player moves the police: the box moves them on its board" : "The First Player moves the police" }[type] ?? null;
}
