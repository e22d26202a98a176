// SCOOP (1956): the bank, each paper's cash and page, the editor's last verdict in big type.

import { andList, dollars, h, num, title, who } from "../dom.js";
import { actionOf, factsOf, playerName } from "../offers.js";

function kind(k) {
  return { three_star: "Three Star", star: "Star" }[k] || title(k);
}

function page(p) {
  const rows = p.page.filter((slot) => slot.spaces > 0 || slot.stories.length).map((slot) => h("li", {
    class: "slot" + (slot.advertisement ? " slot-ad" : "") + (!slot.stories.length ? " is-empty" : slot.stories.length >= slot.spaces ? " is-filled" : "") },
  h("span", { class: "slot-name" }, slot.advertisement ? kind(slot.name) + " (ad)" : kind(slot.name)),
  h("span", { class: "slot-fill" }, `${slot.stories.length}/${slot.spaces}`),
  slot.stories.length ? h("span", { class: "slot-stories" }, slot.stories.map((s) => dollars(s.value)).join(" · ")) : null));
  return h("ul", { class: "page", "aria-label": p.name + "'s page" }, rows);
}

function paper(p, view) {
  const turn = view.turn === p.seat && !view.winners;
  const won = (view.winners || []).includes(p.seat);
  return h("article", { class: "paper" + (turn ? " is-turn" : "") + (p.out ? " is-out" : "") + (won ? " is-winner" : ""),
    "aria-label": `${p.name}'s paper` },
  h("header", { class: "paper-head" }, who(p.name, p.colour),
    turn ? h("span", { class: "tag tag-turn" }, "to play") : null,
    p.out ? h("span", { class: "tag" }, "dropped out") : null,
    won ? h("span", { class: "tag tag-win" }, "winner") : null,
    p.page_full ? h("span", { class: "tag" }, "page full") : null),
  h("p", { class: "cash" }, h("span", { class: "sr-only" }, "Cash "), num("cash:" + p.account, p.cash, true)),
  h("p", { class: "muted small" }, "Stories ", num("stories:" + p.account, p.stories_value, true),
    p.unsold_value ? [" · unsold ", num("unsold:" + p.account, p.unsold_value, true)] : null,
    " · worth ", num("worth:" + p.account, p.worth, true)),
  page(p),
  p.reserve_spaces ? h("p", { class: "small muted" }, "Reserve: " + p.reserve_spaces.map((n, i) => `space ${i + 1} ${n}/${p.reserve_space_most}`).join(" · ")) : null,
  p.kept && p.kept.length ? h("p", { class: "small muted" }, "Kept: ", p.kept.map((s) => `${kind(s.kind)} ${dollars(s.value)}`).join(", ")) : null);
}

// What comes next once a paper has gone to press: the verdict's own instruction ("Either take
// your story or go to press") was no longer true. The game is over; every paper counts up its
// money and stories ("All players immediately add ...") and the highest total wins.
function instructionOf(view, v) {
  const press = view.press;
  if (!press) return v.instruction;
  const name = playerName(view, press.player);
  const went = {
    full_page: `${name}'s page is full: it has gone to press and the game is over.`,
    last_paper: `${name}'s is the last paper left: the game is over.`,
  }[press.how] || `${name} went to press: the game is over.`;
  const won = (view.winner_names || []).length ? ` ${andList(view.winner_names)} won, counting money and stories.` : "";
  return went + won;
}

// What the sidebar's "The editor says" shows for this game now, or null to keep the last verdict:
// a claim waiting for its call, or the verdict in force (dialed or entered by hand).
export function callInProgress(view) {
  if (!view) return null;
  const claim = view.claim;
  const v = view.verdict;
  const whose = claim ? `${playerName(view, claim.player)}'s ${kind(claim.story_type)} story` : "";
  if (v) return { signal: v.signal, message: v.message, instruction: instructionOf(view, v), meta: whose ? `On ${whose}` : "", waiting: false };
  if (claim) return { signal: "Calling…", message: `${playerName(view, claim.player)} claims a ${kind(claim.story_type)} story: dial the editor.`,
    instruction: "", meta: "", waiting: true };
  return null;
}

// The last verdict stays in big type after the turn moves on (the view's "verdict" is only the
// pending one; its "last_verdict" the newest the game took, a refusal entered by hand included).
let remembered = null;
let rememberedNumber = null;
function rememberVerdict(v, said) {
  if (v && v.signal) remembered = { signal: v.signal, message: v.message, said: said || remembered?.said || "" };
}

function claimWords(view, v) {
  return typeof v.player === "number" ? `${playerName(view, v.player)}'s ${kind(v.story_type)} story` : "";
}

