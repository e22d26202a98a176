// The Workbench: the guided bring-up checklist and the dial tester. Polls /api/workbench twice
// a second (the box ticks steps and measures digits itself); each digit shows its numbers, its
// pulse train as an SVG drawn by the box, and a link to download its recording as a trace file.
// The steps only a person can sense (the bell, the dial tone) show what newsdesk sent and ask the
// builder; the refresh redraws only what changed, so a button under a finger or a field being
// typed in is never replaced, and a refusal stays until the builder acts again. What newsdesk sent
// is said to a screen reader too, with where the question waits; the focus stays where it was, as
// it does when the handset is hung up: a second Enter on "Ring the bell" rings again, where a
// focus moved to "It rang" would answer before the bell was heard.

import "./panel.js";
import { $, $$, bootData, fill, h } from "./dom.js";
import { getJSON, send } from "./api.js";
import { announce } from "./toast.js";

const boot = bootData();
const HINT_AFTER = 15000;   // ms a step may wait before its hint shows
let hintsFrom = Date.now();  // the wait's start: the page opened, or the checklist started again
let wasFresh = null;         // the checklist as last drawn had nothing done, sent or answered
const sentCount = {};        // builder step id -> how many times newsdesk had done it, as last drawn
let standard = (boot.state && boot.state.standard) || "bell";
let lastDigits = "";
let lastSteps = "";
let nameDirty = false;      // the builder has typed in the Phone field: the refresh leaves it alone

// A message in one of the page's error lines: "#wb-error" (the page can't be read; the next good
// read clears it), "#action-error" and "#profile-error" (a refusal; the builder's next try clears it).
function say(sel, text) {
  const el = $(sel);
  el.hidden = !text;
  el.textContent = text || "";
}

