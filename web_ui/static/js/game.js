// The screen of the game being played: what it waits for, the game's own view, the offers as
// big buttons, and undo (which says what it takes back) one tap away.

import { $$, andList, confirmButton, dollars, h, signed } from "./dom.js";
import { guarded, renderOffers } from "./offers.js";
import { announce } from "./toast.js";
import * as generic from "./games/generic.js";

// Each game's screen is a module of its own, imported by the URL its catalogue item carries
// (the game's "screen"): no script here lists the games, so one installed beside newsdesk, with
// a screen of its own, is shown like the five. A game without a screen gets the generic one.
const URLS = new Map();       // game name -> its screen's URL
const SCREENS = new Map();    // URL -> the screen's module, once loaded (generic.js if it failed)
const LOADING = new Map();    // URL -> the import under way

export function knowScreens(catalogue) {
  for (const g of catalogue || []) if (g && g.screen) URLS.set(g.name, g.screen);
}

// The screen of ``engine`` when it is loaded (null while it loads): a render doesn't wait for it.
export function loadedScreen(engine) {
  const url = URLS.get(engine);
  return url ? SCREENS.get(url) || null : generic;
}

// The screen of ``engine``, loaded once; one that fails to load is the generic screen (and says
// why on the console) rather than a blank game area.
export function loadScreen(engine) {
  const url = URLS.get(engine);
  if (!url) return Promise.resolve(generic);
  if (SCREENS.has(url)) return Promise.resolve(SCREENS.get(url));
  if (!LOADING.has(url)) {
    LOADING.set(url, import(url).catch((err) => {
      console.error(`The ${engine} screen (${url}) didn't load, so the game is shown plainly:`, err);
      return generic;
    }).then((screen) => {
      SCREENS.set(url, screen);
      LOADING.delete(url);
      return screen;
    }));
  }
  return LOADING.get(url);
}

// ``text`` as a sentence: a capital first, a full stop last (unless it ends with its own).
export function sentence(text) {
  if (!text) return "";
  return text.charAt(0).toUpperCase() + text.slice(1) + (/[.!?]$/.test(text) ? "" : ".");
}

// How far the game has gone: the moves in force, which an undo takes back (the version counts
// every entry, the undo too, and would say "move 11" after taking the tenth back).
function moveWords(game) {
  const n = typeof game.moves === "number" ? game.moves : Math.max(0, game.version - 1);
  return n === 0 ? "no move yet" : n === 1 ? "1 move" : `${n} moves`;
}

