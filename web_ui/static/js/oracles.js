// The oracles page ("are these dice fair?"): each oracle's latest results, and per face its count
// against what a fair source gives, this session and all time, with the chi-square test. Built
// from the JSON the page carries at load; a new result on the panel's one EventSource adds itself
// to the list and has the distributions read again.

import "./panel.js";       // the live feed, the health strip and the link badge, as on every page
import { $, bootData, fill, h } from "./dom.js";
import { getJSON } from "./api.js";
import { diceWords } from "./sidebar.js";

const boot = bootData();
const root = $("#oracles");
const found = boot.oracles;

const ORACLES = [
  { name: "dice", type: "dice.roll", title: "Dice", empty: "The dice haven't been rolled yet." },
  { name: "stopwatch", type: "stopwatch.roll", title: "Stopwatch", empty: "The stopwatch hasn't given a digit yet." },
  { name: "editor", type: "editor.verdict", title: "The editor on the phone", empty: "Nobody has dialed the editor yet." },
];
const BY_TYPE = Object.fromEntries(ORACLES.map((o) => [o.type, o]));
const SCOPES = [["session", "This session"], ["all_time", "All time"]];
const NBSP = "\u00a0";

const S = {
  distributions: found ? found.distributions : null,
  history: found ? found.history : {},
  limit: (found && found.historyLimit) || 12,
  counts: new Map(),        // table key + face -> the count shown, to mark what changed
};

// ------------------------------------------------------------------ numbers in words

function pct(x) {
  if (typeof x !== "number") return "—";
  return (x * 100).toFixed(1) + NBSP + "%";
}

const SUPER = { "-": "⁻", 0: "⁰", 1: "¹", 2: "²", 3: "³", 4: "⁴", 5: "⁵", 6: "⁶", 7: "⁷", 8: "⁸", 9: "⁹" };

function pValue(p) {
  if (typeof p !== "number") return "—";
  if (p === 0) return "0";
  if (p >= 0.01) return p.toFixed(2);
  if (p >= 0.001) return p.toFixed(3);
  const [mant, exp] = p.toExponential(1).split("e");
  return mant + NBSP + "×" + NBSP + "10" + String(Number(exp)).replace(/./g, (c) => SUPER[c] || c);
}

function when(at) {
  const d = new Date(at);
  if (Number.isNaN(d.getTime())) return "";
  const time = d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  return d.toDateString() === new Date().toDateString() ? time : d.toLocaleDateString([], { day: "numeric", month: "short" }) + " " + time;
}

// What one stored result says: {value, detail} (dice.roll, stopwatch.roll, editor.verdict).
function said(type, d) {
  d = d || {};
  if (type === "dice.roll") {
    const faces = d.faces || [];
    return { value: d.total, detail: faces.length > 1 ? `${d.dice}: ${faces.join(" + ")}` : d.dice };
  }
  if (type === "stopwatch.roll") return { value: d.digit, detail: d.mode === "d10" ? "d10" : `stopped at ${d.shown || ""}` };
  return { value: d.signal, detail: `dialed ${d.digit}` };
}

// How a group's draws are called, one and many.
function unit(g) {
  if (g.oracle === "editor") return ["call", "calls"];
  if (g.oracle === "dice" && g.what === "faces") return ["die face", "dice faces"];
  return ["roll", "rolls"];
}

function verdictKind(r) {
  const marks = { none: "–", unfair: "✕", few: "…", borderline: "!", fair: "✓" };
  const kinds = { unfair: "bad", fair: "ok" };
  if (r.judgement) return [kinds[r.judgement] || r.judgement, marks[r.judgement]];
  if (!r.n) return ["none", "–"];
  if (r.p_value < r.alpha) return ["bad", "✕"];
  if (!r.enough_data) return ["few", "…"];
  if (r.p_value < 0.01) return ["borderline", "!"];
  return ["ok", "✓"];
}

// ------------------------------------------------------------------ rendering

function groupKey(g) {
  return [g.oracle, g.label, g.mode || "", g.odds ? JSON.stringify(g.odds) : ""].join("|");
}

let ids = 0;

// What a group's faces are called in its table's first column.
function faceWord(g) {
  if (g.oracle === "editor") return "Signal";
  if (g.oracle === "stopwatch") return "Digit";
  return g.what === "totals" ? "Total" : "Face";
}

