// Short tones for the oracles' results and for moves, made with Web Audio (no sound files).
// Browsers only allow sound after a tap on the page, and the table can turn it off.
//
// An audio context that is running renders all the time, silence included: on a tablet that
// keeps the audio hardware awake and costs a few percent of a core for as long as the page is
// open. So the context is made only when sound is on (at a tap, as browsers ask), and suspended
// once nothing has sounded for REST seconds; a tune resumes it. A page that had a tap may resume
// its context from script (Chromium's and WebKit's rule), so a verdict from the phone still
// sounds on a tablet nobody touched since.

const REST = 2;       // seconds of silence, after the last tune or tap, before the context sleeps

let ctx = null;
let enabled = localStorage.getItem("newsdesk.sound") !== "off";
let restTimer = null;

export function soundOn() { return enabled; }

export function setSound(on) {
  enabled = on;
  localStorage.setItem("newsdesk.sound", on ? "on" : "off");
  if (on) unlock();
  else rest(0);
}

// At a tap: make the context (only a tap may), or wake it; it sleeps again if no tune follows.
export function unlock() {
  if (!enabled) return;
  try {
    const AC = window.AudioContext || window.webkitAudioContext;
    if (!AC) return;
    if (!ctx) ctx = new AC();
    if (ctx.state === "suspended") ctx.resume();
    rest(REST);
  } catch { ctx = null; }
}

// Suspend the context after ``seconds`` more of silence (a later tune or tap puts it off).
function rest(seconds) {
  clearTimeout(restTimer);
  restTimer = setTimeout(() => {
    if (ctx && ctx.state === "running") ctx.suspend();
  }, seconds * 1000);
}

const TUNES = {
  verdict: [[660, 0.12], [880, 0.18]],
  refused: [[330, 0.22]],
  dice: [[520, 0.06], [620, 0.06], [720, 0.1]],
  stopwatch: [[990, 0.08]],
  move: [[440, 0.05]],
  win: [[523, 0.12], [659, 0.12], [784, 0.25]],
};

function sound(name) {
  let t = ctx.currentTime;
  for (const [freq, len] of TUNES[name] || TUNES.move) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, t);
    gain.gain.exponentialRampToValueAtTime(0.2, t + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, t + len);
    osc.connect(gain).connect(ctx.destination);
    osc.start(t);
    osc.stop(t + len + 0.02);
    t += len;
  }
  rest(t - ctx.currentTime + REST);
}

export function play(name) {
  if (!enabled || !ctx) return;
  if (ctx.state === "running") sound(name);
  else if (ctx.state === "suspended") ctx.resume().then(() => sound(name), () => {});
}

window.addEventListener("pointerdown", unlock, { passive: true });
