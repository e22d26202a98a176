// The sidebar beside the game: the editor's card ("The editor says", following a call in
// progress), the list of the editor's calls made during this game, and the dice's and the
// stopwatch's latest result; and an oracle's result handed to the game's screen when the game
// listens to that oracle. It reads the panel's state (the game being played, whether its end is
// shown, the catalogue) and never writes it: panel.js hands it over once, with followTable.

import { $, fill, h } from "./dom.js";
import { loadScreen, loadedScreen } from "./game.js";
import { play } from "./sound.js";
import { announce, toast } from "./toast.js";

const side = { table: { game: null, ended: null, catalogue: [] }, redraw: () => {}, gameShown: null };

// ``table``: the panel's state, read as it changes; ``redraw``: draws the game again (after its
// screen heard the dice or the stopwatch).
export function followTable(table, redraw) {
  side.table = table;
  side.redraw = redraw;
}

// ------------------------------------------------------------------ the game's oracles

// Whether the game being played takes this oracle's results ("editor", "dice", "stopwatch"): its
// catalogue's panel facts say so, and only then does its screen hear them.
export function listensTo(kind) {
  const item = side.table.game && side.table.catalogue.find((g) => g.name === side.table.game.engine);
  return Boolean(item && item.panel && (item.panel.listens || []).includes(kind));
}

// Hands an oracle's result to the game's screen (its optional onOracle hook) when the game listens
// to that oracle, then runs ``then`` (a screen still loading hears it once it has loaded).
export function tellScreen(kind, data, then) {
  if (!listensTo(kind)) return;
  const hear = (screen) => {
    if (screen.onOracle) screen.onOracle(kind, data);
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

// Whether the event with this id came during the game being played (or no game is being played):
// the editor's calls from before it started belong to other games and are not shown as its own.
export function duringThisGame(id) {
  const since = side.table.game && typeof side.table.game.started_event === "number" ? side.table.game.started_event : null;
  return since === null || Number(id) > since;
}

// A game newly on the screen: the sidebar keeps only the editor's calls made during it and says
// plainly when there has been none (idempotent, so the page's first render may run it too).
export function forgetOtherGames() {
  const id = side.table.game ? side.table.game.id : null;
  if (id === side.gameShown) return;
  side.gameShown = id;
  if (id === null) return;
  const screen = loadedScreen(side.table.game.engine);     // one not loaded yet has nothing to forget
  if (screen && screen.forgetOracles) screen.forgetOracles();
  const box = $("#verdict");
  if (box && !duringThisGame(box.dataset.eventId || 0)) {
    $("#verdict-signal").textContent = "—";
    $("#verdict-signal").classList.remove("signal-wait");
    $("#verdict-message").textContent = box.dataset.none || "";
    $("#verdict-instruction").textContent = "";
    $("#verdict-meta").textContent = "";
    box.dataset.eventId = "";
    box.dataset.last = "";
    box.dataset.call = "";
  }
  const list = $("#calls");
  if (list) {
    for (const li of list.querySelectorAll("li[data-event-id]")) if (!duringThisGame(li.dataset.eventId)) li.remove();
    if (!list.children.length) list.append(h("li", { class: "empty" }, list.dataset.none || ""));
  }
}

// ------------------------------------------------------------------ what the feed brings

export function showVerdict(event) {
  if (!duringThisGame(event.id)) return;      // replayed from before this game started
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
  // at once, as the card was (an assertive region then, which also cried out each new game's reset)
  announce(`The editor says ${v.signal}. ${[v.message, v.instruction].filter(Boolean).join(" ")}`, true);
  box.classList.remove("fresh");
  void box.offsetWidth;
  box.classList.add("fresh");
  const list = $("#calls");
  if (list && !list.querySelector(`[data-event-id="${event.id}"]`)) {
    const empty = list.querySelector(".empty");
    if (empty) empty.remove();
    list.prepend(h("li", { dataset: { eventId: event.id } }, h("span", { class: "call-signal" }, v.signal), h("span", { class: "call-digit" }, " dialed " + v.digit)));
    while (list.children.length > 10) list.lastElementChild.remove();
  }
  play("verdict");
}

// Results of the dice and stopwatch buttons (dice.roll, stopwatch.roll), and their settings.
// "2d6" said for a table that doesn't play role-playing games: "two six-sided dice (2d6)".
const COUNTS = ["no", "one", "two", "three", "four", "five", "six"];
export function diceWords(dice) {
  const m = /^(\d+)d(\d+)$/.exec(String(dice || ""));
  if (!m) return String(dice || "");
  const n = Number(m[1]);
  return `${COUNTS[n] || n} ${m[2]}-sided ${n === 1 ? "die" : "dice"} (${dice})`;
}

export function showOracle(m) {
  const box = $("#oracle-result");
  const d = m.data || {};
  let kind, value, detail;
  if (m.type === "dice.roll") {
    kind = "Dice";
    value = d.total;
    detail = `${d.dice}: ${(d.faces || []).join(" + ")}`;
    tellScreen("dice", d, side.redraw);
  } else if (m.type === "stopwatch.roll") {
    kind = "Stopwatch";
    value = d.digit;
    detail = d.mode === "d10" ? "d10" : `stopped at ${d.shown || ""}`;
    tellScreen("stopwatch", d, side.redraw);
  } else if (m.type === "dice.set") {
    toast(`The dice are now ${diceWords(d.dice)}.`, "ok");
    return;
  } else if (m.type === "stopwatch.started") {
    if (box) fill(box, h("span", { class: "oracle-kind" }, "Stopwatch"), " running…");
    return;
  } else {
    return;
  }
  if (!box) return;
  fill(box, h("span", { class: "oracle-kind" }, kind), " ", h("strong", { class: "oracle-value" }, value === undefined ? "—" : String(value)),
    detail ? h("span", { class: "small muted" }, " " + detail) : null);
  box.classList.remove("fresh");
  void box.offsetWidth;
  box.classList.add("fresh");
  announce(`${kind}: ${value}`);
  play(kind === "Dice" ? "dice" : "stopwatch");
}

