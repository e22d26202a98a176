// The table panel's page: the game being played (its screen, its moves, undo and the end), the
// start form and the end screen, wired to the parts that have modules of their own: the live feed
// and its fallback (feed.js), the box out of reach (reach.js), the health strip (health.js), toasts
// and announcements (toast.js), the sidebar's editor card, calls and oracle results (sidebar.js)
// and the simulated phone (phone.js). No framework and nothing from the network but the Pi.

import { $, $$, bootData, h } from "./dom.js";
import { getJSON, send } from "./api.js";
import { knowScreens, loadScreen, renderGame, sentence } from "./game.js";
import { knowGames } from "./offers.js";
import { play, setSound, soundOn, unlock } from "./sound.js";
import { announce, dropOldToast, dropToast, toast } from "./toast.js";
import { checkTheBox, holdControls, watchTheBox } from "./reach.js";
import { heardHealth, phoneFault, pollHealth, showHealth, startHealth } from "./health.js";
import { connect, lastEventId, openFeed, setLastEventId, stream } from "./feed.js";
import { refreshWindow, showDigit, showHook, showReceiver, wirePhone } from "./phone.js";
import {
  followTable, forgetOtherGames, gameMovedAt, gameListens, showHandVerdicts, showLastRoll, showOracle, showVerdict,
  sinceTheLastGame, syncEditorCard, tellScreen,
} from "./sidebar.js";

const boot = bootData();
const S = {
  game: boot.game || null,
  catalogue: boot.catalogue || [],
  canWrite: boot.canWrite !== false,
  lastSaid: boot.game ? boot.game.undo : null,
  ended: null,
  focusEnd: null,      // the game whose end card takes the focus (showEnd)
  lastGame: boot.lastGame || null,
  since: typeof boot.since === "number" ? boot.since : null,   // the table's: the newest start or end of a game
  busy: false,
  settleUntil: 0,
};
knowGames(S.catalogue);      // the bounds and words of what each game's offers ask for
knowScreens(S.catalogue);    // where each game's screen is loaded from
followTable(S, render);      // the sidebar reads the game being played, and draws it after a roll
// For a look from the browser's console (and the tests): the state, the live feed and the last
// event id it heard (settable: the feed resumes after it).
window.NEWSDESK_PANEL = S;
Object.defineProperty(S, "stream", { get: stream });
Object.defineProperty(S, "lastEventId", { get: lastEventId, set: setLastEventId, enumerable: true });
S.lastEventId = boot.lastEventId || 0;

const area = $("#game-area");

// The start form's script and the end card's are fetched when first shown, as each game's screen
// is (game.js): a game's screen needs neither, and with them and all five games' screens a tablet
// fetched 256 to 263 KB to show any screen, past the panel's 200 KB (bench/panel_weight.py).
const later = { start: null, end: null };
const LATER = { start: () => import("./start.js"), end: () => import("./endgame.js") };
function fetched(name) {
  return LATER[name]().then((m) => (later[name] = m));
}

// ------------------------------------------------------------------ rendering

function render() {
  forgetOtherGames();
  syncEditorCard();
  showHandVerdicts(S.game);
  if (!area) return;
  if (S.ended) return;  // the end screen stays until someone taps New game (or a game starts)
  let drawn = true;
  if (S.game) {
    drawn = renderGame(area, S.game, {
      act, undo: () => reverse("undo"), redo: () => reverse("redo"),
      finish: () => end("finish"), abandon: () => end("abandon"), redraw: render,
      canWrite: S.canWrite, lastSaid: S.lastSaid,
    });
  } else if (later.start) {
    later.start.renderStart(area, S.catalogue, { start, canWrite: S.canWrite, lastGame: S.lastGame, nameMax: boot.nameMax, chose: editorCards });
  } else {
    fetched("start").then(render);
  }
  area.setAttribute("aria-busy", S.busy ? "true" : "false");
  const engine = S.game ? S.game.engine : "";
  if (document.body.dataset.engine !== engine) {
    document.body.dataset.engine = engine;
    // the phone opens beside a game the editor judges, and on the start form
    const sim = $("details.sim");
    if (sim) sim.open = !engine || gameListens(engine, "editor");
  }
  if (engine) editorCards(engine);
  // the version on the screen once its own screen has drawn it (the generic one stands in meanwhile)
  document.body.dataset.version = S.game && drawn ? String(S.game.version) : "";
  document.body.dataset.gameId = S.game ? String(S.game.id) : "";
  holdControls();
  const shown = S.game && drawn ? S.game.id + ":" + S.game.version : null;
  if (shown && drawnKey && shown !== drawnKey) settle();
  else if (settling()) quieten();      // drawn again while settling (a roll's offer): these wait too
  if (shown) drawnKey = shown;
}

