// The end of a game: the final table, the winner, a chart of money or score over the game, and
// the exports (CSV, and BG Stats' import format) so players can keep their play log.

import { andList, dollars, h } from "./dom.js";
import { getJSON } from "./api.js";

const SVG = "http://www.w3.org/2000/svg";
const DASHES = ["", "8 5", "2 4", "12 4 2 4", "4 4", "14 6"];
const MARKS = ["circle", "square", "triangle", "diamond", "cross", "bar"];
const LINE_COLOURS = ["#f2c14e", "#6cb6ff", "#7bd88f", "#ff8fa3", "#c8a2ff", "#ffb86b"];
// A player's colour as a line on the dark card: each lightened to read at 6:1 or more against it
// (black drawn grey); the end label names the player, and dashes and marks tell lines apart.
const PLAYER_LINES = {
  red: "#ff7b7b", blue: "#6cb6ff", green: "#7bd88f", yellow: "#f2c14e", white: "#f1efe6", black: "#b9bbc6",
  orange: "#ffb86b", purple: "#c8a2ff", pink: "#ff8fc0", brown: "#d9ab8f", grey: "#b9bbc6", gray: "#b9bbc6",
};

// Each line's colour: its player's, else the first of the palette no player's line has taken.
function lineColours(data) {
  const own = data.players.map((_, i) => PLAYER_LINES[String((data.colours || [])[i] || "").toLowerCase()] || null);
  const spare = LINE_COLOURS.filter((c) => !own.includes(c));
  let next = 0;
  return own.map((c) => c || spare[next++ % Math.max(spare.length, 1)] || LINE_COLOURS[0]);
}

function s(name, attrs, ...kids) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  for (const k of kids) if (k) node.append(k);
  return node;
}

function mark(kind, x, y, colour) {
  const r = 4.5;
  const style = { fill: colour, stroke: "#15161a", "stroke-width": 1 };
  switch (kind) {
    case "square": return s("rect", Object.assign({ x: x - r, y: y - r, width: 2 * r, height: 2 * r }, style));
    case "triangle": return s("polygon", Object.assign({ points: `${x},${y - r - 1} ${x - r - 1},${y + r} ${x + r + 1},${y + r}` }, style));
    case "diamond": return s("polygon", Object.assign({ points: `${x},${y - r - 1} ${x + r + 1},${y} ${x},${y + r + 1} ${x - r - 1},${y}` }, style));
    case "cross": return s("path", { d: `M${x - r} ${y - r}L${x + r} ${y + r}M${x + r} ${y - r}L${x - r} ${y + r}`, stroke: colour, "stroke-width": 3 });
    case "bar": return s("rect", Object.assign({ x: x - r - 1, y: y - 2, width: 2 * r + 2, height: 4 }, style));
    default: return s("circle", Object.assign({ cx: x, cy: y, r }, style));
  }
}

// A line per player; each has its own dash pattern, marker shape and a label at its end, so
// colour never tells two lines apart on its own.
// A round number near ``x``: 1, 2 or 5 times a power of ten (Heckbert's "nice numbers",
// Graphics Gems, 1990), so the axis reads $1,000, $2,000 ... rather than $1,125, $3,375.
function nice(x, round) {
  const e = Math.floor(Math.log10(x)), f = x / 10 ** e;
  const n = round ? (f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10) : (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10);
  return n * 10 ** e;
}

// The axis from lo to hi in about ``count`` round steps: [first, last, step].
export function niceAxis(lo, hi, count = 4) {
  const step = Math.max(1, nice(nice(hi - lo, false) / count, true));
  return [Math.floor(lo / step) * step, Math.ceil(hi / step) * step, step];
}

const LABEL_GAP = 10;    // px between the lines' end and their labels
let measurer = null;

// The width of a line's end label as drawn (panel.css .line-label: 13px bold, the page's font).
function labelWidth(text) {
  if (!measurer) measurer = document.createElement("canvas").getContext("2d");
  measurer.font = "700 13px " + getComputedStyle(document.body).fontFamily;
  return measurer.measureText(text).width;
}

// A chart point by the moves in force up to it (the version would count the undone moves and
// the undos too): the setup is the start; the axis's end says "no moves" for a game without one.
function moveName(move, prefix = "") {
  return move ? prefix + move : prefix ? "no moves" : "Start";
}