function faceTable(g, key, scope, words, r) {
  const [one, many] = unit(g);
  const captionId = "odds-t" + ++ids;
  const mechanical = g.oracle === "editor" && g.mode === "mechanical";
  const rows = r.faces.map((f) => {
    const countKey = key + "|" + scope + "|" + f.face;
    const before = S.counts.get(countKey);
    S.counts.set(countKey, f.count);
    const [lo, hi] = f.fair_range95;
    const [olo, ohi] = f.observed_interval95;
    return h("tr", { class: f.outside ? "is-outside" : null, dataset: { face: String(f.face) } },
      h("th", { scope: "row" }, String(f.face)),
      h("td", null, h("span", { class: "num" + (before !== undefined && before !== f.count ? " changed" : ""), dataset: { count: "" } }, String(f.count)),
        h("span", { class: "share-ci" }, f.expected_count.toFixed(1) + " expected")),
      h("td", null, `${lo}–${hi}`,
        f.outside ? h("span", { class: "flag" }, h("span", { class: "sr-only" }, "outside the fair range: "),
          f.count > hi ? "▲ too many" : "▼ too few") : null),
      h("td", null, pct(f.observed_share), h("span", { class: "share-ci" }, `${pct(olo).replace(NBSP + "%", "")}–${pct(ohi)}`)),
      h("td", null, pct(f.expected_share)));
  });
  const table = h("table", { class: "sheet odds-table", dataset: { oracle: g.oracle, scope, n: String(r.n) } },
    h("caption", { id: captionId }, words, h("span", { class: "sr-only" }, ", " + heading(g)), ": ",
      `${r.n} ${r.n === 1 ? one : many}`),
    h("thead", null, h("tr", null,
      h("th", { scope: "col" }, faceWord(g)),
      h("th", { scope: "col" }, "Count", h("span", { class: "share-ci" }, "and expected")),
      h("th", { scope: "col" }, "Fair range", h("span", { class: "share-ci" }, "95\u00a0% of counts")),
      h("th", { scope: "col" }, "Seen", h("span", { class: "share-ci" }, "share, 95\u00a0% interval")),
      h("th", { scope: "col" }, mechanical ? "Disc" : "Expected", h("span", { class: "share-ci" }, mechanical ? "share of its windows" : "share")))),
    h("tbody", null, rows));
  return h("div", { class: "table-scroll", role: "region", tabindex: "0", "aria-labelledby": captionId, dataset: { scroll: key + "|" + scope } }, table);
}

function report(g, key, scope, words) {
  const r = g[scope];
  const [kind, mark] = verdictKind(r);
  const [one, many] = unit(g);
  if (!r.n || (scope === "all_time" && r.n === g.session.n)) {
    const text = !r.n ? (scope === "session" ? "Nothing counted this session yet." : "Nothing counted yet.")
      : `The same ${r.n} ${r.n === 1 ? one : many} as this session: all of them came this session.`;
    return h("div", { class: "odds-report odds-report-note", dataset: { scope } }, h("h4", null, words), h("p", { class: "muted" }, text));
  }
  const chi = r.chi_square === null ? "∞" : r.chi_square.toFixed(2);
  return h("div", { class: "odds-report", dataset: { scope } },
    faceTable(g, key, scope, words, r),
    h("p", { class: "odds-stats" },
      h("span", null, "Chi-square ", h("strong", null, chi)), " · ",
      h("span", null, h("strong", null, String(r.df)), r.df === 1 ? " degree of freedom" : " degrees of freedom"), " · ",
      h("span", null, "p = ", h("strong", null, pValue(r.p_value))), " · ",
      h("span", null, "from ", h("strong", null, String(r.n)), " ", r.n === 1 ? one : many)),
    h("p", { class: "verdict-line verdict-" + kind, dataset: { verdict: kind } },
      h("span", { class: "verdict-mark", "aria-hidden": "true" }, mark), " ", r.verdict));
}

// A group's heading in a table's words: "2d6: totals" said nothing to a table that doesn't play
// role-playing games ("Two 6-sided dice (2d6): totals", as the sidebar says the dice). The API's
// label stays the group's key.
function heading(g) {
  if (g.oracle === "dice" && g.dice) {
    const words = diceWords(g.dice);
    return `${words.charAt(0).toUpperCase()}${words.slice(1)}: ${g.what === "totals" ? "totals" : "each die's faces"}`;
  }
  return g.label;
}