// The editor's cards (its verdict with the note on its odds, which the 1956 rules don't give, and
// the calls) show beside a game the editor judges (panel.css): the one being played, or the one
// chosen on the start form. Beside Star Reporter chosen there they told a newcomer it had an editor.
function editorCards(engine) {
  const editor = !S.catalogue.some((g) => g.name === engine) || gameListens(engine, "editor");
  document.body.dataset.editor = editor ? "on" : "off";
}

// The controls a move draws take no tap for a moment. A double tap, or Enter pressed twice, on an
// offer would otherwise land its second half on whatever the move put in that place (a claim's
// second tap on the editor's SCRAP IT: a story refused, $300 paid). While they settle they say
// so (aria-disabled: a screen reader, and a test's click, wait), and a write is not sent.
const SETTLE_MS = 400;
let drawnKey = null;
let settleTimer = null;

function settle() {
  S.settleUntil = performance.now() + SETTLE_MS;
  quieten();
  clearTimeout(settleTimer);
  settleTimer = setTimeout(() => {
    for (const el of $$("[data-settling]", document)) {
      delete el.dataset.settling;
      el.removeAttribute("aria-disabled");
    }
  }, SETTLE_MS);
}

// Every control in the game area says it is settling, whenever it was drawn in the moment: a
// control that didn't would look ready to a press the moment then drops.
function quieten() {
  for (const el of $$("button, input, select, textarea", area)) {
    if (el.disabled || (el.getAttribute("aria-disabled") === "true" && !el.dataset.settling)) continue;
    el.dataset.settling = "1";
    el.setAttribute("aria-disabled", "true");
  }
}

function settling() {
  return performance.now() < S.settleUntil;
}

function showEnd(gameId, focus) {
  if (!area) {
    // the history page reads the new game again, unless the host is midway through a restore
    // there (a file chosen or checked: backups.js marks the body), whose form a reload would empty
    if (document.body.dataset.page === "history" && !document.body.dataset.restoring) location.reload();
    return;
  }
  // The end card takes the focus when this page ended the game, or when the focus was in the game
  // the card replaces (another device ended it). Asked once, kept for every drawing of this end:
  // this page's answer and the live feed's message both draw it, in either order, and the later
  // drawing would drop the focus the earlier one gave.
  if (focus || area.contains(document.activeElement)) S.focusEnd = gameId;
  S.ended = gameId;
  S.game = null;
  forgetOtherGames();  // the game's calls and rolls, once the table's since has moved on to its end
  dropToast();         // the game's news would cover the end card's chart, and is no longer said
  document.body.dataset.version = "";
  document.body.dataset.ended = String(gameId);
  fetched("end").then((m) => S.ended === gameId && m.renderEnd(area, gameId, {
    shown: () => S.ended === gameId,
    newGame: () => {
      // a kept game's own page has no start form to show (its page holds no games' list): the table's has
      if (document.body.dataset.page === "game") { location.href = "/"; return; }
      S.ended = null;
      S.focusEnd = null;
      delete document.body.dataset.ended;
      fetched("start").then(() => {
        render();
        const first = $("#start-form input");
        if (first) first.focus();
      });
    },
  })).then(() => {
    const lost = !document.activeElement || document.activeElement === document.body || area.contains(document.activeElement);
    if (S.focusEnd === gameId && S.ended === gameId && lost && $("#end-h")) $("#end-h").focus();
  });
}

