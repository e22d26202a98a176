// The table panel's live side: one EventSource for every change, the game screen, the start
// form, the end of a game, the oracles' results and the health strip. No framework and nothing
// from the network but the Pi.

import { $, bootData, fill, h } from "./dom.js";
import { getJSON, send } from "./api.js";
import { knowScreens, loadScreen, loadedScreen, renderGame } from "./game.js";
import { knowGames } from "./offers.js";
import { renderStart } from "./start.js";
import { renderEnd } from "./endgame.js";
import { play, setSound, soundOn, unlock } from "./sound.js";
import { heardRelease } from "./release.js";

const boot = bootData();
const S = {
  game: boot.game || null,
  lastEventId: boot.lastEventId || 0,
  catalogue: boot.catalogue || [],
  canWrite: boot.canWrite !== false,
  lastSaid: boot.game ? boot.game.undo : null,
  ended: null,
  lastGame: boot.lastGame || null,
  busy: false,
};
knowGames(S.catalogue);      // the bounds and words of what each game's offers ask for
knowScreens(S.catalogue);    // where each game's screen is loaded from
// For a look from the browser's console (and the tests): the state, and the live feed.
window.NEWSDESK_PANEL = S;
Object.defineProperty(S, "stream", { get: () => source });

const area = $("#game-area");

// ------------------------------------------------------------------ telling the table

function announce(text, urgent) {
  const box = $(urgent ? "#alert" : "#announce");
  if (!box) return;
  box.textContent = "";
  requestAnimationFrame(() => { box.textContent = text; });
}

let toastTimer = null;
let toastAboutLink = false;     // the toast says the box can't be reached: it goes when the box is back
function toast(text, kind, aboutLink) {
  toastAboutLink = Boolean(text && aboutLink);
  const box = $("#toast");
  if (!box) return;
  fill(box, h("span", null, text), text && kind !== "ok" && /join/i.test(text) ? [" ", h("a", { href: "/join" }, "Join")] : null);
  box.className = "toast" + (kind ? " toast-" + kind : "");
  box.hidden = !text;
  clearTimeout(toastTimer);
  if (text) toastTimer = setTimeout(() => { box.hidden = true; }, kind === "bad" ? 9000 : 5000);
}

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

// ------------------------------------------------------------------ the live feed

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

function showHook(state) {
  const s = $("#hook-state");
  if (s) s.textContent = state === "off" ? "lifted" : "on the cradle";
  const button = $("#hook-button");
  if (button) { button.textContent = state === "off" ? "Hang up" : "Lift the handset"; button.dataset.hook = state; }
  document.body.dataset.hook = state;
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
  "phone.digit": (m) => { const d = $("#last-digit"); if (d) d.textContent = m.data.digit; },
  "phone.fault": (m) => {
    // an empty message is the decoder saying the line behaves again
    health.phoneFault = m.data.message;
    showHealth();
    if (m.data.message) toast("Phone wiring: " + m.data.message, "bad");
    else toast("The phone's " + (m.data.line || "wiring") + " line is working again.", "ok");
  },
  "game.refused": (m) => { toast(m.data.message, "bad"); play("refused"); },
  "phone.link": () => pollHealth(),
  "oracle.fault": (m) => { toast(m.data.message || "A button reported a fault.", "bad"); },
};

// The phone's window display (simulated): drawn again after anything that may change it.
let windowTimer = null;
function refreshWindow() {
  const img = $("#window-img");
  if (!img) return;
  clearTimeout(windowTimer);
  windowTimer = setTimeout(() => { img.src = "/api/oracles/window.png?t=" + Date.now(); }, 150);
}

let source = null;
let wasDown = false;
let pollTimer = null;
let retryTimer = null;
const POLL_EVERY = 5000;     // ms between reads while the newsdesk has no live feed to spare
const RETRY_AFTER = 30000;   // ms before asking for a live feed again (the server's Retry-After)

// Turned away (the newsdesk serves as many live pages as it can) or the feed is gone for good:
// the page keeps itself up to date by asking, says so, and asks for the live feed again later.
function fallBackToPolling() {
  const link = $("#link");
  link.textContent = "updating every 5 s";
  link.className = "badge badge-warn";
  link.title = "The newsdesk has as many live pages open as it serves; this one asks for changes instead.";
  if (!pollTimer) pollTimer = setInterval(() => { refresh(); }, POLL_EVERY);
  clearTimeout(retryTimer);
  retryTimer = setTimeout(connect, RETRY_AFTER);
}

