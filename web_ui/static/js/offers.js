// The offers an engine makes, as one big button each (or a small form when the offer needs
// something entered: a printed value, a SCAN hand, the cards turned up). Each game's component
// may label an offer, title a group of them, or supply its own form.

import { bootData, h, title, words } from "./dom.js";
import { announce } from "./toast.js";

// how to ask, not part of the move: the fields to enter, what the dice must show, the picks for a
// field, a field's own words (an offer's "labels" win over the game's panel facts: each of Star
// Reporter's Disasters asks for the points on its own card)
const PRESENTATION = new Set(["enter", "needs", "choices", "labels"]);
const NUMBERS = new Set(["value", "points", "card", "cards", "amount"]);   // for a game that declares none
// the longest text an offer's field takes: the engines' TEXT_MOST, sent with the page (none: the box refuses)
const TEXT_MOST = bootData().textMost || null;

// Each game's panel facts from the catalogue (its game's declared panel facts): the bounds and
// labels of the numbers its offers ask for, the words for its text fields.
let FACTS = {};
export function knowGames(catalogue) {
  FACTS = {};
  for (const g of catalogue || []) if (g && g.panel) FACTS[g.name] = g.panel;
}
export function factsOf(view) {
  const f = FACTS[view && view.game] || {};
  return { numbers: f.numbers || {}, words: f.words || {} };
}

// The action an offer stands for: the offer itself minus what only tells the panel how to ask.
export function actionOf(offer, extra) {
  const action = {};
  for (const [k, v] of Object.entries(offer)) if (!PRESENTATION.has(k)) action[k] = v;
  return Object.assign(action, extra || {});
}

// The name of the player in ``seat`` (a seat number) from the view's "players", else "Player N".
export function playerName(view, seat) {
  const p = view && Array.isArray(view.players) ? view.players[seat] : null;
  return p && p.name ? p.name : (typeof seat === "number" ? "Player " + (seat + 1) : "");
}

export function genericLabel(offer, view) {
  const parts = [];
  for (const [k, v] of Object.entries(offer)) {
    if (k === "type" || k === "player" || PRESENTATION.has(k) || typeof v === "object") continue;
    parts.push(`${words(k)} ${v}`);
  }
  const what = title(offer.type) + (parts.length ? ": " + parts.join(", ") : "");
  return typeof offer.player === "number" ? `${playerName(view, offer.player)} — ${what}` : what;
}

function enterForm(offer, label, act, facts) {
  const fields = offer.enter.map((name) => {
    const id = "f-" + Math.random().toString(36).slice(2);
    const bound = facts.numbers[name];
    const numeric = Boolean(bound) || NUMBERS.has(name);
    const choices = offer.choices && Array.isArray(offer.choices[name]) ? offer.choices[name] : null;
    const input = choices
      ? h("select", { id, name, required: true, class: "field-input" }, choices.map((c) => h("option", { value: c }, c)))
      : numeric
      ? h("input", { id, name, type: "number", inputmode: "numeric", step: "1", required: true, class: "field-input",
        min: bound ? String(bound.minimum) : "1", max: bound ? String(bound.maximum) : null,
        placeholder: name === "value" && (!bound || bound.maximum > 9) ? "e.g. 500" : "" })
      : h("input", { id, name, type: "text", required: true, maxlength: TEXT_MOST && String(TEXT_MOST), class: "field-input field-text", autocomplete: "off" });
    const own = offer.labels && typeof offer.labels[name] === "string" ? offer.labels[name] : "";
    const words = own || (bound && bound.label) || facts.words[name] || title(name);
    return h("label", { for: id, class: "field" }, h("span", { class: "field-label" }, words), input);
  });
  // novalidate: a number out of its range gets the box's own sentence beside the field, not only
  // the browser's bubble; the form checks first which field is out (to mark it), then asks the box
  const problem = h("p", { class: "error field-problem", id: "p-" + Math.random().toString(36).slice(2), hidden: true });
  // what the dice must show for it is said on its button, as on a button with no fields
  const form = h("form", { class: "offer-form", novalidate: true }, ...fields,
    h("button", { type: "submit", class: "offer" }, offer.needs ? [h("span", null, label), h("span", { class: "offer-needs" }, offer.needs)] : label),
    problem);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const extra = {};
    const inputs = offer.enter.map((name) => form.elements[name]);
    for (const input of inputs) { input.removeAttribute("aria-invalid"); input.removeAttribute("aria-describedby"); }
    problem.hidden = true;
    for (const name of offer.enter) {
      const raw = form.elements[name].value.trim();
      const numeric = Boolean(facts.numbers[name]) || NUMBERS.has(name);
      extra[name] = numeric && /^-?\d{1,16}$/.test(raw) ? Number(raw) : raw;
    }
    const wrong = inputs.find((input) => !input.checkValidity()) || (inputs.length === 1 ? inputs[0] : null);
    // the box's sentence is shown here once, under the form, not as a toast too
    const r = await act(actionOf(offer, extra), { showsRefusal: true });
    if (r && r.refused && form.isConnected) {
      problem.textContent = r.refused;
      problem.hidden = false;
      if (wrong) {
        wrong.setAttribute("aria-invalid", "true");
        wrong.setAttribute("aria-describedby", problem.id);
        wrong.focus();          // the field says the sentence (described by it)
      } else {
        announce(r.refused, true);
      }
    }
  });
  return form;
}