function clock(at) {
  return new Date(at * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

// A step only the builder can tick: what newsdesk did, and the two answers.
function builderStep(s, waited) {
  if (s.blocked) return h("p", { class: "small step-blocked" }, s.blocked);
  const out = [];
  if (s.sent) out.push(h("p", { class: "small sent" }, `At ${clock(s.sent.at)} ${s.sent.what}.`));
  if (s.sent && !s.seen) {
    out.push(h("div", { class: "wb-answer", role: "group", "aria-label": s.title + ": did it work?" },
      h("button", { type: "button", class: "wb-yes", "data-confirm": s.id, "data-happened": "true" }, s.ask[0]),
      h("button", { type: "button", class: "wb-no", "data-confirm": s.id, "data-happened": "false" }, s.ask[1])));
  }
  if (s.seen) out.push(h("p", { class: "small muted" }, `You confirmed it at ${clock(s.at)}.`));
  if (!s.seen && s.hint) {
    const failed = s.answer === "no";
    out.push(h("p", { class: failed ? "small hint failed" : "small muted hint", hidden: !(failed || waited) }, s.hint));
  }
  return out;
}

// The wiring hints wait again from now, as when the page opened: a step not yet tried has no advice.
function restartHints() {
  hintsFrom = Date.now();
}

// A checklist started again (here or on another screen) is as new as a page just opened.
function noticeStartAgain(list) {
  const fresh = list.every((s) => !s.seen && !s.sent && !s.answer);
  if (fresh && wasFresh === false) restartHints();
  wasFresh = fresh;
}

// Said when newsdesk newly does a step only the builder can sense (not at load): the sentence the
// step shows appears silently, and the answers wait under it.
function tellSent(list) {
  for (const s of list) {
    if (s.check !== "builder") continue;
    const count = s.sent ? s.sent.count : 0;
    if (s.id in sentCount && count > sentCount[s.id]) {
      const what = s.sent.what + ".";     // newsdesk's name stays small, as the step shows it
      announce(s.seen ? what : `${what} Did it work? Answer under "${s.title}": ${s.ask[0]}, or ${s.ask[1]}.`);
    }
    sentCount[s.id] = count;
  }
}

function steps(list) {
  noticeStartAgain(list);
  tellSent(list);
  const waited = Date.now() - hintsFrom > HINT_AFTER;
  const key = JSON.stringify(list) + waited;
  if (key === lastSteps) return;
  lastSteps = key;
  const active = document.activeElement;
  const focused = active && active.closest("#steps li");
  const button = focused && active.dataset.confirm ? `[data-confirm="${active.dataset.confirm}"][data-happened="${active.dataset.happened}"]` : null;
  fill($("#steps"), list.map((s) => h("li", { class: s.seen ? "step seen" : "step", id: "step-" + s.id, tabindex: "-1" },
    h("span", { class: "tick", "aria-hidden": "true" }, s.seen ? "✔" : "○"), " ",
    h("span", { class: "step-title" }, s.title), s.seen ? h("span", { class: "sr-only" }, " (done)") : null,
    s.check === "builder" ? builderStep(s, waited) :
      !s.seen && s.hint ? h("p", { class: "small muted hint", hidden: !waited }, s.hint) : null)));
  if (focused) {       // redrawn: keep the keyboard on the same button, or its step if the answer took it away
    const again = (button && $(button)) || $("#" + focused.id);
    if (again) again.focus();
  }
}

function num(x, digits = 1, unit = "") {
  return typeof x === "number" ? x.toFixed(digits) + unit : "—";
}

function digit(d) {
  const verdict = d.passed === true ? "PASS" : d.passed === false ? "FAIL" : "—";
  return h("article", { class: "digit-test", id: "digit-" + d.id },
    h("h3", {}, `Digit ${d.digit}: ${d.pulses} pulse${d.pulses === 1 ? "" : "s"} `,
      h("span", { class: d.passed === false ? "verdict bad" : "verdict" }, verdict)),
    h("dl", { class: "figures" },
      h("dt", {}, "Speed"), h("dd", {}, num(d.pps, 2, " pps")),
      h("dt", {}, "Break"), h("dd", {}, num(d.break_pct, 0, " %")),
      h("dt", {}, "Along the train"), h("dd", {}, d.pps_min === null ? "—" :
        `${num(d.pps_min, 2)}–${num(d.pps_max, 2)} pps (${num(d.spread_pct, 0, " %")})`),
      h("dt", {}, "First pulse"), h("dd", {}, `${num(d.first_pps, 2, " pps")}, ${num(d.first_break_pct, 0, " % break")}`),
      h("dt", {}, "Decided"), h("dd", {}, `${num(d.latency_ms, 0, " ms")} after the last pulse`)),
    h("p", { class: "small" }, d.notes.join("; ")),
    h("img", { class: "logic", src: `/api/workbench/digit/${d.id}.svg`, alt: `The pulse train of digit ${d.digit}: ` +
      `breaks ${d.breaks_ms.join(", ")} ms, makes ${d.makes_ms.join(", ")} ms`, loading: "lazy" }),
    h("p", { class: "small" }, h("a", { class: "action-link", href: `/api/workbench/digit/${d.id}.csv`, download: "" },
      "Download the recording (dial trace)")));
}

function tester(state) {
  const sel = $("#standard");
  if (!sel.options.length) {
    for (const [name, s] of Object.entries(state.standards)) sel.append(h("option", { value: name }, s.title));
    sel.value = standard;
  }
  const s = state.standards[standard];
  $("#limits").textContent = `pass: ${s.pps[0]}–${s.pps[1]} pps` + (s.adjust ? ` (adjusted to ${s.adjust[0]}–${s.adjust[1]})` : "") +
    `, ${s.break_pct[0]}–${s.break_pct[1]} % break`;
  const key = JSON.stringify(state.digits);
  if (key !== lastDigits) {
    lastDigits = key;
    fill($("#digits"), state.digits.length ? state.digits.map(digit) :
      h("p", { class: "muted" }, "No digit dialed yet: lift the handset and dial a 0."));
  }
  const name = $("#profile-name");
  if (!nameDirty && document.activeElement !== name) name.value = state.profile_name;
  const p = state.profile;
  $("#profile").textContent = p ? `${state.profile_name}: ${p.pps} pps, ${p.break_pct} % break (kept ${p.updated}); ` +
    "the decoder starts from it" : `No profile kept for ${state.profile_name} yet.`;
}

async function refresh() {
  try {
    const state = await getJSON(`/api/workbench?standard=${encodeURIComponent(standard)}`);
    steps(state.steps);
    tester(state);
    say("#wb-error", "");
  } catch (e) {
    say("#wb-error", `The workbench can't be read: ${e.message}`);
  }
}

// POST an action; its refusal goes in ``where`` and stays there until the next try. ``done``: what
// the page changes once it went through, before it reads the box again.
async function act(url, body, where = "#action-error", done = null) {
  const r = await send(url, body || {}, { key: null });
  say(where, r.ok ? "" : r.data.message);
  if (r.ok && done) done();
  refresh();
  return r;
}

const SIM = {
  lift: ["/api/sim/hook", { state: "off" }],
  hangup: ["/api/sim/hook", { state: "on" }],
  dice: ["/api/oracles/sim/dice", {}],
  stopwatch: ["/api/oracles/sim/stopwatch", {}],
};
for (let d = 0; d <= 9; d++) SIM["dial" + d] = ["/api/sim/dial", { digit: d }];

async function keep() {
  const name = $("#profile-name");
  const r = await act("/api/workbench/profile", { name: name.value, standard }, "#profile-error");
  name.setAttribute("aria-invalid", r.ok ? "false" : "true");
}

$("#ring").addEventListener("click", () => act("/api/workbench/ring"));
$("#reset").addEventListener("click", () => act("/api/workbench/bringup/reset", {}, "#action-error", restartHints));
$("#steps").addEventListener("click", (e) => {
  const b = e.target.closest("[data-confirm]");
  if (b) act("/api/workbench/bringup/confirm", { step: b.dataset.confirm, happened: b.dataset.happened === "true" });
});
$("#keep").addEventListener("click", keep);
$("#profile-name").addEventListener("input", (e) => {
  nameDirty = true;
  say("#profile-error", "");
  e.target.removeAttribute("aria-invalid");
});
$("#profile-name").addEventListener("keydown", (e) => { if (e.key === "Enter") keep(); });
$("#standard").addEventListener("change", (e) => { standard = e.target.value; lastDigits = ""; refresh(); });
if (boot.virtualPhone) {
  $("#virtual").hidden = false;
  for (const b of $$("[data-sim]")) b.addEventListener("click", () => act(...SIM[b.dataset.sim]));
}
if (boot.state) { steps(boot.state.steps); tester(boot.state); }
setInterval(refresh, 500);
