// The table panel's page: the game screen, the start form, the end of a game and the oracles'
// results in the sidebar, wired to the parts that have modules of their own: the live feed and its
// fallback (feed.js), the box out of reach (reach.js), the health strip (health.js), toasts and
// announcements (toast.js) and the simulated phone (phone.js). No framework and nothing from the
// network but the Pi.

import { $, bootData, fill, h } from "./dom.js";
import { getJSON, send } from "./api.js";
import { knowScreens, loadScreen, loadedScreen, renderGame } from "./game.js";
import { knowGames } from "./offers.js";
import { renderStart } from "./start.js";
import { renderEnd } from "./endgame.js";
import { play, setSound, soundOn, unlock } from "./sound.js";
import { announce, toast } from "./toast.js";
import { checkTheBox, holdControls, watchTheBox } from "./reach.js";
import { heardHealth, phoneFault, pollHealth, showHealth, startHealth } from "./health.js";
import { connect, lastEventId, openFeed, setLastEventId, stream } from "./feed.js";
import { refreshWindow, showDigit, showHook, wirePhone } from "./phone.js";

const boot = bootData();
const S = {
  game: boot.game || null,
  catalogue: boot.catalogue || [],
  canWrite: boot.canWrite !== false,
  lastSaid: boot.game ? boot.game.undo : null,
  ended: null,
  lastGame: boot.lastGame || null,
  busy: false,
};
knowGames(S.catalogue);      // the bounds and words of what each game's offers ask for
knowScreens(S.catalogue);    // where each game's screen is loaded from
// For a look from the browser's console (and the tests): the state, the live feed and the last
// event id it heard (settable: the feed resumes after it).
window.NEWSDESK_PANEL = S;
Object.defineProperty(S, "stream", { get: stream });
Object.defineProperty(S, "lastEventId", { get: lastEventId, set: setLastEventId, enumerable: true });
S.lastEventId = boot.lastEventId || 0;

const area = $("#game-area");

// ------------------------------------------------------------------ the game's oracles

// Whether the game being played takes this oracle's results ("editor", "dice", "stopwatch"): its
// catalogue's panel facts say so, and only then does its screen hear them.
function listensTo(kind) {
  const item = S.game && S.catalogue.find((g) => g.name === S.game.engine);
  return Boolean(item && item.panel && (item.panel.listens || []).includes(kind));
}

// Hands an oracle's result to the game's screen (its optional onOracle hook) when the game listens
// to that oracle, then runs ``then`` (a screen still loading hears it once it has loaded).
function tellScreen(kind, data, then) {
  if (!listensTo(kind)) return;
  const hear = (screen) => {
    if (screen.onOracle) screen.onOracle(kind, data);
    if (then) then();
  };
  const screen = loadedScreen(S.game.engine);
  if (screen) hear(screen);
  else loadScreen(S.game.engine).then(hear);
}

// ------------------------------------------------------------------ rendering