// ctx: {act(action, opts), undo(), redo(), finish(), abandon(), redraw(), canWrite, lastSaid}
// A game whose screen is still loading is drawn with the generic one, then again (redraw) with its
// own. Returns whether it was drawn with its own.
export function renderGame(area, game, ctx) {
  const before = numbers(area);
  const focused = whereFocus(area);
  const view = game.view || {};
  const own = loadedScreen(game.engine);
  const comp = own || generic;
  if (!own) loadScreen(game.engine).then(() => ctx.redraw());
  // The game says itself whether it is over (its engine's result, which the view carries).
  const over = Boolean(view.result && view.result.over);

  const head = h("header", { class: "game-head" },
    h("h2", { id: "game-title", tabindex: "-1" }, game.title),
    h("p", { class: "game-meta" }, `Game #${game.id} · ${moveWords(game)}`));
  const waitingFor = view.waiting_for || (comp.waiting ? guarded(() => comp.waiting(view)) || "" : "");
  const waiting = h("p", { class: "waiting", id: "waiting" },
    game.problem ? sentence(game.problem) : over ? winnerWords(view) : sentence(waitingFor));

  const undoBar = h("div", { class: "undo-bar", role: "group", "aria-label": "Undo and redo" },
    h("button", { type: "button", class: "undo", id: "undo", disabled: !game.undo || !ctx.canWrite,
      onclick: () => ctx.undo() }, h("span", { class: "undo-icon", "aria-hidden": "true" }, "↶ "),
      game.undo ? "Undo: " + game.undo : "Nothing to undo"),
    game.redo ? h("button", { type: "button", class: "undo redo", id: "redo", disabled: !ctx.canWrite, onclick: () => ctx.redo() },
      h("span", { class: "undo-icon", "aria-hidden": "true" }, "↷ "), "Redo: " + game.redo) : null);

  const said = comp.lastMove ? guarded(() => comp.lastMove(view, ctx.lastSaid)) || ctx.lastSaid : ctx.lastSaid;
  const last = said ? h("p", { class: "last-move", id: "last-move" }, h("span", { class: "sr-only" }, "Last move: "), sentence(said)) : null;
  let body;
  try {
    body = !game.view ? h("p", { class: "notice notice-bad" }, "This game can't be shown.")
      : comp.render ? comp.render(view, game) : generic.render(view);      // every export is optional
  } catch (err) {
    console.error(err);
    body = generic.render(view);
  }
  const offers = game.problem ? null : renderOffers(game.offers, view, comp, ctx.act);
  if (offers && !ctx.canWrite) {
    for (const el of $$("button, input, select", offers)) el.disabled = true;
    offers.prepend(h("p", { class: "notice" }, "This device is watching. ", h("a", { href: "/join" }, "Join the table"), " to play from it."));
  }
  const end = h("div", { class: "end-bar" },
    over && !game.problem ? h("button", { type: "button", class: "offer offer-strong", id: "finish", disabled: !ctx.canWrite,
      onclick: () => ctx.finish() }, "Finish: keep the result") : null,
    abandonButton(ctx));

  area.replaceChildren(h("section", { class: "card game-card game-" + game.engine, "aria-labelledby": "game-title" },
    head, waiting, last, undoBar, h("div", { class: "game-view" }, body),
    offers ? h("section", { class: "offers-card", id: "offers", tabindex: "-1", "aria-label": "What you can do" }, offers) : null,
    end));
  animate(area, before);
  if (focused) refocus(area, focused);
  tellNext(game, waiting.textContent);
  return Boolean(own);
}

// Where focus goes after a move: the same control if the next state has it (the same words in
// the same group of offers: a roll's digits, say, stand under each roll's own heading); after a form sent
// (SCAN's hand), the first field of the form standing in its place under the same heading, its
// numbers aside ("Hand 2: ..." after "Hand 1: ..."; Ann's story taken, the field was Bob's
// advertisement's, the next form in the offers); else Finish, once the game is
// over; else the offers themselves ("What you can do"), the next Tab their first. Never another
// control that happens to stand where the used one stood: a second Enter (a double press, a
// switch) would make a move nobody chose (SYND after a claim, a win after the reveal, Undo after
// the last Redo). Nor the title: a keyboard user would travel back to the controls every move.
const PARTS = [".offers-card", ".undo-bar", ".end-bar", ".game-view"];

function usable(root) {
  return $$("button, input, select, textarea, a[href], [tabindex]:not([tabindex='-1'])", root)
    .filter((el) => !el.disabled && !el.closest("[hidden]") && el.getClientRects().length);
}

function whereFocus(area) {
  const el = document.activeElement;
  if (!el || !area.contains(el)) return null;
  const part = PARTS.find((sel) => el.closest(sel)) || null;
  const box = part ? el.closest(part) : area;
  const form = el.type === "submit" ? el.closest("form") : null;
  return { key: keyOf(el), group: groupOf(el), part, form: form ? $$("form", box).indexOf(form) : -1,
    formGroup: form ? unnumbered(groupOf(form)) : null };
}

const unnumbered = (heading) => heading === null ? null : heading.replace(/\d+/g, "#");

// The heading of the group of offers a control stands in ("Bob rolls for a beat"): a button of
// the same words under another heading is another move (Ann's "Stopwatch showed 3" kept the focus
// for Bob's roll, and a second Enter rolled his beat for him).
function groupOf(el) {
  const group = el.closest(".offer-group");
  if (!group) return null;
  const heading = $$(".offer-heading", group)[0];
  return heading ? heading.textContent : group.getAttribute("aria-label");
}