function group(g) {
  const key = groupKey(g);
  const id = "odds-g" + ++ids;
  return h("section", { class: "odds-group", "aria-labelledby": id, dataset: { key } },
    h("h3", { id }, heading(g)),
    g.note ? h("p", { class: "note" }, g.note) : null,
    h("div", { class: "odds-pair" }, SCOPES.map(([scope, words]) => report(g, key, scope, words))));
}

function recent(o) {
  const list = S.history[o.name] || [];
  if (!list.length) return h("p", { class: "muted" }, o.empty);
  return h("ol", { class: "rolls", "aria-label": `${o.title}: the latest ${list.length}, newest first` },
    list.map((e) => {
      const s = said(e.type, e.data);
      return h("li", { dataset: { eventId: String(e.id) } },
        h("strong", { class: "roll-value" }, s.value === undefined ? "—" : String(s.value)), " ",
        h("span", { class: "roll-detail" }, s.detail), " ",
        h("time", { class: "roll-detail", datetime: e.at }, when(e.at)));
    }));
}

function oracle(o) {
  // what was used this session first (the dice on the table now), then the earlier ones as they came
  const groups = ((S.distributions && S.distributions.groups) || []).filter((g) => g.oracle === o.name)
    .map((g, i) => [g.session.n ? 0 : 1, i, g]).sort((a, b) => a[0] - b[0] || a[1] - b[1]).map((x) => x[2]);
  const id = "odds-" + o.name + "-h";
  return h("section", { class: "card odds-oracle", "aria-labelledby": id, dataset: { oracle: o.name } },
    h("h2", { id }, o.title),
    h("h3", null, "Latest, newest first"),
    recent(o),
    groups.length ? groups.map(group) : null);
}

function render() {
  if (!root || !found) return;
  // a table scrolled sideways (or focused) on a phone stays so when the counts change under it
  const scrolled = new Map(Array.from(root.querySelectorAll("[data-scroll]"), (b) => [b.dataset.scroll, b.scrollLeft]));
  const focused = document.activeElement && root.contains(document.activeElement) ? document.activeElement.dataset.scroll : null;
  ids = 0;
  fill(root, ORACLES.map(oracle));
  for (const b of root.querySelectorAll("[data-scroll]")) {
    if (scrolled.get(b.dataset.scroll)) b.scrollLeft = scrolled.get(b.dataset.scroll);
    if (focused && b.dataset.scroll === focused) b.focus({ preventScroll: true });
  }
  if (S.distributions) root.dataset.lastEvent = String(S.distributions.last_event);
}

// ------------------------------------------------------------------ live

function problem(text) {
  const box = $("#odds-error");
  if (!box) return;
  box.textContent = text || "";
  box.hidden = !text;
}

let loading = null;
let again = false;
function reload() {
  if (loading) { again = true; return; }
  loading = getJSON("/api/oracles/distributions")
    .then((d) => { S.distributions = d; problem(""); render(); })
    .catch((e) => problem("The counts couldn't be read again (" + e.message + "); the tables show the last ones read."))
    .finally(() => {
      loading = null;
      if (again) { again = false; reload(); }
    });
}

function announce(text) {
  const box = $("#announce");
  if (!box) return;
  box.textContent = "";
  requestAnimationFrame(() => { box.textContent = text; });
}

function onMessage(e) {
  let m;
  try { m = JSON.parse(e.data); } catch { return; }
  if (m.type === "resync") { location.reload(); return; }   // it missed results: read the page again
  const o = BY_TYPE[m.type];
  if (!o || typeof m.id !== "number") return;
  const list = S.history[o.name] || (S.history[o.name] = []);
  if (list.some((x) => x.id === m.id)) return;
  list.push(m);
  list.sort((a, b) => b.id - a.id);
  list.length = Math.min(list.length, S.limit);
  render();
  reload();
  const s = said(m.type, m.data);
  announce(`${o.title}: ${s.value} (${s.detail}). The counts are updated.`);
}

// The panel's EventSource (feed.js owns it and opens a new one when a tablet wakes).
let attached = null;
function attach() {
  const source = window.NEWSDESK_PANEL && window.NEWSDESK_PANEL.stream;
  if (!source || source === attached) return;
  if (attached) attached.removeEventListener("message", onMessage);
  attached = source;
  source.addEventListener("message", onMessage);
}

if (found) {
  render();
  attach();
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") attach(); });
}