// The sidebar's "The editor says" follows the call in progress of a game the editor judges (its
// screen's callInProgress hook), hand-entered signals included; with no call under way it keeps
// the last verdict the phone gave.
function syncEditorCard() {
  const box = $("#verdict");
  if (!box) return;
  const screen = S.game && !S.ended && listensTo("editor") ? loadedScreen(S.game.engine) : null;
  const call = screen && screen.callInProgress ? screen.callInProgress(S.game.view) : null;
  if (!call) {
    // a call that was waiting gives the card back to the last verdict; a verdict stays shown
    if (box.dataset.call === "waiting" && box.dataset.last) restoreLast(box);
    box.dataset.call = "";
    box.dataset.last = "";
    return;
  }
  if (!box.dataset.last) {
    box.dataset.last = JSON.stringify(["#verdict-signal", "#verdict-message", "#verdict-instruction", "#verdict-meta"].map((id) => $(id).textContent));
  }
  box.dataset.call = call.waiting ? "waiting" : "verdict";
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
function duringThisGame(id) {
  const since = S.game && typeof S.game.started_event === "number" ? S.game.started_event : null;
  return since === null || Number(id) > since;
}

// A game newly on the screen: the sidebar keeps only the editor's calls made during it and says
// plainly when there has been none (idempotent, so the page's first render may run it too).
let gameShown = null;
function forgetOtherGames() {
  const id = S.game ? S.game.id : null;
  if (id === gameShown) return;
  gameShown = id;
  if (id === null) return;
  const screen = loadedScreen(S.game.engine);     // one not loaded yet has nothing to forget
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

function render() {
  forgetOtherGames();
  syncEditorCard();
  if (!area) return;
  if (S.ended) return;  // the end screen stays until someone taps New game (or a game starts)
  let drawn = true;
  if (S.game) {
    drawn = renderGame(area, S.game, {
      act, undo: () => reverse("undo"), redo: () => reverse("redo"),
      finish: () => end("finish"), abandon: () => end("abandon"), redraw: render,
      canWrite: S.canWrite, lastSaid: S.lastSaid,
    });
  } else {
    renderStart(area, S.catalogue, { start, canWrite: S.canWrite, lastGame: S.lastGame, nameMax: boot.nameMax });
  }
  area.setAttribute("aria-busy", S.busy ? "true" : "false");
  const engine = S.game ? S.game.engine : "";
  if (document.body.dataset.engine !== engine) {
    document.body.dataset.engine = engine;
    // the editor's cards show beside a game the editor judges (panel.css), and the phone opens
    const editor = !engine || listensTo("editor");
    document.body.dataset.editor = editor ? "on" : "off";
    const sim = $("details.sim");
    if (sim) sim.open = editor;
  }
  // the version on the screen once its own screen has drawn it (the generic one stands in meanwhile)
  document.body.dataset.version = S.game && drawn ? String(S.game.version) : "";
  document.body.dataset.gameId = S.game ? String(S.game.id) : "";
  holdControls();
}

function showEnd(gameId, focus) {
  if (!area) {
    // the history page reads the new game again, unless the host is midway through a restore
    // there (a file chosen or checked: backups.js marks the body), whose form a reload would empty
    if (document.body.dataset.page === "history" && !document.body.dataset.restoring) location.reload();
    return;
  }
  S.ended = gameId;
  S.game = null;
  document.body.dataset.version = "";
  document.body.dataset.ended = String(gameId);
  renderEnd(area, gameId, {
    newGame: () => {
      S.ended = null;
      delete document.body.dataset.ended;
      render();
      const first = $("#start-form input");
      if (first) first.focus();
    },
  }).then(() => { if (focus && $("#end-h")) $("#end-h").focus(); });
}

// A newer state of the game being played (from this device's write or from the stream).
function takeGame(next, said) {
  const same = S.game && next && S.game.id === next.id;
  if (same && next.version <= S.game.version) return false;
  S.game = next;
  if (said !== undefined) S.lastSaid = said;
  S.ended = null;
  delete document.body.dataset.ended;
  render();
  if (said) announce(said.charAt(0).toUpperCase() + said.slice(1));
  return true;
}

let refreshing = null;
async function refresh(force) {
  if (refreshing && !force) return refreshing;
  refreshing = (async () => {
    try {
      const cur = await getJSON("/api/games/current");
      if (cur.game) {
        if (force || !S.game || S.game.id !== cur.game.id || S.game.version !== cur.game.version) {
          S.game = cur.game;
          S.lastSaid = cur.game.undo;
          S.ended = null;
          render();
        }
      } else if (S.game) {
        const gone = S.game.id;
        S.game = null;
        showEnd(gone);
      }
    } catch {
      checkTheBox();
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

// ------------------------------------------------------------------ writing

// The box's sentence for the newest refused write (a form shows it beside its field).
let refused = null;

async function write(url, body) {
  refused = null;
  if (S.busy) return null;
  S.busy = true;
  area.setAttribute("aria-busy", "true");
  unlock();
  try {
    const r = await send(url, body);
    if (r.ok) return r.data;
    if (r.status === 409 && r.data.stale) {
      toast("Someone else moved first, so that wasn't done: " + r.data.message, "bad");
      await refresh();
    } else if (r.status === 409) {
      toast(r.data.message, "bad");
      await refresh();
    } else if (r.status === 0) {
      toast(r.data.message, "bad", true);
      checkTheBox();
    } else {
      toast(r.data.message || "The newsdesk refused that.", "bad");
    }
    announce(r.data.message || "Refused.", true);
    play("refused");
    refused = r.data.message || "The newsdesk refused that.";
    return null;
  } finally {
    S.busy = false;
    area.setAttribute("aria-busy", "false");
  }
}

function outcome(o) {
  if (!o || o.view === undefined || !S.game) return;
  takeGame(Object.assign({}, S.game, { version: o.version, view: o.view, offers: o.offers, undo: o.undo, redo: o.redo }), o.said);
}

// A move; resolves to {refused: the box's sentence} when the box refused it, else null.
async function act(action) {
  if (!S.game) return null;
  const o = await write("/api/games/current/actions", { action, version: S.game.version });
  outcome(o);
  return o ? null : { refused };
}

async function reverse(kind) {
  if (!S.game) return;
  const o = await write(`/api/games/current/${kind}`, { version: S.game.version });
  if (o) { outcome(o); toast((o.said || kind).replace(/^./, (c) => c.toUpperCase()), "ok"); }
}

async function end(kind) {
  if (!S.game) return;
  const o = await write(`/api/games/current/${kind}`, { version: S.game.version });
  if (o) { S.lastGame = o; showEnd(o.id, true); }
}

async function start(engine, players, options) {
  const r = await send("/api/games", { engine, players, options });
  if (!r.ok) return r.data.message || "The game couldn't be started.";
  const o = r.data;
  takeGame({ id: o.game, engine: o.engine, version: o.version, view: o.view, offers: o.offers, undo: o.undo, redo: o.redo,
    started_event: o.event_id, title: (S.catalogue.find((g) => g.name === engine) || {}).title || engine, players, options, problem: null }, o.said);
  $("#game-title") && $("#game-title").focus();
  return null;
}

// ------------------------------------------------------------------ what the live feed says

const GAME_TYPES = new Set(["game.started", "game.changed"]);

function onGame(m) {
  const d = m.data || {};
  if (m.type === "game.finished" || m.type === "game.abandoned") {
    if (S.ended === d.game) return;
    if (d.final !== undefined || (S.game && S.game.id === d.game)) {
      if (m.type === "game.finished") play("win");
      S.lastGame = { id: d.game, title: "", winners: d.winners || [], status: d.status };
      showEnd(d.game);
    }
    return;
  }
  if (d.view === undefined) { refresh(); return; }       // replayed from the store: read the game
  if (m.type === "game.started") {
    const title = (S.catalogue.find((g) => g.name === d.engine) || {}).title || d.engine;
    takeGame({ id: d.game, engine: d.engine, version: d.version, view: d.view, offers: d.offers, undo: d.undo, redo: d.redo,
      started_event: m.id, title, players: d.players, options: d.options, problem: null }, d.said);
  } else if (S.game && S.game.id === d.game) {
    if (takeGame(Object.assign({}, S.game, { version: d.version, view: d.view, offers: d.offers, undo: d.undo, redo: d.redo }), d.said)) play("move");
  } else {
    refresh();
  }
}

function showVerdict(event) {
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
function showOracle(m) {
  const box = $("#oracle-result");
  const d = m.data || {};
  let kind, value, detail;
  if (m.type === "dice.roll") {
    kind = "Dice";
    value = d.total;
    detail = `${d.dice}: ${(d.faces || []).join(" + ")}`;
    tellScreen("dice", d, render);
  } else if (m.type === "stopwatch.roll") {
    kind = "Stopwatch";
    value = d.digit;
    detail = d.mode === "d10" ? "d10" : `stopped at ${d.shown || ""}`;
    tellScreen("stopwatch", d, render);
  } else if (m.type === "dice.set") {
    toast(`The dice are now ${d.dice}.`, "ok");
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

const handlers = {
  "editor.verdict": showVerdict,
  "phone.hook": (m) => showHook(m.data.state),
  "phone.digit": (m) => showDigit(m.data.digit),
  "phone.fault": (m) => {
    // an empty message is the decoder saying the line behaves again
    phoneFault(m.data.message);
    if (m.data.message) toast("Phone wiring: " + m.data.message, "bad");
    else toast("The phone's " + (m.data.line || "wiring") + " line is working again.", "ok");
  },
  "game.refused": (m) => { toast(m.data.message, "bad"); play("refused"); },
  "phone.link": () => pollHealth(),
  "oracle.fault": (m) => { toast(m.data.message || "A button reported a fault.", "bad"); },
};

// A message from the live feed (feed.js): the phone's window may change with it, then whoever
// shows that kind of message shows it.
function hear(m) {
  if (/^(phone|dice|stopwatch|editor|game)\./.test(m.type)) refreshWindow();
  if (GAME_TYPES.has(m.type) || m.type === "game.finished" || m.type === "game.abandoned") onGame(m);
  else if (handlers[m.type]) handlers[m.type](m);
  else if (/^(dice|stopwatch)\./.test(m.type)) showOracle(m);
}

// The stream could not send what this page missed one by one (it was away too long, or fell
// behind): read everything again instead of showing a table with a silent gap.
function resync() {
  refresh(true);     // draws the game afresh whatever its version
  pollHealth();
  refreshWindow();
  announce("This page missed some changes while it was away; it has read the table again.");
}

// ------------------------------------------------------------------ wiring the parts

// The box out of reach and back: the health strip says so, the game is read afresh and the live
// feed opened again.
watchTheBox({ heard: heardHealth, changed: showHealth, back: () => refresh(true), reconnect: connect });
wirePhone();

const soundButton = $("#sound");
if (soundButton) {
  const label = () => {
    soundButton.textContent = soundOn() ? "Sound on" : "Sound off";
    soundButton.setAttribute("aria-pressed", soundOn() ? "true" : "false");
  };
  soundButton.addEventListener("click", () => { setSound(!soundOn()); label(); });
  label();
}

// The game on the table at load is drawn with its own screen from the first frame (a reload never
// flashes the generic one), which hears the verdicts the page came with: after it has been told
// that this game is the one shown, or its first draw would forget them as another game's.
if (boot.game && !boot.showEnd) await loadScreen(boot.game.engine);
forgetOtherGames();
if (boot.lastVerdict && duringThisGame(boot.lastVerdict.id)) {
  tellScreen("editor", { verdict: boot.lastVerdict.data, said: "dialed " + boot.lastVerdict.data.digit });
}
if (boot.gameVerdict && boot.game) {
  const v = boot.gameVerdict;
  const who = typeof v.player === "number" && boot.game.view ? (boot.game.view.players[v.player] || {}).name : null;
  tellScreen("editor", { verdict: v, said: who ? `${who}'s ${String(v.story_type || "").replace(/_/g, " ")} story` : "" });
}
if (boot.showEnd) showEnd(boot.showEnd);
else render();
startHealth(boot.health);
openFeed({
  hear, resync, read: () => refresh(),
  reopened: () => { refresh(); pollHealth(); },      // back after a restart: maybe a new release
});
// every game's screen, loaded meanwhile: a game started from another device is drawn with its own at once
if (area) for (const g of S.catalogue) loadScreen(g.name);