// What the sidebar's "The editor says" shows once a call is over with no verdict pending (a
// refusal ends the call at once): the game's newest verdict, or null.
export function lastVerdict(view) {
  const v = view && view.last_verdict;
  if (!v) return null;
  const whose = claimWords(view, v);
  return { signal: v.signal, message: v.message, instruction: v.instruction, meta: whose ? `On ${whose}` : "", waiting: false };
}

// The panel's oracle hook: the editor's verdicts as the phone gives them ({verdict, said}).
export function onOracle(kind, data) {
  if (kind === "editor") rememberVerdict(data.verdict, data.said);
}

// A new game forgets the last one's verdict: a fresh game showing "Last verdict OK" would tell the
// table a call was made in it.
export function forgetOracles() {
  remembered = null;
  rememberedNumber = null;
}

export function render(view) {
  const v = view.verdict;
  const claim = view.claim;
  if (v && claim) rememberVerdict(v, `${playerName(view, claim.player)}'s ${kind(claim.story_type)} story`);
  const last = view.last_verdict;
  if (!v && last && last.number !== rememberedNumber) {      // a verdict the game took since the last draw
    rememberedNumber = last.number;
    rememberVerdict(last, claimWords(view, last));
  }
  const verdict = h("section", { class: "verdict-box", "aria-label": "The editor's verdict" },
    v ? [h("p", { class: "signal" }, v.signal), h("p", { class: "message" }, v.message),
      h("p", { class: "instruction" }, instructionOf(view, v))]
      : claim ? [h("p", { class: "signal signal-wait" }, "Calling…"),
        h("p", { class: "message" }, `${playerName(view, claim.player)} claims a ${kind(claim.story_type)} story: dial the editor.`)]
        : remembered ? [h("p", { class: "small muted" }, "Last verdict" + (remembered.said ? " (" + remembered.said + ")" : "")),
          h("p", { class: "signal signal-last" }, remembered.signal), h("p", { class: "message" }, remembered.message)]
          : [h("p", { class: "signal signal-wait" }, "—"), h("p", { class: "message" }, "No call yet: claim a story, then dial the editor.")]);
  const bank = h("p", { class: "bank" }, "The bank has paid out ", num("bank", -view.bank, true),
    view.money_total !== 0 ? h("strong", { class: "warn" }, ` (money doesn't add up: ${dollars(view.money_total)})`) : null);
  const sale = view.sale ? h("p", { class: "notice" },
    `${view.sale.seller_name}'s ${view.sale.story.words} is for sale at ${dollars(view.sale.price)}` +
    (view.sale.asking_name ? ` — ${view.sale.asking_name} is asked.` : ".")) : null;
  const debts = (view.debts || []).map((d) => h("p", { class: "notice notice-bad" }, `${d.name} is bankrupt: owes ${dollars(d.owes)}.`));
  const press = !view.press ? null : h("p", { class: "notice" }, view.press.bonus === false
    ? `${playerName(view, view.press.player)}'s is the last paper left: the game ended, with no bonus.`
    : `${playerName(view, view.press.player)} went to press.`);
  return h("div", { class: "scoop1956" }, verdict, bank, sale, debts, press,
    h("div", { class: "papers" }, view.players.map((p) => paper(p, view))));
}

export function label(offer, view) {
  const name = playerName(view, offer.player);
  const price = (view.prices && view.prices.card) || 100;
  switch (offer.type) {
    case "claim": return `Claim a ${kind(offer.story_type)} story`;
    case "advertise": return offer.ad_type === "advertisement" ? "Place an advertisement" : `Place a ${kind(offer.ad_type)} ad`;
    case "reserve": return `${offer.cards} card${offer.cards > 1 ? "s" : ""} to ${offer.space === "both" ? "the reserve, one on each space"
      : offer.space ? "reserve space " + offer.space : "the reserve"} (${dollars(price * offer.cards)})`;
    case "exchange": return "Exchange a card";
    // the phone's window shows; a screen reader hears the message too ("X" alone says nothing)
    case "verdict": return [offer.signal, h("span", { class: "sr-only" }, ": " + ((view.signals || {})[offer.signal] || ""))];
    case "lines_down": return `${name} calls Lines Down`;
    case "place": return offer.slot === "three_star" ? "Take a Three Star story" : `Take the ${kind(offer.slot)} story`;
    case "go_to_press": return `${name} goes to press!`;
    case "buy": return `${name} buys it`;
    case "pass": return `${name} passes`;
    case "sell": {
      const p = view.players[offer.player];
      const all = p ? p.page.flatMap((s) => s.stories).concat(p.kept || []) : [];
      const s = all.find((x) => x.id === offer.story);
      return s ? `Offer the ${s.words} (${dollars(s.value)})` : `Offer story #${offer.story}`;
    }
    case "drop_out": return `${name} drops out`;
    default: return null;
  }
}

