// Talking to the Pi: reads, and writes that carry an idempotency key (reused on a retry, so a
// move lands once however flaky the Wi-Fi) and the game version the tablet was showing. Every
// write sends X-Newsdesk: 1, which a page on another site can't, so the Pi can refuse those.

export function newKey() {
  if (window.crypto && typeof crypto.randomUUID === "function") {
    try { return crypto.randomUUID(); } catch { /* not a secure context: build one below */ }
  }
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const x = Array.from(b, (v) => v.toString(16).padStart(2, "0")).join("");
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

export async function getJSON(url) {
  const r = await fetch(url, { headers: { Accept: "application/json" }, cache: "no-store" });
  if (!r.ok) throw new Error((await r.json().catch(() => ({}))).message || r.statusText);
  return r.json();
}

const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// POST ``body`` (plus a key) to ``url``; retries on a lost connection with the same key.
// ``key: null`` sends none: a write whose schema has no key field (the phone's and the
// Workbench's): the Pi refuses a field a write's schema doesn't name.
// Resolves to {ok, status, data}; data.message says what went wrong when !ok.
export async function send(url, body, { retries = 3, key = newKey() } = {}) {
  const payload = JSON.stringify(key === null ? Object.assign({}, body) : Object.assign({}, body, { key }));
  for (let attempt = 0; ; attempt++) {
    try {
      const r = await fetch(url, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json", "X-Newsdesk": "1" },
        body: payload,
        credentials: "same-origin",
      });
      if ((r.status === 502 || r.status === 503 || r.status === 504) && attempt < retries) {
        await wait(300 * 2 ** attempt);
        continue;
      }
      const data = await r.json().catch(() => ({ message: r.statusText || "The panel refused that." }));
      return { ok: r.ok, status: r.status, data };
    } catch {
      if (attempt >= retries) {
        return { ok: false, status: 0, data: { message: "The newsdesk can't be reached; check the Wi-Fi, then try again." } };
      }
      await wait(300 * 2 ** attempt);
    }
  }
}
