// The sidebar beside the game: the editor's card ("The editor says", following a call in
// progress), the list of the editor's calls made during this game, and the dice's and the
// stopwatch's latest result; and an oracle's result handed to the game's screen when the game
// listens to that oracle. It reads the panel's state (the game being played, whether its end is
// shown, the catalogue, ``since``) and never writes it: panel.js hands it over once, with followTable.
//
// What it shows came after the table's ``since`` (controller/table.py): the newest start or end of
// a game. The calls and rolls of a game before belong to that game, never to the one being played
// or to the start form that follows its end.

import { $, fill, h } from "./dom.js";
import { loadScreen, loadedScreen } from "./game.js";
import { guarded } from "./offers.js";
import { play } from "./sound.js";
import { announce, toast } from "./toast.js";

const side = { table: { game: null, ended: null, catalogue: [], since: null }, redraw: () => {}, sinceShown: undefined };

// ``table``: the panel's state, read as it changes; ``redraw``: draws the game again (after its
// screen heard the dice or the stopwatch).
export function followTable(table, redraw) {
  side.table = table;
  side.redraw = redraw;
}

// ------------------------------------------------------------------ the game's oracles

// Whether the game ``engine`` takes this oracle's results ("editor", "dice", "stopwatch"): its
// catalogue's panel facts say so.
export function gameListens(engine, kind) {
  const item = side.table.catalogue.find((g) => g.name === engine);
  return Boolean(item && item.panel && (item.panel.listens || []).includes(kind));
}

// Whether the game being played takes this oracle's results: only then does its screen hear them.
export function listensTo(kind) {
  return Boolean(side.table.game) && gameListens(side.table.game.engine, kind);
}

// Hands an oracle's result to the game's screen (its optional onOracle hook) when the game listens
// to that oracle, then runs ``then`` (a screen still loading hears it once it has loaded). A hook
// that throws (a plug-in's bug) is logged and passed over: the sidebar still shows the result.
export function tellScreen(kind, data, then) {
  if (!listensTo(kind)) return;
  const hear = (screen) => {
    if (screen.onOracle) guarded(() => screen.onOracle(kind, data));
    if (then) then();
  };
  const screen = loadedScreen(side.table.game.engine);
  if (screen) hear(screen);
  else loadScreen(side.table.game.engine).then(hear);
}

// ------------------------------------------------------------------ the editor's card and calls

// The sidebar's "The editor says" follows the call in progress of a game the editor judges (its
// screen's callInProgress hook), hand-entered signals included; with no call under way it keeps
// the last verdict the phone gave.
export function syncEditorCard() {
  const box = $("#verdict");
  if (!box) return;
  const screen = side.table.game && !side.table.ended && listensTo("editor") ? loadedScreen(side.table.game.engine) : null;
  const call = screen && screen.callInProgress ? screen.callInProgress(side.table.game.view) : null;
  if (!call) {
    // a call that was waiting ends with the game's verdict (a refusal leaves none pending), or
    // gives the card back to the last verdict; a verdict stays shown
    const ended = box.dataset.call === "waiting" && screen && screen.lastVerdict ? screen.lastVerdict(side.table.game.view) : null;
    if (ended) show(ended);
    else if (box.dataset.call === "waiting" && box.dataset.last) restoreLast(box);
    box.dataset.call = "";
    box.dataset.last = "";
    return;
  }
  if (!box.dataset.last) {
    box.dataset.last = JSON.stringify(["#verdict-signal", "#verdict-message", "#verdict-instruction", "#verdict-meta"].map((id) => $(id).textContent));
  }
  box.dataset.call = call.waiting ? "waiting" : "verdict";
  show(call);
}

function show(call) {
  $("#verdict-signal").textContent = call.signal;
  $("#verdict-signal").classList.toggle("signal-wait", call.waiting);
  $("#verdict-message").textContent = call.message;
  $("#verdict-instruction").textContent = call.instruction || "";
  $("#verdict-meta").textContent = call.meta || "";
}

function restoreLast(box) {
  const saved = JSON.parse(box.dataset.last);
  ["#verdict-signal", "#verdict-message", "#verdict-instruction", "#verdict-meta"].forEach((id, i) => { $(id).textContent = saved[i]; });
  $("#verdict-signal").classList.remove("signal-wait");
  box.dataset.last = "";
}

// Whether the event with this id came after the table's ``since``: during the game being played,
// or, between games, after the last one ended (before any game: always).
export function sinceTheLastGame(id) {
  const since = typeof side.table.since === "number" ? side.table.since : null;
  return since === null || Number(id) > since;
}

