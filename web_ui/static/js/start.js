// Starting a game in under a minute: pick the game (and variant), name 2-6 players with their
// colours (teams for SCAN), and go. The engine checks the rest and says what is wrong.

import { PALETTE, andList, fill, h, title } from "./dom.js";

const REMEMBERED = "newsdesk.players";

function remembered() {
  try {
    const list = JSON.parse(localStorage.getItem(REMEMBERED) || "[]");
    return Array.isArray(list) ? list.filter((p) => p && typeof p.name === "string") : [];
  } catch { return []; }
}

// A choice's words up to their first aside, for its drop-down (cut short there, a long choice was
// a riddle: "0 counts as 0 (the rules' words..."); the whole words are the hint under the field.
// The same cut as the engines' short_words (controller/games/base.py), so a refusal quotes the
// words the drop-down shows.
const ASIDES = [" (", ": ", "; "];
// A mapping part's example as the form takes it typed ("advertisement 2"), from its schema's
// "examples"; a neutral one without.
function examplePart(schema) {
  const example = schema && Array.isArray(schema.examples) ? schema.examples[0] : null;
  if (!example || typeof example !== "object") return "name 2, name 1";
  return Object.entries(example).map(([name, n]) => `${name} ${n}`).join(", ");
}

// The empty choice of a seat option whose default is no seat says what empty means, in the
// label's own words up to their first aside, as every choice is cut ("Who deals (empty: the last
// player; the first plays first)": "— (the last player)"): "— (the default)" said nothing, and
// the whole words were cut off at a phone's width.
function noSeatWords(label) {
  const m = /\(empty: ([^)]*)\)/.exec(label || "");
  return m ? `— (${shortWords(m[1])})` : "— (the default)";
}

// A seat option's label as the form shows it: the engine's "(empty: ...)" is a box's word, and a
// drop-down is never empty: its first choice is "—". "Who deals (empty: the last player ...)"
// left a new table looking for an empty field; it reads "(if nobody is picked: ...)".
function seatLabel(label) {
  return String(label).replace("(empty: ", "(if nobody is picked: ");
}

// [key, value] pairs of ``object`` in the order ``order`` lists its keys (the catalogue's
// variant_order and choice_order: the order the game declares them), else the object's own: a
// browser lists whole-number keys first and sorted, so "501" declared before "301" came second
function inOrder(object, order) {
  const keys = Array.isArray(order) ? order.filter((k) => Object.prototype.hasOwnProperty.call(object, k)) : Object.keys(object);
  return keys.map((k) => [k, object[k]]);
}

export function shortWords(words) {
  let out = String(words);
  for (const aside of ASIDES) out = out.split(aside)[0];
  return out;
}

// An option's label as a refusal names it (base.form_name): without its aside, in quotes.
function formName(label) {
  return "“" + String(label).split(" (")[0].split(": ")[0] + "”";
}

function seatsFor(game, variants) {
  const range = game.players || { min: 2, max: 6 };
  const by = range.by_variant || {};
  for (const v of variants) if (by[v]) return by[v];
  return { min: range.min, max: range.max };
}

