// Joining the table: a device asks for a code to dial and waits for it; the host makes QR
// invitations and removes devices. Every write sends X-Newsdesk: 1 (the server refuses
// writes without it, which is what stops other sites from posting here).

import { announce } from "./toast.js";

const $ = (id) => document.getElementById(id);
const WRITE = { "X-Newsdesk": "1", "Content-Type": "application/json" };

function showError(text) {
  const box = $("join-error");
  if (!box) return;
  box.textContent = text || "";
  box.hidden = !text;
}

async function call(method, url, body) {
  let r;
  try {
    r = await fetch(url, {
      method,
      headers: method === "GET" ? {} : WRITE,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    showError("The box can't be reached; check the Wi-Fi.");
    return null;
  }
  const data = await r.json().catch(() => ({}));
  // Refused as not joined while the page says joined: the host removed this device. The page
  // shows that instead of a refusal telling the user to open the page they are on.
  if (r.status === 401 && joinedHere()) {
    dropJoined();
    return null;
  }
  if (!r.ok) {
    showError(data.message || r.statusText);
    return null;
  }
  showError("");
  return data;
}

function countdown(element, seconds, words, done) {
  const end = Date.now() + seconds * 1000;
  const tick = () => {
    const left = Math.max(0, Math.round((end - Date.now()) / 1000));
    element.textContent = words(Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0"));
    if (left === 0) { clearInterval(timer); if (done) done(); }
  };
  const timer = setInterval(tick, 1000);
  tick();
  return () => clearInterval(timer);
}

// -- a device dialing in ------------------------------------------------------------------

let stopDialTimer = null;
let polling = null;

function showCode(status) {
  const box = $("dial-box");
  box.hidden = false;
  box.dataset.code = status.code;
  $("dial-code").textContent = status.code.split("").join(" ");
  if (stopDialTimer) stopDialTimer();
  stopDialTimer = countdown($("dial-left"), status.expires_in,
    (t) => "The code works for " + t + " more. Dial the digits one after another.");
  poll();
}

function poll() {
  clearTimeout(polling);
  polling = setTimeout(async () => {
    const status = await call("GET", "/api/join/dial");
    if (!status) return poll();
    if (status.status === "joined") return location.assign("/join");
    if (status.status === "waiting") return poll();
    $("dial-box").hidden = true;
    showError(status.status === "revoked" ? "The host removed this device."
      : "The code lapsed or was withdrawn (too many wrong codes dialed); get a new one.");
  }, 1500);
}

// Bound at load, and again when a removed device's page is given the watching state's buttons.
function bindDial() {
  const dialButton = $("dial-button");
  if (!dialButton) return;
  dialButton.addEventListener("click", async () => {
    const status = await call("POST", "/api/join/dial", {});
    if (status && status.code) showCode(status);
  });
  $("dial-cancel").addEventListener("click", async () => {
    clearTimeout(polling);
    if (stopDialTimer) stopDialTimer();
    await call("DELETE", "/api/join/dial");
    $("dial-box").hidden = true;
  });
  if ($("dial-box").dataset.code) {
    call("GET", "/api/join/dial").then((s) => { if (s && s.status === "waiting") showCode(s); });
  }
}
bindDial();

// -- a joined device -----------------------------------------------------------------------

const nameForm = $("name-form");
if (nameForm) {
  nameForm.addEventListener("submit", async (e) => {
    e.preventDefault();
    const done = await call("POST", "/api/join/name", { name: $("device-name").value });
    if (done) {
      $("device-name").value = done.device.name;
      $("name-saved").hidden = false;
      $("name-saved").textContent = `Saved: the host sees this device as “${done.device.name}”.`;
    }
  });
}
const leaveButton = $("leave-button");
if (leaveButton) {
  leaveButton.addEventListener("click", async () => {
    if (await call("POST", "/api/join/leave", {})) location.assign("/join");
  });
}

function joinedHere() {
  const state = $("join-state");
  return Boolean(state && state.dataset.state === "joined");
}

let dropping = false;

// The device is no longer joined (the host removed it): the page takes what a reload would show,
// asked of the box (the removal's sentence, the ways to join again), in place of the joined
// state and the Player badge. The focus, if it was in the part replaced (the name's form), goes
// to the sentence saying why; otherwise the sentence is said politely.
async function dropJoined() {
  if (dropping || !joinedHere()) return;
  dropping = true;
  clearInterval(checkingJoined);
  const r = await fetch("/join").catch(() => null);
  const html = r && r.ok ? await r.text().catch(() => null) : null;
  if (!html) { location.reload(); return; }   // a reload shows the same, if the box answers at all
  const fresh = new DOMParser().parseFromString(html, "text/html");
  const state = $("join-state"), next = fresh.getElementById("join-state");
  if (!state || !next || next.dataset.state === "joined") { dropping = false; return; }
  const hadFocus = state.contains(document.activeElement);
  // a badge put in whole, as a new live region, isn't read out on top of the sentence
  const badge = $("join-role"), nextBadge = fresh.getElementById("join-role");
  if (badge && nextBadge) badge.replaceWith(document.importNode(nextBadge, true));
  state.replaceWith(document.importNode(next, true));
  showError("");
  bindDial();
  const why = $("join-revoked") || $("join-state").querySelector(".join-lead");
  if (hadFocus) {
    why.tabIndex = -1;
    why.focus();
  } else {
    announce(why.textContent.trim());
  }
}

// A joined page asks every few seconds (and when shown again) whether it still is: a removal is
// shown without waiting for the next write to be refused.
const JOINED_CHECK_MS = 5000;
let checkingJoined = null;

async function checkJoined() {
  if (document.hidden || !joinedHere()) return;
  const r = await fetch("/api/join/me").catch(() => null);
  const me = r && r.ok ? await r.json().catch(() => null) : null;
  if (me && !me.role) dropJoined();
}

if (joinedHere()) {
  checkingJoined = setInterval(checkJoined, JOINED_CHECK_MS);
  document.addEventListener("visibilitychange", checkJoined);
}

// -- the host -------------------------------------------------------------------------------

let stopInviteTimer = null;
let watchInvite = null;

// The invitation shown, asked after every 2 s: once a tablet used it (or it ran out) it is no
// longer shown as good. Its use is told by the list of devices, asked at once: that names the
// device as it is called now, and says it once (a name given later would leave a sentence
// here naming the device as it was).
function watch(invite) {
  clearInterval(watchInvite);
  watchInvite = setInterval(async () => {
    const r = await fetch("/api/join/tokens/" + encodeURIComponent(invite)).catch(() => null);
    const state = r && r.ok ? await r.json().catch(() => null) : null;
    if (!state || state.status === "waiting") return;
    clearInterval(watchInvite);
    if (stopInviteTimer) stopInviteTimer();
    $("invite-qr").replaceChildren();
    $("invite-how").hidden = true;   // "Scan it, or open:" with no code or link left after it
    $("invite-url").textContent = "";
    const used = state.status === "used";
    $("invite-left").textContent = used ? "Used: a device joined with it (see Devices at the table). Invite again for another."
      : "It ran out unused. Invite again for another.";
    if (used) refreshDevices();
    else announce("The invitation was not used and ran out.");
  }, 2000);
}

for (const button of document.querySelectorAll("[data-invite]")) {
  button.addEventListener("click", async () => {
    const invite = await call("POST", "/api/join/tokens", { role: button.dataset.invite });
    if (!invite) return;
    $("invite").hidden = false;
    $("invite-qr").innerHTML = invite.qr_svg; // made by the server from its own URL
    $("invite-how").hidden = false;
    $("invite-role").textContent = invite.role;
    $("invite-url").textContent = invite.url;
    $("invite-warning").hidden = !invite.warning;
    $("invite-warning").textContent = invite.warning || "";
    if (stopInviteTimer) stopInviteTimer();
    stopInviteTimer = countdown($("invite-left"), invite.expires_in, (t) => "Works once, for " + t + " more.",
      () => { $("invite").hidden = true; });
    watch(invite.invite);
    // the QR code appearing says nothing to a screen reader by itself
    announce(`An invitation for a ${invite.role} is below: a QR code and its link, which work once, ` +
      `for ${Math.round(invite.expires_in / 60)} minutes.`);
  });
}

// Not "yet": the list is empty again once the last device has left or been removed.
const NO_DEVICE = "No device is joined now.";

function renderDevices(devices) {
  const list = $("devices");
  list.replaceChildren();
  if (!devices.length) {
    const li = document.createElement("li");
    li.className = "empty";
    li.textContent = NO_DEVICE;
    list.append(li);
  }
  for (const [i, d] of devices.entries()) {
    const li = document.createElement("li");
    li.dataset.deviceId = d.id;
    li.dataset.status = d.status;
    const name = document.createElement("span");
    name.className = "device-name";
    name.textContent = d.name;
    const meta = document.createElement("span");
    meta.className = "device-meta";
    meta.textContent = " " + d.role + " · " + (d.status === "waiting" ? "waiting for " + d.code + " to be dialed"
      : "joined") + " · " + d.address;
    const remove = document.createElement("button");
    remove.type = "button";
    remove.className = "small-button";
    remove.dataset.revoke = d.id;
    remove.textContent = "Remove";
    // two devices may share a name ("Linux computer"): the button says which, as the list numbers it
    remove.setAttribute("aria-label", "Remove device " + (i + 1) + ": " + d.name + " (" + d.role + ", " + d.address + ")");
    li.append(name, meta, remove);
    list.append(li);
  }
}

// The joined devices the page last showed, id -> name: a redraw says who joined and who is gone.
const deviceList = $("devices");
const joinedShown = new Map();

function joinedDevices(devices) {
  return new Map(devices.filter((d) => d.status === "joined").map((d) => [d.id, d]));
}

// What changed among the joined devices since the last redraw, said once, politely: a device
// that joined (with an invitation or by dialing) and one no longer at the table (removed, here or
// by another host, or left by itself). A waiting code coming and going isn't news.
function tellChanges(devices) {
  const now = joinedDevices(devices);
  const said = [];
  for (const [id, d] of now) {
    if (!joinedShown.has(id)) said.push(`${d.name} joined the table as a ${d.role}.`);
  }
  for (const [id, name] of joinedShown) {
    if (!now.has(id)) said.push(`${name} is no longer at the table.`);
  }
  joinedShown.clear();
  for (const [id, d] of now) joinedShown.set(id, d.name);
  if (said.length) announce(said.join(" "));
}

// The list is drawn anew every few seconds and after a removal: the focus stays on the same
// device's button, or, when that device was just removed, goes to the button that took its
// place (the next device's, else the last), else to the list itself; never to the page's body.
async function refreshDevices(removedAt = null) {
  const data = await call("GET", "/api/devices");
  if (!data) return;
  const held = document.activeElement && deviceList.contains(document.activeElement)
    ? document.activeElement.dataset.revoke : null;
  renderDevices(data.devices);
  tellChanges(data.devices);
  const buttons = [...deviceList.querySelectorAll("button[data-revoke]")];
  const same = held ? buttons.find((b) => b.dataset.revoke === held) : null;
  if (same) same.focus();
  else if (removedAt !== null) {
    if (buttons.length) buttons[Math.min(removedAt, buttons.length - 1)].focus();
    else { deviceList.tabIndex = -1; deviceList.focus(); }
  }
}

if (deviceList) {
  // the devices the page came with are no news
  for (const li of deviceList.querySelectorAll("li[data-status=joined]")) {
    joinedShown.set(li.dataset.deviceId, li.querySelector(".device-name").textContent);
  }
  deviceList.addEventListener("click", async (e) => {
    const id = e.target.dataset && e.target.dataset.revoke;
    if (!id) return;
    const li = e.target.closest("li");
    const name = li.querySelector(".device-name").textContent;
    if (!confirm("Remove " + name + " from the table? It can still watch.")) return;
    const at = [...deviceList.querySelectorAll("button[data-revoke]")].indexOf(e.target);
    if (await call("DELETE", "/api/devices/" + encodeURIComponent(id))) refreshDevices(at);
  });
  setInterval(() => refreshDevices(), 5000);
}