function connect() {
  const link = $("#link");
  if (source) source.close();
  clearTimeout(retryTimer);
  source = new EventSource("/stream?since=" + encodeURIComponent(S.lastEventId || 0));
  source.onopen = () => {
    backAgain();
    link.textContent = "live";
    link.className = "badge badge-ok";
    link.title = "";
    if (pollTimer) { clearInterval(pollTimer); pollTimer = null; }
    if (wasDown) { wasDown = false; refresh(); pollHealth(); }   // back after a restart: maybe a new release
  };
  source.onerror = () => {
    wasDown = true;
    // CLOSED: the server answered but not with a feed (503 when it is full): the browser won't retry
    if (source.readyState === EventSource.CLOSED) { fallBackToPolling(); return; }
    if (offline.down) return;
    link.textContent = "reconnecting…";
    link.className = "badge badge-warn";
    checkTheBox();
  };
  source.onmessage = (e) => {
    let m;
    try { m = JSON.parse(e.data); } catch { return; }
    if (typeof m.id === "number") S.lastEventId = Math.max(S.lastEventId, m.id);
    if (m.type === "resync") { resync(m); return; }
    if (/^(phone|dice|stopwatch|editor|game)\./.test(m.type)) refreshWindow();
    if (GAME_TYPES.has(m.type) || m.type === "game.finished" || m.type === "game.abandoned") onGame(m);
    else if (handlers[m.type]) handlers[m.type](m);
    else if (/^(dice|stopwatch)\./.test(m.type)) showOracle(m);
  };
}

// The stream could not send what this page missed one by one (it was away too long, or fell
// behind): read everything again instead of showing a table with a silent gap.
function resync(m) {
  const last = m.data && m.data.last_event_id;
  if (typeof last === "number") S.lastEventId = last;   // the store's word (it may have been replaced)
  refresh(true);     // draws the game afresh whatever its version
  pollHealth();
  refreshWindow();
  announce("This page missed some changes while it was away; it has read the table again.");
}

// A tablet that slept: its EventSource may have died; reconnect (the store replays what it missed).
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState !== "visible") return;
  if (!source || source.readyState === EventSource.CLOSED) connect();
  refresh();
});

// ------------------------------------------------------------------ health strip

const health = { report: boot.health || null, phoneFault: null };
const PART_NAMES = { phone: "Phone", buttons: "Buttons", display: "Display", audio: "Audio", store: "Store", mqtt: "MQTT", backup: "Backup" };

function showHealth() {
  const strip = $("#health");
  if (strip && offline.down) {
    // what the box last said of its parts is not known now: say that, never a stale "OK"
    strip.replaceChildren(h("li", { class: "health-item health-fault", title: OFFLINE_WORDS },
      h("span", { class: "health-mark", "aria-hidden": "true" }, "✕"),
      h("span", { class: "health-name" }, "Box"),
      h("span", { class: "health-words" }, "can't be reached")));
    return;
  }
  if (!strip || !health.report) return;
  strip.replaceChildren(...health.report.parts.map((p) => {
    let status = p.status;
    let summary = p.summary;
    if (p.part === "phone" && health.phoneFault) { status = "fault"; summary = "Wiring fault: " + health.phoneFault; }
    const mark = { ok: "✓", warn: "!", fault: "✕", absent: "–" }[status] || "?";
    // Green parts say so in a word; anything else says in plain words what is wrong.
    const short = { ok: "OK", absent: "off" }[status];
    return h("li", { class: "health-item health-" + status, title: summary + (p.detail ? " " + p.detail : "") },
      h("span", { class: "health-mark", "aria-hidden": "true" }, mark),
      h("span", { class: "health-name" }, PART_NAMES[p.part] || p.part),
      h("span", { class: "health-words" }, short ? [short, h("span", { class: "sr-only" }, ": " + summary)] : summary));
  }));
}

async function pollHealth() {
  try { health.report = await getJSON("/api/health"); showHealth(); heardRelease(health.report); } catch { checkTheBox(); }
}

// ------------------------------------------------------------------ the box out of reach

// The live feed lost and the box not answering (switched off, out of the Wi-Fi's reach): a
// banner says so where the eye is, every control that needs the box is held (disabled, with the
// banner as its reason) and the health strip stops claiming OK. The page asks the box often
// while it is away, so all of it clears within a second of the box answering again.
const OFFLINE_WORDS = "The box can't be reached — is it on, and is this device on its Wi-Fi? " +
  "Nothing is lost: the buttons come back by themselves as soon as it answers.";
const PROBE_EVERY = 400;       // ms between asks while the box is away
const PROBE_WAIT = 1500;       // ms an ask may take before the box counts as away
const offline = { down: false, timer: null, asking: false };