// A newer state of the game being played (from this device's write or from the stream).
function takeGame(next, said) {
  const same = S.game && next && S.game.id === next.id;
  if (same && next.version <= S.game.version) return false;
  S.game = next;
  if (said !== undefined) S.lastSaid = said;
  S.ended = null;
  delete document.body.dataset.ended;
  // the move, said before the drawing says what comes next: one announcement (toast.js)
  if (said) announce(sentence(said));
  render();
  return true;
}

let refreshing = null;
async function refresh(force) {
  if (refreshing && !force) return refreshing;
  refreshing = (async () => {
    try {
      const cur = await getJSON("/api/games/current");
      if (cur.since !== undefined) S.since = cur.since;   // a game's end this page missed moves it on too
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
      forgetOtherGames();
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

// ``shown``: the caller shows a plain refusal itself (a form, under its fields): no toast then.
async function write(url, body, shown) {
  refused = null;
  if (S.busy || settling()) return null;
  S.busy = true;
  area.setAttribute("aria-busy", "true");
  unlock();
  try {
    const r = await send(url, body);
    if (r.ok) {
      dropOldToast();
      return r.data;
    }
    if (r.status === 409 && r.data.stale) {
      toast("Someone else moved first, so that wasn't done: " + r.data.message, "bad");
      await refresh();
    } else if (r.status === 409) {
      toast(r.data.message, "bad");
      await refresh();
    } else if (r.status === 0) {
      toast(r.data.message, "bad", true);
      checkTheBox();
    } else if (!shown) {
      toast(r.data.message || "The newsdesk refused that.", "bad");
    }
    play("refused");
    refused = r.data.message || "The newsdesk refused that.";
    return null;
  } finally {
    S.busy = false;
    area.setAttribute("aria-busy", "false");
  }
}

// The answer to this page's own write. The move's tune plays on whichever comes first, this
// answer or the live feed's message of the same version (takeGame takes a version once), so the
// tablet that tapped hears it whatever order the two arrive in.
function outcome(o) {
  if (!o || o.view === undefined || !S.game) return;
  gameMovedAt(o.event_id);
  if (takeGame(Object.assign({}, S.game, { version: o.version, moves: o.moves, view: o.view, offers: o.offers, undo: o.undo, redo: o.redo, hand_verdicts: o.hand_verdicts }), o.said)) play("move");
}

// A move; resolves to {refused: the box's sentence} when the box refused it, else null.
// opts.showsRefusal: the caller shows the box's sentence itself (the offers' form, under its
// fields, where the focus goes), so it isn't also a toast; a stale or unreachable move still is.
async function act(action, opts) {
  if (!S.game) return null;
  const o = await write("/api/games/current/actions", { action, version: S.game.version }, Boolean(opts && opts.showsRefusal));
  outcome(o);
  return o ? null : { refused };
}

async function reverse(kind) {
  if (!S.game) return;
  const o = await write(`/api/games/current/${kind}`, { version: S.game.version });
  if (o) { outcome(o); toast((o.said || kind).replace(/^./, (c) => c.toUpperCase()), "ok", false, Boolean(o.said)); }
}

async function end(kind) {
  if (!S.game) return;
  const o = await write(`/api/games/current/${kind}`, { version: S.game.version });
  if (o) { S.lastGame = o; showEnd(o.id, true); }
}

async function start(engine, players, options) {
  // the game's screen is fetched while the box starts the game: it is drawn with its own at once
  const [r] = await Promise.all([send("/api/games", { engine, players, options }), loadScreen(engine)]);
  if (!r.ok) return r.data.message || "The game couldn't be started.";
  const o = r.data;
  S.since = o.event_id;
  takeGame({ id: o.game, engine: o.engine, version: o.version, moves: o.moves, view: o.view, offers: o.offers, undo: o.undo, redo: o.redo, hand_verdicts: o.hand_verdicts,
    started_event: o.event_id, title: (S.catalogue.find((g) => g.name === engine) || {}).title || engine, players, options, problem: null }, o.said);
  $("#game-title") && $("#game-title").focus();
  return null;
}

// ------------------------------------------------------------------ what the live feed says

const GAME_TYPES = new Set(["game.started", "game.changed"]);

function onGame(m) {
  const d = m.data || {};
  if (m.type === "game.finished" || m.type === "game.abandoned") {
    if (typeof m.id === "number" && !(S.since >= m.id)) S.since = m.id;
    if (S.ended === d.game) { forgetOtherGames(); return; }
    if (d.final !== undefined || (S.game && S.game.id === d.game)) {
      if (m.type === "game.finished") play("win");
      // the start form's "Last game" names it: this page's copy, else the catalogue's title for its engine
      const was = S.game && S.game.id === d.game ? S.game : null;
      const engine = was ? was.engine : d.engine;
      const title = (was && was.title) || (S.catalogue.find((g) => g.name === engine) || {}).title || engine || `Game #${d.game}`;
      S.lastGame = { id: d.game, title, winners: d.winners || [], status: d.status };
      showEnd(d.game);
    }
    forgetOtherGames();     // once the game is gone: the start form's words, not "in this game"
    return;
  }
  if (d.view === undefined) { refresh(); return; }       // replayed from the store: read the game
  if (m.type === "game.started") {
    if (typeof m.id === "number" && !(S.since >= m.id)) S.since = m.id;
    const title = (S.catalogue.find((g) => g.name === d.engine) || {}).title || d.engine;
    takeGame({ id: d.game, engine: d.engine, version: d.version, moves: d.moves, view: d.view, offers: d.offers, undo: d.undo, redo: d.redo, hand_verdicts: d.hand_verdicts,
      started_event: m.id, title, players: d.players, options: d.options, problem: null }, d.said);
  } else if (S.game && S.game.id === d.game) {
    if (takeGame(Object.assign({}, S.game, { version: d.version, moves: d.moves, view: d.view, offers: d.offers, undo: d.undo, redo: d.redo, hand_verdicts: d.hand_verdicts }), d.said)) play("move");
  } else {
    refresh();
  }
}

const handlers = {
  "editor.verdict": showVerdict,
  "phone.hook": (m) => showHook(m.data.state),
  "phone.digit": (m) => showDigit(m.data.digit),
  "phone.sound": (m) => showReceiver(m.data.receiver),
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
  if (m.type === "game.changed") gameMovedAt(m.id);
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
  // A toggle keeps one name ("Tablet sounds": this page's, not the box's handset, which the
  // health strip's Audio speaks for) and says its state by aria-pressed; the eye reads it after
  // the name. "Sound on" beside the health strip's "No sound" read as a contradiction.
  const label = () => {
    soundButton.replaceChildren("Tablet sounds", h("span", { "aria-hidden": "true" }, soundOn() ? ": on" : ": off"));
    soundButton.setAttribute("aria-pressed", soundOn() ? "true" : "false");
  };
  soundButton.addEventListener("click", () => { setSound(!soundOn()); label(); });
  label();
}

// The game on the table at load is drawn with its own screen from the first frame (a reload never
// flashes the generic one), which hears the verdicts the page came with: after it has been told
// that this game is the one shown, or its first draw would forget them as another game's.
if (boot.game && !boot.showEnd) await loadScreen(boot.game.engine);
else if (area) await fetched(boot.showEnd ? "end" : "start");      // the first frame drawn whole
forgetOtherGames();
showLastRoll(boot.lastRoll);
if (boot.lastVerdict && sinceTheLastGame(boot.lastVerdict.id)) {
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