// A game started or ended (the table's ``since`` moved on): the sidebar keeps only the editor's
// calls and the roll made after it, says plainly when there has been none, and a new game's
// screen forgets any result it held from the game before (idempotent, so the page's first render
// may run it too).
export function forgetOtherGames() {
  const since = typeof side.table.since === "number" ? side.table.since : null;
  if (since === side.sinceShown) return;
  side.sinceShown = since;
  const game = side.table.game;
  const screen = game ? loadedScreen(game.engine) : null;     // one not loaded yet has nothing to forget
  if (screen && screen.forgetOracles) screen.forgetOracles();
  const none = (el) => (game ? el.dataset.none : el.dataset.noneTable || el.dataset.none) || "";
  const box = $("#verdict");
  if (box && !sinceTheLastGame(box.dataset.eventId || 0)) {
    $("#verdict-signal").textContent = "—";
    $("#verdict-signal").classList.remove("signal-wait");
    $("#verdict-message").textContent = none(box);
    $("#verdict-instruction").textContent = "";
    $("#verdict-meta").textContent = "";
    box.dataset.eventId = "";
    box.dataset.last = "";
    box.dataset.call = "";
  }
  const list = $("#calls");
  if (list) {
    for (const li of list.querySelectorAll("li[data-event-id]")) if (!sinceTheLastGame(li.dataset.eventId)) li.remove();
    tidyCalls(list);
  }
  const roll = $("#oracle-result");
  if (roll && roll.dataset.eventId && !sinceTheLastGame(roll.dataset.eventId)) {
    roll.replaceChildren();     // a running stopwatch (no id yet) is the table's now, and stays
    roll.classList.remove("older", "fresh");
    delete roll.dataset.eventId;
  }
}

// ------------------------------------------------------------------ what the feed brings

export function showVerdict(event) {
  if (!sinceTheLastGame(event.id)) return;      // replayed from before this game started (or the last ended)
  const v = event.data;
  tellScreen("editor", { verdict: v, said: "dialed " + v.digit });
  const box = $("#verdict");
  if (!box) return;
  box.dataset.eventId = event.id;
  box.dataset.last = "";
  $("#verdict-signal").classList.remove("signal-wait");
  $("#verdict-signal").textContent = v.signal;
  $("#verdict-message").textContent = v.message;
  $("#verdict-instruction").textContent = v.instruction;
  $("#verdict-meta").textContent = "Dialed " + v.digit;
  // Said politely (no refusal), and once: a game that takes the editor's calls says the verdict
  // itself, as its move ("The editor said THREE STARS: Ann takes ...") with what comes next, or
  // as its refusal of it; said here too, each verdict was heard twice, once assertively.
  if (!listensTo("editor")) announce(`The editor says ${v.signal}. ${[v.message, v.instruction].filter(Boolean).join(" ")}`);
  box.classList.remove("fresh");
  void box.offsetWidth;
  box.classList.add("fresh");
  const list = $("#calls");
  if (list && !list.querySelector(`[data-event-id="${event.id}"]`)) {
    list.prepend(h("li", { dataset: { eventId: event.id } }, h("span", { class: "call-signal" }, v.signal), h("span", { class: "call-digit" }, " dialed " + v.digit)));
    tidyCalls(list);
  }
  play("verdict");
}

// The calls, newest first: the newest data-most shown, of both kinds (table.py's CALLS_SHOWN), older hidden for an undo.
function tidyCalls(list) {
  const calls = list.querySelectorAll("li[data-event-id]");
  calls.forEach((li, i) => { li.hidden = i >= list.dataset.most; });
  const empty = list.querySelector(".empty");
  if (calls.length) empty?.remove();
  else (empty || list.appendChild(h("li", { class: "empty" }))).textContent = (side.table.game ? list.dataset.none : list.dataset.noneTable) || "";
}

// The editor's verdicts the table entered by hand in the game being played (its
// "hand_verdicts": the moves in force, so an undo takes one off) listed with the phone's calls,
// by the id of the event that stored each, newest first: "No calls in this game yet" under a
// verdict entered by hand was untrue.
export function showHandVerdicts(game) {
  const list = $("#calls");
  if (!list) return;
  const hand = (game && game.hand_verdicts) || [];
  const ids = new Set(hand.map((c) => String(c.id)));
  for (const li of list.querySelectorAll("li[data-by-hand]")) if (!ids.has(li.dataset.eventId)) li.remove();
  for (const c of hand) {
    if (!sinceTheLastGame(c.id) || list.querySelector(`[data-event-id="${c.id}"]`)) continue;
    const li = h("li", { dataset: { eventId: c.id, byHand: "1" } }, h("span", { class: "call-signal" }, c.signal),
      h("span", { class: "call-digit" }, " entered by hand"));
    list.insertBefore(li, [...list.querySelectorAll("li[data-event-id]")].find((x) => x.dataset.eventId < c.id) || null);
  }
  tidyCalls(list);
}