function refocus(area, was) {
  const box = was.part && $$(was.part, area)[0];
  const same = usable(area).find((el) => keyOf(el) === was.key && groupOf(el) === was.group);
  const standing = !same && box && was.form >= 0 ? $$("form", box)[was.form] : null;
  const form = standing && unnumbered(groupOf(standing)) === was.formGroup ? standing : null;
  const field = form ? usable(form).find((el) => el.tagName !== "BUTTON") : null;
  const target = same || field || $$("#finish", area)[0] || $$("#offers", area)[0] || $$("#game-title", area)[0];
  target.focus({ preventScroll: true });
  // The new state may stand taller or shorter: what has the focus (for the offers, their first
  // choice) is brought into view, no further. On a phone the offers' choices were left below it.
  const shown = target.id === "offers" ? usable(target)[0] || target : target;
  const rect = shown.getBoundingClientRect();
  if (rect.top < 0 || rect.bottom > window.innerHeight) shown.scrollIntoView({ block: "nearest" });
}

// What the next move waits for, said politely once the table has moved on: focus stays where the
// hands are, and the news reaches a screen reader in words. panel.js says the move itself just
// before the drawing, so the two are one announcement (toast.js joins them): each used to have a
// region of its own, and every move was heard twice.
let toldVersion = null;
function tellNext(game, words) {
  const key = game.id + ":" + game.version;
  if (toldVersion !== null && toldVersion !== key && words) announce(`${sentence(moveWords(game))} ${words}`);
  toldVersion = key;
}

function winnerWords(view) {
  // a game that gives its winners as seats (Star Reporter) is said by their names
  const seat = (w) => (typeof w === "number" && view.players && view.players[w] && view.players[w].name) || w;
  const names = view.winner_names || (view.winner_name ? [view.winner_name] : null) || (view.winners || []).map(seat);
  return names.length ? `${andList(names)} won! Finish to keep the result.` : "The game is over.";
}

// Abandoning asks once more, and can be taken back: "Keep playing" (or Escape) puts the question away.
function abandonButton(ctx) {
  return confirmButton({ id: "abandon", label: "Abandon game…", yes: "Yes, abandon it", no: "No, keep playing",
    ask: () => "Abandon this game? It ends with no winner; its moves stay in the history.",
    disabled: !ctx.canWrite, onYes: () => ctx.abandon() });
}

function keyOf(el) {
  return el.id || el.dataset.offer || el.getAttribute("aria-label") || el.textContent.trim();
}

function numbers(root) {
  const out = new Map();
  for (const el of $$("[data-num]", root)) out.set(el.dataset.num, Number(el.dataset.value));
  return out;
}

const reduced = () => window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

// Every number that changed counts to its new value and shows the difference beside it, so the
// whole table sees who paid whom. A difference stays up for a few seconds even if the screen is
// drawn again meanwhile (the next move of a quick exchange).
const SHOW_FOR = 4000;
const recent = new Map();   // data-num key -> {diff, money, until}

function chipFor(el, diff, money, left) {
  const chip = h("span", { class: "delta " + (diff > 0 ? "up" : "down"), "aria-hidden": "true" }, signed(diff, money));
  chip.style.animationDuration = `${SHOW_FOR}ms`;
  chip.style.animationDelay = `${left - SHOW_FOR}ms`;
  el.after(chip);
  el.classList.add("changed");
  setTimeout(() => { chip.remove(); el.classList.remove("changed"); }, left);
}

export function animate(root, before) {
  const now = performance.now();
  for (const el of $$("[data-num]", root)) {
    const key = el.dataset.num;
    const old = before.get(key);
    const value = Number(el.dataset.value);
    const money = el.dataset.money === "1";
    if (old === undefined || Number.isNaN(old) || Number.isNaN(value) || old === value) {
      const r = recent.get(key);
      if (r && r.until > now && old === value) chipFor(el, r.diff, r.money, r.until - now);
      continue;
    }
    const diff = value - old;
    recent.set(key, { diff, money, until: now + SHOW_FOR });
    chipFor(el, diff, money, SHOW_FOR);
    if (reduced()) continue;
    const start = performance.now();
    const fmt = (v) => money ? dollars(v) : v.toLocaleString("en-US");
    const final = el.textContent;
    const step = (t) => {
      const k = Math.min(1, (t - start) / 700);
      if (!el.isConnected) return;
      if (k >= 1) { el.textContent = final; return; }
      el.textContent = fmt(Math.round(old + diff * (1 - (1 - k) ** 3)));
      requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  }
  for (const [key, r] of recent) if (r.until <= now) recent.delete(key);
}
