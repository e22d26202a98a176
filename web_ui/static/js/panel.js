// The panel's live side: one EventSource for every change, and the simulated phone's controls.
// No framework and nothing from the network: this file and rotary-dial.js are all there is.

const boot = window.NEWSDESK || { lastEventId: 0, simulated: false };
const $ = (id) => document.getElementById(id);

function showVerdict(event) {
  const v = event.data;
  const box = $("verdict");
  box.dataset.eventId = event.id;
  $("verdict-signal").textContent = v.signal;
  $("verdict-message").textContent = v.message;
  $("verdict-instruction").textContent = v.instruction;
  $("verdict-meta").textContent = "Dialed " + v.digit;
  box.classList.remove("fresh");
  void box.offsetWidth; // restart the highlight animation
  box.classList.add("fresh");

  const list = $("calls");
  const empty = list.querySelector(".empty");
  if (empty) empty.remove();
  if (list.querySelector(`[data-event-id="${event.id}"]`)) return;
  const li = document.createElement("li");
  li.dataset.eventId = event.id;
  const sig = document.createElement("span");
  sig.className = "call-signal";
  sig.textContent = v.signal;
  const dig = document.createElement("span");
  dig.className = "call-digit";
  dig.textContent = " dialed " + v.digit;
  li.append(sig, dig);
  list.prepend(li);
  while (list.children.length > 10) list.lastElementChild.remove();
}

function showHook(state) {
  $("hook-state").textContent = state === "off" ? "lifted" : "on the cradle";
  const button = $("hook-button");
  if (button) button.textContent = state === "off" ? "Hang up" : "Lift the handset";
  document.body.dataset.hook = state;
}

const handlers = {
  "editor.verdict": showVerdict,
  "phone.hook": (m) => showHook(m.data.state),
  "phone.digit": (m) => { $("last-digit").textContent = m.data.digit; },
  "phone.fault": (m) => showError("Phone wiring: " + m.data.message),
};

function connect() {
  const link = $("link");
  const source = new EventSource("/stream?since=" + encodeURIComponent(boot.lastEventId || 0));
  source.onopen = () => { link.textContent = "live"; link.className = "badge badge-ok"; };
  source.onerror = () => { link.textContent = "reconnecting…"; link.className = "badge badge-warn"; };
  source.onmessage = (e) => {
    let message;
    try { message = JSON.parse(e.data); } catch { return; }
    const handle = handlers[message.type];
    if (handle) handle(message);
  };
}

function showError(text) {
  const box = $("phone-error");
  if (!box) return;
  box.textContent = text;
  box.hidden = !text;
}

async function post(url, body) {
  try {
    const r = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!r.ok) {
      const err = await r.json().catch(() => ({ message: r.statusText }));
      showError(err.message || "The panel refused that.");
    } else {
      showError("");
    }
  } catch {
    showError("The panel can't be reached; check the Wi-Fi.");
  }
}

const dial = $("dial");
if (dial) dial.addEventListener("dial", (e) => post("/api/sim/dial", { digit: e.detail.digit }));
const hookButton = $("hook-button");
if (hookButton) {
  hookButton.addEventListener("click", () => {
    const lifted = document.body.dataset.hook === "off";
    post("/api/sim/hook", { state: lifted ? "on" : "off" });
  });
}
connect();