export function group(type, offers, view) {
  const name = playerName(view, offers[0].player);
  return {
    claim: `${name}: claim a story`,
    advertise: `${name}: advertise (three cards, no call)`,
    reserve: `${name}: play to the reserve`,
    exchange: `${name}: exchange`,
    verdict: "No phone at hand? Enter the editor's signal",
    lines_down: "Block the call",
    place: `${name}: enter the printed value`,
    go_to_press: "Or end the game",
    buy: view.sale ? `Buy the ${view.sale.story.words}?` : "Buy the story?",
    pass: null,
    sell: `${name}: sell a story or advertisement`,
    drop_out: null,
  }[type] ?? null;
}

// Where a story's or an advertisement's three cards come from, as the engine's "choices" give the
// ways the page can make them: all from the hand, the rest from the player's own reserve space,
// or captured with a SCOOP card from another player's.
function wayWords(way, view) {
  const k = way.cards_from_hand;
  if (!way.space) return "All from the hand";
  const used = view.story_cards - k;
  const cards = `${used} card${used > 1 ? "s" : ""}`;
  if (typeof way.scooped_from !== "number") return `${k} from the hand + ${cards} from reserve space ${way.space}`;
  return `SCOOP ${cards} from ${playerName(view, way.scooped_from)}'s space ${way.space} + ${k} from the hand`;
}

// A way in short, as the closed drop-down shows it: a phone's width holds about 30 characters of
// it, and "SCOOP 2 cards from Annabelle's space 1 + 1 from the hand" was cut off there. What tells
// the ways apart leads (SCOOP or not, how many, whose space); the hand gives the rest of the
// three, said in the whole words under the drop-down.
function wayLabel(way, view) {
  if (!way.space) return "All from the hand";
  const used = view.story_cards - way.cards_from_hand;
  if (typeof way.scooped_from !== "number") return `${used} from reserve space ${way.space}`;
  return `SCOOP ${used} of ${playerName(view, way.scooped_from)}'s space ${way.space}`;
}

// A claim or an ad while a reserve holds cards: which way its cards come from (all from the hand
// is first, the default), the ad's printed value, and the button; the box's refusal under it.
export function form(offer, view, act, text) {
  if ((offer.type !== "claim" && offer.type !== "advertise") || !Array.isArray(offer.choices)) return null;
  const uid = Math.random().toString(36).slice(2);
  // the way chosen, in its whole words under the drop-down (which shows it in short): for the eye,
  // and the drop-down's description, so a screen reader hears them once, with the short words
  const chosen = h("span", { id: "way-" + uid, class: "choice-words", "aria-hidden": "true", hidden: true });
  const from = h("select", { id: "from-" + uid, name: "from", class: "field-input", "aria-describedby": chosen.id },
    offer.choices.map((way, i) => h("option", { value: String(i) }, wayLabel(way, view))));
  const sayChosen = () => {
    const i = Number(from.value);
    chosen.textContent = i ? wayWords(offer.choices[i], view) : "";
    chosen.hidden = !i;
  };
  from.addEventListener("change", sayChosen);
  const fields = [h("label", { for: from.id, class: "field" }, h("span", { class: "field-label" }, "Cards"), from, chosen)];
  const asks = (offer.enter || []).includes("value");
  const bound = factsOf(view).numbers.value;
  const value = asks ? h("input", { id: "value-" + uid, name: "value", type: "number", inputmode: "numeric", step: "1", required: true,
    class: "field-input", min: bound ? String(bound.minimum) : "1", max: bound ? String(bound.maximum) : null, placeholder: "e.g. 500" }) : null;
  if (value) fields.unshift(h("label", { for: value.id, class: "field" }, h("span", { class: "field-label" }, (bound && bound.label) || "Value"), value));
  const problem = h("p", { class: "error field-problem", id: "p-" + uid, hidden: true });
  const f = h("form", { class: "offer-form scoop-cards", novalidate: true, "aria-label": text }, ...fields,
    h("button", { type: "submit", class: "offer" }, text), problem);
  f.addEventListener("submit", async (e) => {
    e.preventDefault();
    problem.hidden = true;
    const extra = Object.assign({}, offer.choices[Number(from.value)]);
    if (value) {
      const raw = value.value.trim();
      extra.value = /^-?\d{1,16}$/.test(raw) ? Number(raw) : raw;
    }
    const r = await act(actionOf(offer, extra));
    if (r && r.refused && f.isConnected) {
      problem.textContent = r.refused;
      problem.hidden = false;
    }
  });
  return f;
}