export function chart(data, width = 640) {
  if (data.problem || !data.points.length) return h("p", { class: "muted" }, data.problem || "Nothing to chart yet.");
  let points = data.points;
  const most = 240;
  if (points.length > most) {
    const step = Math.ceil(points.length / most);
    points = points.filter((_, i) => i % step === 0 || i === data.points.length - 1);
  }
  // Drawn at the width it is shown at, so its words stay legible on a phone.
  const W = Math.max(300, Math.min(760, Math.round(width))), H = W < 500 ? 240 : 300, L = 56, T = 16, B = 36;
  const fmt = (v) => data.prefix === "$" ? dollars(v) : String(v);
  // Room on the right for the lines' end labels ("Ann $3,900"): as wide as the longest needs, up
  // to two fifths of the chart; a name longer than that is cut ("Maximiliana W…"), never its value.
  const last = points[points.length - 1].values;
  const labels = data.players.map((n, i) => [n, typeof last[i] === "number" ? " " + fmt(last[i]) : ""]);
  const need = Math.max(...labels.map(([n, v]) => labelWidth(n + v)));
  // (up to the next pixel: rounded to the nearest, the widest label lost its last letters half the time)
  const R = Math.ceil(Math.min(Math.max(W < 500 ? 92 : 120, need + LABEL_GAP + 4), W * 0.4));
  const labelOf = (i) => {
    const [n, v] = labels[i];
    let cut = n;
    while (cut.length > 1 && labelWidth((cut === n ? cut : cut + "…") + v) > R - LABEL_GAP - 4) cut = cut.slice(0, -1);
    return (cut === n ? cut : cut + "…") + v;
  };
  const values = points.flatMap((p) => p.values.filter((v) => typeof v === "number"));
  const [lo, hi, step] = niceAxis(Math.min(0, ...values), Math.max(1, ...values));
  const x = (i) => L + (points.length === 1 ? 0 : (i / (points.length - 1)) * (W - L - R));
  const y = (v) => T + (1 - (v - lo) / (hi - lo)) * (H - T - B);
  const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img",
    "aria-label": `${data.unit} over the game: ` + data.players.map((n, i) => `${n} ended with ${fmt(points[points.length - 1].values[i])}`).join(", ") });
  for (let v = lo; v <= hi; v += step) {
    svg.append(s("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: "grid" }),
      s("text", { x: L - 6, y: y(v) + 4, "text-anchor": "end", class: "axis" }, document.createTextNode(fmt(v))));
  }
  svg.append(s("text", { x: L, y: H - 8, class: "axis" }, document.createTextNode("start")),
    s("text", { x: W - R, y: H - 8, "text-anchor": "end", class: "axis" }, document.createTextNode(moveName(points[points.length - 1].move, "move "))));
  const ends = [];
  const colours = lineColours(data);
  data.players.forEach((name, i) => {
    const colour = colours[i];
    const pts = points.map((p, j) => [x(j), p.values[i]]).filter(([, v]) => typeof v === "number").map(([px, v]) => [px, y(v), v]);
    if (!pts.length) return;
    svg.append(s("polyline", { points: pts.map(([px, py]) => `${px},${py}`).join(" "), fill: "none", stroke: colour,
      "stroke-width": 3, "stroke-dasharray": DASHES[i % DASHES.length], "stroke-linejoin": "round" }));
    const [ex, ey, ev] = pts[pts.length - 1];
    svg.append(mark(MARKS[i % MARKS.length], ex, ey, colour));
    ends.push({ y: ey, text: pts.length && ev === last[i] ? labelOf(i) : `${name} ${fmt(ev)}`, colour, x: ex });
  });
  // Labels that would overlap are pushed apart, 16 px a line; those pushed below the chart's foot
  // (four lines ending at 0) are lifted back above it: the last was drawn outside and not seen.
  ends.sort((a, b) => a.y - b.y);
  for (let k = 1; k < ends.length; k++) if (ends[k].y - ends[k - 1].y < 16) ends[k].y = ends[k - 1].y + 16;
  for (let k = ends.length - 1, floor = H - 8; k >= 0 && ends[k].y > floor; k--, floor -= 16) ends[k].y = floor;
  for (const e of ends) svg.append(s("text", { x: W - R + LABEL_GAP, y: e.y + 4, class: "line-label", fill: e.colour }, document.createTextNode(e.text)));
  const table = h("details", { class: "small" }, h("summary", null, "The numbers, move by move"),
    h("div", { class: "table-scroll", role: "region", tabindex: "0", "aria-label": "The numbers, move by move" }, h("table", { class: "sheet" },
      h("thead", null, h("tr", null, h("th", { scope: "col" }, "Move"), data.players.map((n) => h("th", { scope: "col" }, n)))),
      h("tbody", null, data.points.map((p) => h("tr", null, h("th", { scope: "row", title: p.said }, moveName(p.move)),
        p.values.map((v) => h("td", null, typeof v === "number" ? fmt(v) : "—"))))))));
  return h("figure", { class: "chart-box" }, svg, h("figcaption", { class: "small muted" },
    `${data.unit[0].toUpperCase() + data.unit.slice(1)} after every move still in force (undone moves drop out).`), table);
}

// "1st", "2nd", "3rd", "4th" ... "11th", "12th", "13th", "21st".
export function ordinal(n) {
  const tens = n % 100, ones = n % 10;
  const suffix = tens >= 11 && tens <= 13 ? "th" : ones === 1 ? "st" : ones === 2 ? "nd" : ones === 3 ? "rd" : "th";
  return `${n}${suffix}`;
}