// Results of the dice and stopwatch buttons (dice.roll, stopwatch.roll), and their settings.
// "2d6" said for a table that doesn't play role-playing games: "two six-sided dice (2d6)".
const COUNTS = ["no", "one", "two", "three", "four", "five", "six"];
function diceNoun(dice) {
  const m = /^(\d+)d(\d+)$/.exec(String(dice || ""));
  if (!m) return String(dice || "");
  const n = Number(m[1]);
  return `${COUNTS[n] || n} ${m[2]}-sided ${n === 1 ? "die" : "dice"}`;
}
export function diceWords(dice) {
  const noun = diceNoun(dice);
  return noun === String(dice || "") ? noun : `${noun} (${dice})`;
}

// The words of a roll (dice.roll, stopwatch.roll) in the sidebar: [kind, value, detail]. The
// faces are said with the dice they came from in words ("2 + 5 on two 6-sided dice"): a table
// that doesn't play role-playing games read "2d6: 2 + 5" as a code.
function rollWords(m) {
  const d = m.data || {};
  if (m.type === "dice.roll") return ["Dice", d.total, `${(d.faces || []).join(" + ")} on ${diceNoun(d.dice)}`];
  return ["Stopwatch", d.digit, d.mode === "d10" ? "as a 10-sided die" : `stopped at ${d.shown || ""}`];
}

// Draws a roll in #oracle-result; ``older``: a move of the game came after it.
function drawRoll(box, m, older) {
  const [kind, value, detail] = rollWords(m);
  fill(box, h("span", { class: "oracle-kind" }, kind), " ", h("strong", { class: "oracle-value" }, value === undefined ? "—" : String(value)),
    detail ? h("span", { class: "small muted" }, " " + detail) : null, h("span", { class: "small oracle-older" }, older ? OLDER : ""));
  box.classList.toggle("older", Boolean(older));
  box.dataset.eventId = m.id === undefined ? "" : String(m.id);
}

// Said after a roll once the game has moved since: the game's own throw (the box rolled for it)
// is in the game area, and two totals side by side, neither marked, read as one throw's two answers.
const OLDER = " · before the game's last move";

// The roll the page was loaded with (the table's last_roll, controller/table.py): drawn as a live
// page has it, said to nobody again.
export function showLastRoll(roll) {
  const box = $("#oracle-result");
  if (box && roll && sinceTheLastGame(roll.id)) drawRoll(box, roll, roll.older);
}

// A move of the game, stored as event ``id``: the roll shown, if it came before it, is marked so.
export function gameMovedAt(id) {
  const box = $("#oracle-result");
  if (!box || !box.dataset.eventId || !(Number(box.dataset.eventId) < Number(id)) || box.classList.contains("older")) return;
  box.classList.add("older");
  const mark = box.querySelector(".oracle-older");
  if (mark) mark.textContent = OLDER;
}

export function showOracle(m) {
  const box = $("#oracle-result");
  const d = m.data || {};
  if (m.type === "dice.roll" || m.type === "stopwatch.roll") {
    if (m.id !== undefined && !sinceTheLastGame(m.id)) return;      // replayed from before this game started (or the last ended)
    tellScreen(m.type === "dice.roll" ? "dice" : "stopwatch", d, side.redraw);
  } else if (m.type === "dice.set") {
    toast(`The dice are now ${diceWords(d.dice)}.`, "ok");
    return;
  } else if (m.type === "stopwatch.started") {
    if (box) {
      fill(box, h("span", { class: "oracle-kind" }, "Stopwatch"), " running…");
      box.classList.remove("older");
      delete box.dataset.eventId;
    }
    announce("Stopwatch running.");        // its stop is said; its start was only shown
    return;
  } else {
    return;
  }
  if (!box) return;
  drawRoll(box, m, false);
  box.classList.remove("fresh");
  void box.offsetWidth;
  box.classList.add("fresh");
  const [kind, value] = rollWords(m);
  announce(`${kind}: ${value}`);
  play(kind === "Dice" ? "dice" : "stopwatch");
}

