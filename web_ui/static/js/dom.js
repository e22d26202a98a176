// Tiny DOM helpers: build elements without a framework, format money and names the same everywhere.

// An element: h(tag, {attribute: value, class, text, onclick: fn, dataset: {...}}, ...children);
// null, undefined and false children and attributes are skipped.
export function h(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(node.dataset, v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  append(node, children);
  return node;
}

// Appends children (nested arrays flattened, null skipped, anything else as text) and returns the node.
export function append(node, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

// replaceChildren that takes arrays and skips null, like h().
export function fill(node, ...children) {
  node.replaceChildren();
  return append(node, children);
}

export const $ = (sel, root = document) => root.querySelector(sel);
export const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));

// What the page carried at load (its #boot JSON block), or {} on a page without one.
export function bootData() {
  const el = document.getElementById("boot");
  return el ? JSON.parse(el.textContent || "{}") : {};
}

// Money as the panel shows it: "$1,500", "−$200"; "—" for anything but a number.
export function dollars(n) {
  if (typeof n !== "number") return "—";
  const sign = n < 0 ? "−" : "";
  return sign + "$" + Math.abs(n).toLocaleString("en-US");
}

// A change with its sign: "+$500", "−3" (money: true for dollars).
export function signed(n, money) {
  const body = money ? dollars(Math.abs(n)) : Math.abs(n).toLocaleString("en-US");
  return (n > 0 ? "+" : "−") + body;
}

// Names in a sentence, as the engines list them (base.and_list): "Ann", "Ann and Bob",
// "A & D, B & E and C & F".
export function andList(names) {
  return names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

// A name from the rules' JSON as words: underscores as spaces ("go_to_press" -> "go to press").
export function words(text) {
  return String(text ?? "").replace(/_/g, " ");
}

// words(), with a capital first: a heading or a button's words.
export function title(text) {
  const w = words(text);
  return w.charAt(0).toUpperCase() + w.slice(1);
}

// Player colours are always shown with their name in words: the swatch only adds to it.
const COLOURS = {
  red: "#e5484d", blue: "#3e8ef7", green: "#30a46c", yellow: "#f5d90a", white: "#f1efe6",
  black: "#1c1c1f", orange: "#f76b15", purple: "#8e4ec6", pink: "#e93d82", brown: "#a18072",
  grey: "#8b8d98", gray: "#8b8d98",
};
export const PALETTE = ["red", "blue", "green", "yellow", "white", "black", "orange", "purple"];

// A small square of a player's colour (hidden from screen readers: the colour is also in words), or null.
export function swatch(colour) {
  if (!colour) return null;
  const css = COLOURS[String(colour).toLowerCase()];
  return h("span", { class: "swatch", style: css ? `--sw:${css}` : null, "aria-hidden": "true" });
}

// A player as the panel shows one: the swatch, the name, and the colour in words.
export function who(name, colour) {
  return h("span", { class: "who" }, swatch(colour), h("span", { class: "who-name" }, name),
    colour ? h("span", { class: "who-colour" }, "(" + colour + ")") : null);
}

// A number the panel animates when it changes: key names it across renders (e.g. "points:0"), money:
// true shows it as dollars; attrs are more attributes, as h() takes them.
export function num(key, value, money, attrs = {}) {
  return h("span", Object.assign({ class: "num", dataset: { num: key, value: String(value ?? ""), money: money ? "1" : "" } }, attrs),
    money ? dollars(value) : (value ?? "—"));
}

// A button whose move can't be taken back lightly asks once more first (Abandon; SCAN's "Time is
// up" with time left). ``ask()`` says whether to ask now: a sentence (the question, read out with
// the answers), true (ask without one), or false (do it at once). Asking puts the question and
// its two answers in the button's place, the safe answer focused (Enter, Enter keeps the game);
// it, or Escape, puts the question away and the focus back on the button. The safe answer comes
// first in the page (Tab goes from it to the other) and wears its focus ring however the focus
// came (a tap too: panel.css), or the strong-bordered Yes beside it looks like the default.
// opts: {id, label, yes, no, ask(), onYes(), disabled, className, yesClass, box}
export function confirmButton(opts) {
  const question = h(opts.box === "div" ? "p" : "span", { class: "confirm-question", id: opts.id + "-question", hidden: true });
  const asking = (on) => {
    ask.hidden = on;
    confirm.hidden = keep.hidden = !on;
    question.hidden = !on || !question.textContent;
    (on ? keep : ask).focus();      // the safe answer first
  };
  const confirm = h("button", { type: "button", class: opts.yesClass || "danger", id: opts.id + "-yes", hidden: true,
    "aria-describedby": question.id, onclick: () => opts.onYes() }, opts.yes);
  const keep = h("button", { type: "button", class: "quiet confirm-keep", id: opts.id + "-no", hidden: true,
    "aria-describedby": question.id, onclick: () => asking(false) }, opts.no);
  const ask = h("button", { type: "button", class: opts.className || "quiet", id: opts.id, disabled: Boolean(opts.disabled),
    onclick: () => {
      const said = opts.ask ? opts.ask() : true;
      if (!said) { opts.onYes(); return; }
      question.textContent = typeof said === "string" ? said : "";
      asking(true);
    } }, opts.label);
  const box = h(opts.box || "span", { class: "confirm " + (opts.id || "") }, ask, question, keep, confirm);
  box.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && !confirm.hidden) { e.preventDefault(); asking(false); }
  });
  return box;
}