// The places come worked out with the record (controller/standings.py: tied players share one,
// 1, 1, 3); a place shared by players who are not partners is said as tied, on screen and to a
// screen reader alike.
export function placeWords(row) {
  return ordinal(row.place) + (row.tied ? " (tied)" : "");
}

// An abandoned game has no places: the table says where it stood, in its order, with no "1st"
// a result would give.
export function finalTable(rec) {
  const rows = rec.places || [];
  const money = rec.score_kind === "money";     // the engine's panel facts: its scores count money
  const placed = rec.status !== "abandoned";
  return h("table", { class: "sheet final-table" }, h("caption", { class: placed ? "sr-only" : "small muted" },
    placed ? "Final table" : "Where it stood when it was abandoned"),
    h("thead", null, h("tr", null, placed ? h("th", { scope: "col" }, h("span", { class: "sr-only" }, "Place")) : null,
      ["Player", money ? "Worth" : "Score"].map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", null, rows.map((r) => h("tr", { class: r.winner ? "is-winner" : "" },
      placed ? h("td", { class: "place" }, placeWords(r), r.winner ? [" ", h("span", { class: "tag tag-win" }, "winner")] : null) : null,
      h("th", { scope: "row" }, r.name), h("td", null, scoreWords(r, money))))));
}

// A row's score, and in a game won by reaching a score what the row needed (the engine's result
// says, per row: seats may need different ones), so "4" under a winner's "3" reads as "4 of 5 needed".
function scoreWords(r, money) {
  const say = (n) => money ? dollars(n) : String(n);
  if (r.score === null || r.score === undefined) return "—";
  return typeof r.needed === "number" ? [say(r.score), h("span", { class: "of" }, ` of ${say(r.needed)} needed`)] : say(r.score);
}

// ctx: {newGame(), shown(): whether this end is still the one on the screen} (both absent on a
// kept game's own page). The end card draws once its reads are answered: a game started
// meanwhile (on another device) was drawn, then covered by the old game's end card.
export async function renderEnd(area, gameId, ctx = {}) {
  area.replaceChildren(h("section", { class: "card", "aria-busy": "true" }, h("p", null, "Loading the final table…")));
  let rec, data, bg;
  const gone = () => Boolean(ctx.shown) && !ctx.shown();
  try {
    [rec, data] = await Promise.all([getJSON(`/api/games/${gameId}`), getJSON(`/api/games/${gameId}/chart`)]);
    bg = rec.status === "active" ? null : await getJSON(`/api/games/${gameId}/bgstats.json`).catch(() => null);
  } catch (err) {
    if (gone()) return;
    area.replaceChildren(h("section", { class: "card" }, h("p", { class: "error", role: "alert" }, String(err.message || err))));
    return;
  }
  if (gone()) return;
  // winners who are not all partners tied for the win, and are said to have shared it
  const shared = (rec.places || []).some((r) => r.winner && r.tied);
  const winners = rec.winners.length ? `${andList(rec.winners)} ${shared ? "shared the win" : "won"}!`
    : rec.status === "abandoned" ? "Abandoned: no winner." : "Still being played.";
  const blob = bg ? URL.createObjectURL(new Blob([JSON.stringify(bg.play, null, 1)], { type: "application/json" })) : null;
  area.replaceChildren(h("section", { class: "card end-card", "aria-labelledby": "end-h" },
    // the heading takes the focus at the end: what it says then includes how the game ended
    h("h2", { id: "end-h", class: "game-title", tabindex: "-1", "aria-describedby": "winner" }, rec.title, h("span", { class: "game-meta" }, ` · game #${rec.id}`)),
    h("p", { class: "winner-banner", id: "winner" }, winners),
    finalTable(rec),
    h("h3", { class: "offer-heading" }, "Over the game"), chart(data, area.clientWidth - 40),
    rec.status !== "active" ? h("div", { class: "exports", role: "group", "aria-label": "Export" },
      h("a", { class: "offer", href: `/api/games/${rec.id}/export.csv`, download: `newsdesk-game-${rec.id}.csv`, id: "export-csv" }, "Download CSV"),
      bg ? h("a", { class: "offer", href: bg.link, id: "export-bgstats", rel: "noopener" }, "Open in BG Stats") : null,
      blob ? h("a", { class: "quiet", href: blob, download: `newsdesk-game-${rec.id}.bgstats.json`, id: "export-bgstats-file" }, "BG Stats play file (JSON)") : null) : null,
    h("details", { class: "small" }, h("summary", null, `What happened (${rec.log.length} ${rec.log.length === 1 ? "entry" : "entries"})`),
      h("ol", { class: "log" }, rec.log.map((e) => h("li", null, e.said)))),
    h("div", { class: "end-bar" }, ctx.newGame ? h("button", { type: "button", class: "offer offer-strong", id: "new-game", onclick: () => ctx.newGame() }, "New game") : null,
      h("a", { class: "quiet", href: "/history" }, "All games and statistics"))));
}