// One control per option the game's engine declares (catalogue "options", see games/base.py):
// its label, the rule line it comes from, its default (and whether that is newsdesk's choice).
// read() gives the value to send, or undefined to leave the option to its default.
function optionControl(opt, seatNames) {
  const id = "opt-" + opt.name;
  let input;
  let read;
  let hint = null;
  const dflt = opt.default;
  if (opt.kind === "boolean") {
    input = h("input", { type: "checkbox", id, checked: dflt === true });
    read = () => (input.checked === (dflt === true) ? undefined : input.checked);
  } else if (opt.kind === "choice") {
    // said once: "(default)" after the default's short words, never after "(newsdesk's default)"
    input = h("select", { id, class: "field-input", "aria-describedby": id + "-hint" }, inOrder(opt.choices, opt.choice_order).map(([value, words]) =>
      h("option", { value }, shortWords(words) + (value === dflt ? " (default)" : ""))));
    input.value = dflt;
    read = () => (input.value === dflt ? undefined : input.value);
    hint = h("p", { class: "small option-hint", id: id + "-hint" });
    const explain = () => { hint.textContent = opt.choices[input.value] || ""; };
    input.addEventListener("change", explain);
    explain();
  } else if (opt.kind === "seat") {
    input = h("select", { id, class: "field-input" });
    const fillSeats = () => {
      const keep = input.value;
      // a default seat by its player's name once typed: "Player 1 (the default)" above "Ann" read
      // as two different players
      fill(input, h("option", { value: "" }, dflt === null || dflt === undefined ? noSeatWords(opt.label)
        : `${seatNames()[dflt] || `Player ${dflt + 1}`} (the default)`),
        seatNames().map((name, i) => h("option", { value: String(i) }, name || `Player ${i + 1}`)));
      input.value = keep && Number(keep) < seatNames().length ? keep : "";
    };
    fillSeats();
    input.addEventListener("focus", fillSeats);
    read = () => (input.value === "" ? undefined : Number(input.value));
    input.refresh = fillSeats;
  } else if (opt.kind === "integer" || opt.kind === "minutes") {
    input = h("input", { type: "number", id, class: "field-input limit-input", inputmode: "numeric", step: "1",
      min: String(opt.minimum), max: String(opt.maximum), placeholder: dflt === null || dflt === undefined ? "none" : String(dflt) });
    read = () => {
      const raw = input.value.trim();
      if (!raw) return undefined;
      return /^-?\d{1,9}$/.test(raw) ? Number(raw) : raw;
    };
  } else if (opt.kind === "names") {
    // a box with a line for each name it takes (ten Locations: ten lines), commas welcome too
    const most = Array.isArray(opt.items) ? opt.items[1] : 6;
    input = h("textarea", { id, class: "field-input field-names", autocomplete: "off", rows: String(Math.min(Math.max(most, 2), 10)),
      placeholder: Array.isArray(dflt) ? dflt.join("\n") : "One name a line" });
    read = () => {
      const list = input.value.split(/[\n,]/).map((x) => x.trim()).filter(Boolean);
      return list.length ? list : undefined;
    };
  } else if (opt.kind === "mapping" && opt.schema && opt.schema.properties) {
    // e.g. a page layout: one line per part, "sport 2, crime 2"; each part's placeholder is its
    // schema's own example (the advertisements' box suggested story types); a part whose values
    // are listed is a drop-down of them at its default (the suit on each side of a board)
    const parts = Object.keys(opt.schema.properties).map((key) => {
      const part = opt.schema.properties[key];
      const box = part.enum ? h("select", { id: `${id}-${key}`, class: "field-input field-text" }, part.enum.map((v) => h("option", { value: v }, v)))
        : h("input", { type: "text", id: `${id}-${key}`, class: "field-input field-text", autocomplete: "off", placeholder: examplePart(part) });
      if (part.enum) box.value = part.default;
      return { key, box, part, row: h("div", { class: "option-part" }, h("label", { for: `${id}-${key}`, class: "option-label" }, title(key)), box) };
    });
    input = h("div", { id, class: "option-parts" }, parts.map((p) => p.row));
    read = () => {
      if (parts.every((p) => (p.part.enum ? p.box.value === p.part.default : !p.box.value.trim()))) return undefined;
      const out = {};
      for (const p of parts) {
        if (p.part.enum) {
          out[p.key] = p.box.value;
          continue;
        }
        out[p.key] = {};
        for (const item of p.box.value.split(",").map((x) => x.trim()).filter(Boolean)) {
          const m = item.match(/^(.*?)\s+(\d{1,3})$/);
          out[p.key][m ? m[1] : item] = m ? Number(m[2]) : item;
        }
      }
      return out;
    };
  } else {
    return null;           // not asked on the form (set through the API)
  }
  const said = [];
  if (opt.help) said.push(opt.help);
  if (opt.newsdesk) said.push("The rules are silent here: the default is newsdesk's choice.");
  // a checkbox's label is its whole row, the box in it: a target a finger finds (the box alone was 13 px)
  const label = opt.kind === "boolean" ? h("label", { for: id, class: "option-label check-row" }, input, opt.label)
    : h("label", { for: id, class: "option-label" }, opt.kind === "seat" ? seatLabel(opt.label)
      : opt.label + (opt.kind === "names" ? " (one a line)" : ""));
  const problem = fieldProblem(id);
  const box = h("div", { class: "option field", dataset: { option: opt.name } },
    opt.kind === "boolean" ? label : [label, input], hint, problem,
    h("p", { class: "small muted option-rule" }, "Rules: “", opt.rule, "”", said.length ? " " + said.join(" ") : ""));
  return { opt, box, read, input, problem, name: formName(opt.label) };
}

