// Short tones for the oracles' results and for moves, made with Web Audio (no sound files).
// Browsers only allow sound after a tap on the page, and the table can turn it off.

let ctx = null;
let enabled = localStorage.getItem("newsdesk.sound") !== "off";

export function soundOn() { return enabled; }

export function setSound(on) {
  enabled = on;
  localStorage.setItem("newsdesk.sound", on ? "on" : "off");
  if (on) unlock();
}

export function unlock() {
  try {
    const AC = window.AudioContext || window.webkitAudioContext;
    if (!AC) return;
    if (!ctx) ctx = new AC();
    if (ctx.state === "suspended") ctx.resume();
  } catch { ctx = null; }
}

const TUNES = {
  verdict: [[660, 0.12], [880, 0.18]],
  refused: [[330, 0.22]],
  dice: [[520, 0.06], [620, 0.06], [720, 0.1]],
  stopwatch: [[990, 0.08]],
  move: [[440, 0.05]],
  win: [[523, 0.12], [659, 0.12], [784, 0.25]],
};

export function play(name) {
  if (!enabled || !ctx || ctx.state !== "running") return;
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
}

window.addEventListener("pointerdown", () => { if (enabled) unlock(); }, { once: false, passive: true });
