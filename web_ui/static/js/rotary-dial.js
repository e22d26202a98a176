// <rotary-dial>: the simulated phone's dial. Drag a number round to the finger stop (as on a real
// phone), tap it, or type a digit while the dial has focus; it fires a "dial" event with
// detail.digit. The pulses themselves are made on the server, on the mock GPIO pins.
//
// Each finger hole is a button for everyone, not only for a finger: it takes focus (one tab stop
// for the whole dial, a roving tabindex: the arrow keys move round the holes), and dials on a
// plain click (what a screen reader or voice control sends), Enter or Space. With
// prefers-reduced-motion the wheel does not spin: the digit is dialed all the same.

const NS = "http://www.w3.org/2000/svg";
const DIGITS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 0];
const FIRST_ANGLE = 0;     // degrees, clockwise from 3 o'clock: where the 1 sits
const STEP = 30;           // between finger holes
const STOP_ANGLE = 50;     // the finger stop, between the 1 and the 0, at about 5 o'clock
const SIZE = 280;
const C = SIZE / 2;
const HOLE_R = 21;
const RING_R = 102;

function polar(angle, r) {
  const a = (angle * Math.PI) / 180;
  return [C + r * Math.cos(a), C + r * Math.sin(a)];
}

const reducedMotion = () => Boolean(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
const NEXT_KEYS = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
const POINTER_CLICK_MS = 600;   // a click this soon after a tap or drag is that tap's own: not dialed twice

function el(name, attrs, parent) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

// How far (clockwise) a hole must travel to reach the finger stop.
function travel(digit) {
  const i = DIGITS.indexOf(digit);
  return (STOP_ANGLE - (FIRST_ANGLE - i * STEP) + 360) % 360;
}

class RotaryDial extends HTMLElement {
  connectedCallback() {
    if (this._svg) return;
    this.tabIndex = -1;            // focusable by a script; Tab stops on a hole, the roving one
    this.setAttribute("role", "group");
    if (!this.hasAttribute("aria-label")) this.setAttribute("aria-label", "Rotary dial");
    const svg = el("svg", { viewBox: `0 0 ${SIZE} ${SIZE}`, width: "100%", class: "dial-svg" });
    el("circle", { cx: C, cy: C, r: C - 4, class: "dial-plate" }, svg);
    const wheel = el("g", { class: "dial-wheel" }, svg);
    el("circle", { cx: C, cy: C, r: C - 14, class: "dial-wheel-disc" }, wheel);
    this._holes = new Map();
    for (const [i, d] of DIGITS.entries()) {
      const [x, y] = polar(FIRST_ANGLE - i * STEP, RING_R);
      const hole = el("circle", { cx: x, cy: y, r: HOLE_R, class: "dial-hole", "data-digit": d,
        role: "button", "aria-label": `Dial ${d}`, tabindex: i === 0 ? "0" : "-1" }, wheel);
      hole.addEventListener("click", () => this._click(d));
      this._holes.set(hole, d);
    }
    // The numbers are printed on the plate: they stay put while the finger wheel turns.
    for (const [i, d] of DIGITS.entries()) {
      const [x, y] = polar(FIRST_ANGLE - i * STEP, RING_R);
      const t = el("text", { x, y: y + 8, class: "dial-number", "text-anchor": "middle", "aria-hidden": "true" }, svg);
      t.textContent = String(d);
    }
    el("circle", { cx: C, cy: C, r: 44, class: "dial-centre" }, svg);
    const label = el("text", { x: C, y: C + 7, class: "dial-centre-text", "text-anchor": "middle" }, svg);
    label.textContent = "EDITOR";
    const [sx, sy] = polar(STOP_ANGLE, RING_R + 8);
    const [ex, ey] = polar(STOP_ANGLE, C - 2);
    el("line", { x1: sx, y1: sy, x2: ex, y2: ey, class: "dial-stop" }, svg);
    this.appendChild(svg);
    this._svg = svg;
    this._wheel = wheel;
    this._busy = false;

    svg.addEventListener("pointerdown", (e) => this._down(e));
    svg.addEventListener("pointermove", (e) => this._move(e));
    svg.addEventListener("pointerup", (e) => this._up(e));
    svg.addEventListener("pointercancel", () => this._cancel());
    this.addEventListener("keydown", (e) => this._key(e));
  }

  _holeOf(digit) {
    for (const [hole, d] of this._holes) if (d === digit) return hole;
    return null;
  }

  // The roving tabindex: the hole last used (or moved to) is the dial's one tab stop.
  _rove(digit, focus) {
    for (const [hole, d] of this._holes) hole.setAttribute("tabindex", d === digit ? "0" : "-1");
    if (focus) this._holeOf(digit).focus();
  }

  _key(e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const digit = this._holes.get(e.target);
    if (/^[0-9]$/.test(e.key)) {
      e.preventDefault();
      this._rove(Number(e.key), digit !== undefined);
      this.dial(Number(e.key));
    } else if (digit !== undefined && (e.key === "Enter" || e.key === " ")) {
      e.preventDefault();
      this.dial(digit);
    } else if (digit !== undefined && (e.key in NEXT_KEYS || e.key === "Home" || e.key === "End")) {
      e.preventDefault();
      const i = DIGITS.indexOf(digit);
      const to = e.key === "Home" ? 0 : e.key === "End" ? DIGITS.length - 1
        : (i + NEXT_KEYS[e.key] + DIGITS.length) % DIGITS.length;
      this._rove(DIGITS[to], true);
    }
  }

  // A click with no tap or drag just before it: a screen reader, voice control or a script.
  _click(digit) {
    if (performance.now() - (this._pointerAt || -Infinity) < POINTER_CLICK_MS) return;
    this._rove(digit, false);
    this.dial(digit);
  }

  _angleOf(e) {
    const box = this._svg.getBoundingClientRect();
    const x = ((e.clientX - box.left) / box.width) * SIZE - C;
    const y = ((e.clientY - box.top) / box.height) * SIZE - C;
    return (Math.atan2(y, x) * 180) / Math.PI;
  }

  _down(e) {
    const digit = this._holes.get(e.target);
    if (digit === undefined || this._busy) return;
    e.preventDefault();
    this._rove(digit, true);
    this._svg.setPointerCapture(e.pointerId);
    this._drag = { digit, start: this._angleOf(e), turned: 0, moved: false };
  }

  _move(e) {
    if (!this._drag) return;
    const a = this._angleOf(e);
    let delta = a - this._drag.start;
    if (delta < -180) delta += 360;
    if (delta > 180) delta -= 360;
    this._drag.start = a;
    const max = travel(this._drag.digit);
    this._drag.turned = Math.min(max, Math.max(0, this._drag.turned + delta));
    if (this._drag.turned > 8) this._drag.moved = true;
    this._rotate(this._drag.turned);
  }

  _up() {
    const drag = this._drag;
    this._drag = null;
    if (!drag) return;
    this._pointerAt = performance.now();
    const max = travel(drag.digit);
    if (!drag.moved) {
      this.dial(drag.digit);            // a tap
    } else if (drag.turned >= max - 12) {
      this._fire(drag.digit, drag.turned);  // pulled to the stop and let go
    } else {
      this._spring(drag.turned, 0, 250);  // let go early: the dial returns, no digit
    }
  }

  _cancel() {
    if (this._drag) this._spring(this._drag.turned, 0, 250);
    this._drag = null;
  }

  _rotate(deg) {
    this._wheel.setAttribute("transform", `rotate(${deg} ${C} ${C})`);
  }

  _spring(from, to, ms) {
    if (reducedMotion()) { this._rotate(to); return; }
    const start = performance.now();
    const step = (now) => {
      const k = Math.min(1, (now - start) / ms);
      this._rotate(from + (to - from) * k);
      if (k < 1) requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  }

  _fire(digit, from) {
    if (reducedMotion()) {          // no spin: the digit is dialed at once
      this._rotate(0);
      this.dispatchEvent(new CustomEvent("dial", { detail: { digit }, bubbles: true }));
      return;
    }
    this._busy = true;
    // The real dial returns at about 10 pulses a second: one finger-hole step per pulse.
    const ms = Math.max(300, (from / STEP) * 100);
    this._spring(from, 0, ms);
    setTimeout(() => { this._busy = false; }, ms);
    this.dispatchEvent(new CustomEvent("dial", { detail: { digit }, bubbles: true }));
  }

  /** Whether a finger is on the wheel or the wheel is still returning (release.js waits for it). */
  get turning() {
    return Boolean(this._drag) || this._busy;
  }

  /** Dial a digit as if pulled round to the stop (keyboard, a tap, or a script). */
  dial(digit) {
    if (this._busy || !DIGITS.includes(digit)) return;
    const max = travel(digit);
    if (!reducedMotion()) this._rotate(max);
    this._fire(digit, max);
  }
}

customElements.define("rotary-dial", RotaryDial);
