// The league's wall screen: draws the picture the page was served with, then every picture the
// live stream pushes. Read-only: no buttons, nothing sent back. It shows what a passer-by reads
// (tables, players, games, money with its unit); ids, topics and the broker are in /api/league.

import { $, bootData, dollars, h } from "./dom.js";

const number = new Intl.NumberFormat();

// A score as the game counts it: "$3,500" for money, "12 points" otherwise.
function score(value, unit) {
  if (value === null || value === undefined) return "";
  if (unit === "$") return dollars(value);
  return number.format(value) + (unit === "points" ? (value === 1 ? " point" : " points") : "");
}

function tableCard(t) {
  const state = t.online === true ? "online" : t.online === false ? "offline" : "unknown";
  const g = t.game;
  const leaders = g ? (g.leaders || (g.leader ? [g.leader] : [])) : [];
  const rows = g && g.standings ? g.standings.map((r) =>
    h("li", { class: leaders.includes(r.name) ? "lead" : "" },
      h("span", { class: "who" }, r.name), h("span", { class: "score" }, score(r.score, g.unit)))) : [];
  const said = t.last_event && t.last_event.said;
  return h("li", { class: "table-card " + state, "data-table": t.base },
    h("h3", {}, t.name, state === "offline" ? h("span", { class: "away" }, " (away)") : null),
    h("p", { class: "game" }, g ? g.title + " \u2014 move " + g.version : "No game being played"),
    rows.length ? h("ol", { class: "standings" }, rows) : null,
    said ? h("p", { class: "last" }, said) : null);
}

function cell(text, num) {
  return h("td", num ? { class: "num" } : {}, text === null || text === undefined ? "\u2013" : String(text));
}

// Only what changed is redrawn: at a busy convention most pictures change one table's card.
const drawn = { cards: new Map(), board: "" };

function drawTables(tables) {
  const list = $("#tables");
  const keep = new Map();
  tables.forEach((t, i) => {
    const text = JSON.stringify(t);
    const old = drawn.cards.get(t.base);
    const card = old && old.text === text ? old.card : tableCard(t);
    keep.set(t.base, { text, card });
    if (list.children[i] !== card) list.insertBefore(card, list.children[i] || null);
    if (old && old.card !== card) old.card.remove();
  });
  for (const [base, old] of drawn.cards) if (!keep.has(base)) old.card.remove();
  drawn.cards = keep;
}

// A wall shows the top of each board; /api/league has all of it.
const TOP_PLAYERS = 20, TOP_PER_GAME = 8;

function drawBoard(board) {
  const text = JSON.stringify(board);
  if (text === drawn.board) return;
  drawn.board = text;
  const perGame = {};
  const byGame = board.by_game.filter((r) => (perGame[r.game] = (perGame[r.game] || 0) + 1) <= TOP_PER_GAME);
  $("#by-player tbody").replaceChildren(...board.by_player.slice(0, TOP_PLAYERS).map((r) =>
    h("tr", {}, cell(r.player), cell(r.won, true), cell(r.played, true), cell(r.tables.join(", ")))));
  $("#by-game tbody").replaceChildren(...byGame.map((r) =>
    h("tr", {}, cell(r.game), cell(r.player), cell(r.won, true), cell(r.played, true),
      cell(r.best === null ? null : number.format(r.best), true))));
}

function draw(snap) {
  const link = $("#link");
  link.textContent = snap.connected ? "Live" : "Reconnecting to the tables\u2026";
  link.classList.toggle("down", !snap.connected);
  drawTables(snap.tables);
  drawBoard(snap.leaderboard);
  document.body.dataset.version = snap.version;
}

draw(bootData());
const live = new EventSource("/api/league/stream");
live.onmessage = (m) => draw(JSON.parse(m.data));