async function boxAnswers() {
  const stop = new AbortController();
  const late = setTimeout(() => stop.abort(), PROBE_WAIT);
  try {
    const r = await fetch("/api/health", { headers: { Accept: "application/json" }, cache: "no-store", signal: stop.signal });
    if (!r.ok) return false;
    health.report = await r.json();
    heardRelease(health.report);
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(late);
  }
}

async function checkTheBox() {
  if (offline.asking) return;
  offline.asking = true;
  try {
    const there = await boxAnswers();
    if (!there) goOffline();
    else if (offline.down) { backAgain(); connect(); }
  } finally {
    offline.asking = false;
  }
}

function goOffline() {
  if (offline.down) return;
  offline.down = true;
  document.body.dataset.link = "down";
  const link = $("#link");
  if (link) { link.textContent = "offline"; link.className = "badge badge-warn"; link.title = OFFLINE_WORDS; }
  let banner = $("#offline");
  if (!banner) {
    banner = h("div", { id: "offline", class: "offline-banner", role: "alert" },
      h("strong", null, "Offline. "), h("span", { id: "offline-words" }, OFFLINE_WORDS));
    const main = $("main");
    if (main) main.prepend(banner);
  }
  banner.hidden = false;
  holdControls();
  showHealth();
  clearInterval(offline.timer);
  offline.timer = setInterval(checkTheBox, PROBE_EVERY);
}

function backAgain() {
  clearInterval(offline.timer);
  offline.timer = null;
  if (toastAboutLink) toast("");
  if (!offline.down) return;
  offline.down = false;
  delete document.body.dataset.link;
  const banner = $("#offline");
  if (banner) banner.hidden = true;
  holdControls();
  showHealth();
  const link = $("#link");
  if (link && link.textContent === "offline") { link.textContent = "reconnecting…"; link.title = ""; }
  refresh(true);
}

// The controls that talk to the box: the game's moves and its undo, the start button, the
// simulated phone and buttons. Typing (names, a printed value) and choosing stay free. Only what
// this held is let go again (a button disabled for its own reason stays so).
const NEEDS_THE_BOX = "#game-area button:not(.quiet), #game-area #abandon, #game-area #abandon-yes, .side button";
function holdControls() {
  if (offline.down) {
    for (const el of document.querySelectorAll(NEEDS_THE_BOX)) {
      if (el.disabled && !el.dataset.held) continue;
      el.disabled = true;
      el.dataset.held = "1";
      el.setAttribute("aria-disabled", "true");
      el.setAttribute("aria-describedby", "offline-words");
      el.title = OFFLINE_WORDS;
    }
    for (const d of document.querySelectorAll("rotary-dial")) { d.inert = true; d.setAttribute("aria-disabled", "true"); }
  } else {
    for (const el of document.querySelectorAll("[data-held]")) {
      el.disabled = false;
      delete el.dataset.held;
      el.removeAttribute("aria-disabled");
      el.removeAttribute("aria-describedby");
      el.removeAttribute("title");
    }
    for (const d of document.querySelectorAll("rotary-dial")) { d.inert = false; d.removeAttribute("aria-disabled"); }
  }
}

// ------------------------------------------------------------------ simulated phone

function simPost(url, body) {
  send(url, body, { retries: 1 }).then((r) => {
    const box = $("#phone-error");
    if (box) { box.textContent = r.ok ? "" : r.data.message; box.hidden = r.ok; }
  });
}

const dial = $("#dial");
if (dial) dial.addEventListener("dial", (e) => offline.down || simPost("/api/sim/dial", { digit: e.detail.digit }));
const hookButton = $("#hook-button");
if (hookButton) document.body.dataset.hook = hookButton.dataset.hook;   // the state the page was rendered with
if (hookButton) hookButton.addEventListener("click", () => simPost("/api/sim/hook", { state: document.body.dataset.hook === "off" ? "on" : "off" }));
for (const b of document.querySelectorAll("[data-sim-post]")) {
  b.addEventListener("click", () => simPost(b.dataset.simPost, JSON.parse(b.dataset.simBody || "{}")));
}

const windowImg = $("#window-img");
if (windowImg) {
  windowImg.addEventListener("error", () => { windowImg.hidden = true; });
  windowImg.addEventListener("load", () => { windowImg.hidden = false; });
  if (windowImg.complete && !windowImg.naturalWidth) windowImg.hidden = true;
}

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
showHealth();
setInterval(pollHealth, 15000);
connect();
// every game's screen, loaded meanwhile: a game started from another device is drawn with its own at once
if (area) for (const g of S.catalogue) loadScreen(g.name);