// The place beside a field where the box's refusal of it is shown, in the box's own sentence.
function fieldProblem(id) {
  return h("p", { class: "error field-problem", id: id + "-problem", hidden: true });
}

function showProblem(entry, message) {
  entry.problem.textContent = message || "";
  entry.problem.hidden = !message;
  const input = entry.input.matches("input, select, textarea") ? entry.input : entry.input.querySelector("input, select, textarea");
  if (!input) return;
  if (message) {
    input.setAttribute("aria-invalid", "true");
    const said = (input.getAttribute("aria-describedby") || "").split(" ").filter((x) => x && x !== entry.problem.id);
    input.setAttribute("aria-describedby", [entry.problem.id, ...said].join(" "));
  } else {
    input.removeAttribute("aria-invalid");
    const said = (input.getAttribute("aria-describedby") || "").split(" ").filter((x) => x && x !== entry.problem.id);
    if (said.length) input.setAttribute("aria-describedby", said.join(" ")); else input.removeAttribute("aria-describedby");
  }
}

// ctx: {start(engine, players, options) -> Promise<bool>, canWrite, lastGame, chose(engine): told the
// game chosen, at first and at each change (the sidebar follows it)}
export function renderStart(area, catalogue, ctx) {
  const games = catalogue.filter((g) => g);
  let chosen = games.find((g) => g.available) || games[0];
  if (!chosen) {
    area.replaceChildren(h("p", { class: "card" }, "No games are installed on this newsdesk."));
    return;
  }
  const rows = [];
  const seed = remembered();

  const list = h("div", { class: "game-picks", role: "radiogroup", "aria-labelledby": "pick-h" });
  const variantBox = h("div", { class: "variants" });
  const optionBox = h("div", { class: "options", id: "game-options" });
  let controls = [];
  const playersBox = h("ol", { class: "player-rows" });
  const hint = h("p", { class: "small muted", id: "seat-hint", "aria-live": "polite" });
  const error = h("p", { class: "error", role: "alert", id: "start-error", tabindex: "-1", hidden: true });
  const add = h("button", { type: "button", class: "quiet", id: "add-player", onclick: () => { addRow(); refresh(); rows[rows.length - 1].name.focus(); } }, "+ Add a player");
  const go = h("button", { type: "submit", class: "offer offer-strong", id: "start-game", disabled: !ctx.canWrite }, "Start the game");

  for (const g of games) {
    const id = "pick-" + g.name;
    const radio = h("input", { type: "radio", name: "engine", id, value: g.name, disabled: !g.available, checked: g === chosen });
    radio.addEventListener("change", () => { chosen = g; refresh(true); });
    list.append(h("label", { for: id, class: "pick" + (g.available ? "" : " is-off") }, radio,
      h("span", { class: "pick-title" }, g.title),
      g.available ? null : h("span", { class: "small muted" }, "Not available: " + g.problem)));
  }

  function variantsChosen() {
    return Array.from(variantBox.querySelectorAll("input:checked")).map((i) => i.value).filter(Boolean);
  }

  // The box's sentence about a player's name ("Player 2's name has ...", "Players 1 and 3 are both
  // called Ann ...") marks those names' fields: invalid, described by the sentence, the first focused.
  function namedPlayers(message) {
    const m = /^Players? (\d+)(?: and (\d+))?\b/.exec(message || "");
    return m ? [m[1], m[2]].filter(Boolean).map((n) => Number(n) - 1).filter((i) => i >= 0 && i < rows.length) : [];
  }

  function markTeams(on) {
    for (const r of rows) {
      if (on) {
        r.team.setAttribute("aria-invalid", "true");
        r.team.setAttribute("aria-describedby", "start-error");
      } else {
        r.team.removeAttribute("aria-invalid");
        if (r.team.getAttribute("aria-describedby") === "start-error") r.team.removeAttribute("aria-describedby");
      }
    }
  }

  function markNames(indexes) {
    rows.forEach((r, i) => {
      if (indexes.includes(i)) {
        r.name.setAttribute("aria-invalid", "true");
        r.name.setAttribute("aria-describedby", "start-error");
      } else {
        r.name.removeAttribute("aria-invalid");
        if (r.name.getAttribute("aria-describedby") === "start-error") r.name.removeAttribute("aria-describedby");
      }
    });
  }

  function addRow(p = {}) {
    const n = rows.length;
    const name = h("input", { type: "text", class: "field-input", id: "player-" + n, maxlength: String(ctx.nameMax), autocomplete: "off",
      value: p.name || "", placeholder: "Name", "aria-label": `Player ${n + 1}'s name` });
    const number = h("label", { class: "player-no", for: "player-" + n }, `Player ${n + 1}`);
    const colour = h("select", { class: "field-input", id: "colour-" + n, "aria-label": `Player ${n + 1}'s colour` });
    const team = h("input", { type: "text", class: "field-input team-input", id: "team-" + n, maxlength: String(ctx.nameMax), value: p.team || "",
      placeholder: "Team", "aria-label": `Player ${n + 1}'s team` });
    const remove = h("button", { type: "button", class: "quiet remove", "aria-label": `Remove player ${n + 1}` }, "✕");
    const li = h("li", { class: "player-row" }, number, name, colour, team, remove);
    const row = { li, name, colour, team, number, remove, wanted: p.colour || "" };
    remove.addEventListener("click", () => removeRow(row));
    // seat choices name the players, as each name is typed: at "change" they caught up only when
    // the field lost its focus, and "Who moves first" still offered "Player 1" beside "Ann"
    name.addEventListener("input", () => { for (const c of controls) if (c.input.refresh) c.input.refresh(); });
    rows.push(row);
    playersBox.append(li);
  }

  // The focus goes where the removed row was, not to the page: to the next row's name, the
  // previous row's when it was the last, or "+ Add a player" when no row is left.
  function removeRow(row) {
    const at = rows.indexOf(row);
    rows.splice(at, 1);
    row.li.remove();
    refresh();
    const next = rows[at] || rows[at - 1];
    (next ? next.name : add).focus();
  }

  // Whether the players are given teams: the game has teams, in the variant chosen (its
  // team_variants: some have none), with as many players as are listed (its team_seats: a
  // variant may play in teams with some numbers of players alone).
  function teamsNow() {
    const only = chosen.panel && chosen.panel.team_variants;
    const seats = (chosen.panel && chosen.panel.team_seats) || {};
    const picked = variantsChosen();
    if (!chosen.teams) return false;
    if (!picked.length) return !only;
    return picked.some((v) => (!only || only.includes(v)) && (!Array.isArray(seats[v]) || seats[v].includes(rows.length)));
  }

  // Whether leaving the teams empty has each play alone rather than partners sit opposite: the
  // variant chosen takes teams or none with as many players as are listed (its teams_optional).
  function teamsOptionalNow() {
    const optional = (chosen.panel && chosen.panel.teams_optional) || {};
    const picked = variantsChosen();
    return picked.length > 0 && picked.every((v) => Array.isArray(optional[v]) && optional[v].includes(rows.length));
  }

  function refresh(gameChanged) {
    if (gameChanged) {
      if (ctx.chose) ctx.chose(chosen.name);
      variantBox.replaceChildren();
      const entries = inOrder(chosen.variants || {}, chosen.variant_order);
      if (entries.length) {
        const many = chosen.variant_choice === "many";
        const legend = many ? "Variants (any)" : "Variant";
        // the variant the engine plays when none is sent (its option's declared default), not the
        // first listed: the catalogue's keys may come in any order
        const declared = (chosen.options || []).find((o) => o.name === chosen.variant_option);
        const dflt = declared ? declared.default : null;
        const isDefault = (key) => (Array.isArray(dflt) ? dflt.includes(key) : key === dflt);
        const opts = entries.map(([key, text], i) => {
          const id = `variant-${key}`;
          const input = h("input", { type: many ? "checkbox" : "radio", name: "variant", id, value: key,
            checked: dflt === null || dflt === undefined ? !many && i === 0 : isDefault(key) });
          input.addEventListener("change", () => refresh());
          return h("label", { for: id, class: "variant" }, input, h("span", null, text));
        });
        variantBox.append(h("fieldset", null, h("legend", null, legend), opts));
      }
      const seatNames = () => rows.map((r) => r.name.value.trim());
      controls = (chosen.options || []).filter((o) => o.form && o.name !== chosen.variant_option && o.kind !== "minutes")
        .map((o) => optionControl(o, seatNames)).filter(Boolean);
      optionBox.replaceChildren(...(controls.length ? [h("fieldset", null, h("legend", null, "Options"), controls.map((c) => c.box))] : []));
    }
    const seats = seatsFor(chosen, variantsChosen());
    while (rows.length < seats.min) addRow(seed[rows.length] || {});
    while (rows.length > seats.max) { rows.pop().li.remove(); }
    const palette = chosen.colours || PALETTE;
    rows.forEach((row, i) => {
      const keep = row.colour.value || row.wanted;
      fill(row.colour, h("option", { value: "" }, "Colour…"), palette.map((c) => h("option", { value: c }, title(c))));
      row.colour.value = palette.includes(keep) ? keep : (chosen.colours ? chosen.colours[i] || "" : palette[i] || "");
      row.team.hidden = !teamsNow();
      row.remove.hidden = rows.length <= seats.min;
      // a row's fields and words follow its place: after a removal, the next row added took
      // an id still in use ("player-2" twice), and "Remove player 3" removed player 2
      row.name.id = "player-" + i;
      row.colour.id = "colour-" + i;
      row.team.id = "team-" + i;
      row.remove.setAttribute("aria-label", `Remove player ${i + 1}`);
      row.colour.setAttribute("aria-label", `Player ${i + 1}'s colour`);
      row.team.setAttribute("aria-label", `Player ${i + 1}'s team`);
      row.name.setAttribute("aria-label", `Player ${i + 1}'s name`);
      row.number.textContent = `Player ${i + 1}`;       // "Who deals" offers "Player 2": this is the row it means
      row.number.htmlFor = row.name.id;
    });
    add.hidden = rows.length >= seats.max;
    const picked = variantsChosen();
    for (const c of controls) {
      const own = [].concat(c.opt.variant || []);     // one variant's id, or a list: shown with any of them
      c.box.hidden = own.length > 0 && !own.some((v) => picked.includes(v));
      if (c.input.refresh) c.input.refresh();
    }
    const minutesOpt = timer(chosen);
    const limitOwn = [].concat((minutesOpt && minutesOpt.variant) || []);      // shown with its variants alone, as the others
    limitBox.hidden = !minutesOpt || (limitOwn.length > 0 && !limitOwn.some((v) => picked.includes(v)));
    if (minutesOpt) {
      limit.min = String(minutesOpt.minimum);
      limit.max = String(minutesOpt.maximum);
      limitLabel.textContent = minutesOpt.label + " ";
      limitEntry.name = formName(minutesOpt.label);
    }
    hint.textContent = (seats.min === seats.max ? `${seats.min} player${seats.min > 1 ? "s" : ""}.` : `${seats.min} to ${seats.max} players.`)
      + (teamsNow() ? " Teams: list the players in their seats around the table and give partners the same team name, or leave teams empty ("
        + (teamsOptionalNow() ? "each then plays alone" : "partners sit opposite") + ")." : "");
  }

  // The game's minutes option, which the box above its options stands for (SCAN's time limit).
  const timer = (game) => (game.timed && (game.options || []).find((o) => o.kind === "minutes" && o.form)) || null;

  // A game that can be played against the clock (SCAN): its countdown starts with the game.
  const limit = h("input", { type: "number", id: "time-limit", min: "1", max: "600", step: "1", inputmode: "numeric",
    placeholder: "none", class: "limit-input" });
  const limitLabel = h("label", { for: "time-limit" }, "Time limit in minutes ");
  const limitProblem = fieldProblem("time-limit");
  const limitBox = h("div", { class: "time-limit", hidden: true }, h("p", { class: "field" }, limitLabel, limit), limitProblem);
  const limitEntry = { input: limit, problem: limitProblem, name: "“Time limit in minutes”" };

  // novalidate: a number out of range is not the browser's bubble but the box's sentence, beside
  // the field (the form checks the numbers first, so it knows which field to mark)
  const form = h("form", { class: "card start-card", id: "start-form", "aria-labelledby": "start-h", novalidate: true },
    h("h2", { id: "start-h" }, "New game"),
    ctx.lastGame ? h("p", { class: "small" }, "Last game: ", h("a", { href: `/games/${ctx.lastGame.id}` },
      `${ctx.lastGame.title}, ${ctx.lastGame.winners.length ? andList(ctx.lastGame.winners) + " won" : ctx.lastGame.status}`)) : null,
    ctx.canWrite ? null : h("p", { class: "notice" }, "This device is watching. ", h("a", { href: "/join" }, "Join the table"), " to start a game."),
    h("h3", { id: "pick-h", class: "offer-heading" }, "Which game?"), list, variantBox,
    limitBox, optionBox,
    h("h3", { class: "offer-heading" }, "Who's playing?"), hint, playersBox, add, error, go);
  // Enter in a field of the form never starts the game: the browser submits a form on Enter,
  // and a table typing its names in turn started with half of them, or with a page layout half
  // typed. Enter in a name or a team field goes on to the next of its kind (the table types them
  // in turn), and from the last, or from any other field, to "Start the game" without pressing
  // it. Starting takes the button.
  form.addEventListener("keydown", (e) => {
    const field = e.target;
    if (e.key !== "Enter" || e.isComposing || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    if (field.tagName !== "INPUT" || field.type === "submit" || field.type === "button") return;
    e.preventDefault();
    const kind = rows.find((r) => r.name === field) ? "name" : rows.find((r) => r.team === field) ? "team" : null;
    const after = kind ? rows.slice(rows.findIndex((r) => r[kind] === field) + 1).map((r) => r[kind]).find((x) => !x.hidden) : null;
    (after || go).focus();
  });

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const players = rows.map((r) => ({ name: r.name.value.trim(), colour: r.colour.value || null, team: teamsNow() && r.team.value.trim() ? r.team.value.trim() : null }));
    const empty = players.findIndex((p) => !p.name);
    markNames([]);
    markTeams(false);
    if (empty >= 0) {
      // a row the table may not need (No Trump SCAN keeps Team SCAN's four) says how to drop it
      error.textContent = `Player ${empty + 1} needs a name` + (rows[empty].remove.hidden ? "." : "; if you are fewer, remove the row with its ✕.");
      error.hidden = false;
      markNames([empty]);
      rows[empty].name.focus();
      return;
    }
    const options = {};
    const chosenVariants = variantsChosen();
    if (chosen.variant_option && chosen.variant_choice === "many") options[chosen.variant_option] = chosenVariants;
    else if (chosen.variant_option && chosenVariants.length) options[chosen.variant_option] = chosenVariants[0];
    for (const c of controls) {
      if (c.box.hidden) continue;
      const value = c.read();
      if (value !== undefined) options[c.opt.name] = value;
    }
    const rawLimit = !limitBox.hidden ? limit.value.trim() : "";
    if (rawLimit) {
      const minutes = /^-?\d{1,9}$/.test(rawLimit) ? Number(rawLimit) : rawLimit;
      options[timer(chosen).name] = minutes;         // by the game's own name for it (SCAN's time_limit)
      // a game whose screen counts down (SCAN) declares the countdown's end, and is given it
      const countdown = (chosen.options || []).some((o) => o.name === "ends_at");
      if (countdown && limit.checkValidity() && minutes > 0) options.ends_at = new Date(Date.now() + minutes * 60000).toISOString();
    }
    // the numbers out of their range, found before sending: the box is asked anyway, for its sentence
    const entries = [limitEntry, ...controls].filter((c) => c.problem);
    for (const c of entries) showProblem(c, "");
    const wrong = entries.filter((c) => !(c.box && c.box.hidden) && c.input.matches("input") && !c.input.checkValidity());
    go.disabled = true;
    const message = await ctx.start(chosen.name, players, options);
    go.disabled = !ctx.canWrite;
    if (message) {
      error.textContent = message;
      error.hidden = false;
      // the field the sentence names; a number out of its range only when it names no player
      const named = namedPlayers(message);
      const at = entries.find((c) => message.includes(c.name)) || (named.length ? null : wrong[0]);
      if (at) {
        // the sentence once, beside its field (which the focus then reads out): the alert by the
        // button only points to it, or a screen reader heard it twice
        error.textContent = `The game was not started: see ${at.name} above.`;
        showProblem(at, message);
        (at.input.matches("input, select, textarea") ? at.input : at.input.querySelector("input, select, textarea")).focus();
      } else if (named.length) {
        markNames(named);
        rows[named[0]].name.focus();
      } else if (teamsNow() && /\b(teams?|partners?)\b/i.test(message)) {
        markTeams(true);
        rows[0].team.focus();
      } else {
        error.focus();      // a sentence that names no field: read where the focus is, not lost on the page
      }
    } else {
      localStorage.setItem(REMEMBERED, JSON.stringify(players));
    }
  });
  area.replaceChildren(form);
  refresh(true);
}