// A game screen's own hook, called so that one that throws (a plug-in's bug) costs its own words
// or form, never the offers, Undo or Abandon: null, and the generic label or button stands in.
export function guarded(call) {
  try {
    return call();
  } catch (err) {
    console.error(err);
    return null;
  }
}

// ``component``: {label(offer, view), group(type, offers, view), form(offer, view, act)} (all optional).
export function renderOffers(offers, view, component, act) {
  const box = h("div", { class: "offers" });
  if (!offers || !offers.length) {
    box.append(h("p", { class: "muted" }, view && view.result && view.result.over ? "The game is over: Finish below keeps the result."
      : "Nothing to do on the panel right now."));
    return box;
  }
  const groups = new Map();
  for (const offer of offers) {
    if (!groups.has(offer.type)) groups.set(offer.type, []);
    groups.get(offer.type).push(offer);
  }
  let n = 0;
  let before = { heading: null, id: null };   // the group before: one headed the same continues it
  for (const [type, list] of groups) {
    const heading = (component.group && guarded(() => component.group(type, list, view))) || null;
    const goesOn = heading !== null && heading === before.heading;
    const id = goesOn ? before.id : "offers-" + type + "-" + n++;
    const section = h("div", { class: "offer-group" + (list.length > 4 ? " offer-grid" : ""), role: "group",
      "aria-labelledby": heading ? id : null, "aria-label": heading ? null : title(type) });
    if (heading && !goesOn) section.append(h("h3", { id, class: "offer-heading" }, heading));
    before = { heading, id };
    for (const offer of list) {
      const label = (component.label && guarded(() => component.label(offer, view))) || genericLabel(offer, view);
      const custom = component.form && guarded(() => component.form(offer, view, act, label));
      if (offer.needs && !custom && !(offer.enter && offer.enter.length)) {
        section.append(h("button", { type: "button", class: "offer", dataset: { offer: JSON.stringify(actionOf(offer)) },
          onclick: () => act(actionOf(offer)) }, h("span", null, label), h("span", { class: "offer-needs" }, offer.needs)));
        continue;
      }
      if (custom) section.append(custom);
      else if (Array.isArray(offer.enter) && offer.enter.length) section.append(enterForm(offer, label, act, factsOf(view)));
      else {
        section.append(h("button", { type: "button", class: "offer", dataset: { offer: JSON.stringify(actionOf(offer)) },
          onclick: () => act(actionOf(offer)) }, label));
      }
    }
    box.append(section);
  }
  return box;
}
