// Joining the table: a device asks for a code to dial and waits for it; the host makes QR
// invitations and removes devices. Every write sends X-Newsdesk: 1 (the server refuses
// writes without it, which is what stops other sites from posting here).

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

const dialButton = $("dial-button");
if (dialButton) {
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

// -- the host -------------------------------------------------------------------------------

let stopInviteTimer = null;
let watchInvite = null;

// The invitation shown, asked after every 2 s: once a tablet used it (or it ran out) it is no
// longer shown as good, and the page says who joined with it.
function watch(invite) {
  clearInterval(watchInvite);
  watchInvite = setInterval(async () => {
    const r = await fetch("/api/join/tokens/" + encodeURIComponent(invite)).catch(() => null);
    const state = r && r.ok ? await r.json().catch(() => null) : null;
    if (!state || state.status === "waiting") return;
    clearInterval(watchInvite);
    if (stopInviteTimer) stopInviteTimer();
    $("invite-qr").replaceChildren();
    $("invite-url").textContent = "";
    const words = state.status === "used" ? `Used: ${state.device || "a device"} joined with it. Invite again for another.`
      : "It ran out unused. Invite again for another.";
    $("invite-left").textContent = words;
    const said = $("announce");
    if (said) said.textContent = "The invitation was " + (state.status === "used" ? `used: ${state.device || "a device"} joined.` : "not used and ran out.");
  }, 2000);
}

for (const button of document.querySelectorAll("[data-invite]")) {
  button.addEventListener("click", async () => {
    const invite = await call("POST", "/api/join/tokens", { role: button.dataset.invite });
    if (!invite) return;
    $("invite").hidden = false;
    $("invite-qr").innerHTML = invite.qr_svg; // made by the server from its own URL
    $("invite-role").textContent = invite.role;
    $("invite-url").textContent = invite.url;
    $("invite-warning").hidden = !invite.warning;
    $("invite-warning").textContent = invite.warning || "";
    if (stopInviteTimer) stopInviteTimer();
    stopInviteTimer = countdown($("invite-left"), invite.expires_in, (t) => "Works once, for " + t + " more.",
      () => { $("invite").hidden = true; });
    watch(invite.invite);
    // the QR code appearing says nothing to a screen reader by itself
    const said = $("announce");
    if (said) said.textContent = `An invitation for a ${invite.role} is below: a QR code and its link, which work once, ` +
      `for ${Math.round(invite.expires_in / 60)} minutes.`;
  });
}

function renderDevices(devices) {
  const list = $("devices");
  list.replaceChildren();
  if (!devices.length) {
    const li = document.createElement("li");
    li.className = "empty";
    li.textContent = "No device has joined yet.";
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

const deviceList = $("devices");
if (deviceList) {
  // The list is drawn anew every few seconds and after a removal: the focus stays on the same
  // device's button, or, when that device was just removed, goes to the button that took its
  // place (the next device's, else the last), else to the list itself; never to the page's body.
  const refresh = async (removedAt = null) => {
    const data = await call("GET", "/api/devices");
    if (!data) return;
    const held = document.activeElement && deviceList.contains(document.activeElement)
      ? document.activeElement.dataset.revoke : null;
    renderDevices(data.devices);
    const buttons = [...deviceList.querySelectorAll("button[data-revoke]")];
    const same = held ? buttons.find((b) => b.dataset.revoke === held) : null;
    if (same) same.focus();
    else if (removedAt !== null) {
      if (buttons.length) buttons[Math.min(removedAt, buttons.length - 1)].focus();
      else { deviceList.tabIndex = -1; deviceList.focus(); }
    }
  };
  deviceList.addEventListener("click", async (e) => {
    const id = e.target.dataset && e.target.dataset.revoke;
    if (!id) return;
    const li = e.target.closest("li");
    const name = li.querySelector(".device-name").textContent;
    if (!confirm("Remove " + name + " from the table? It can still watch.")) return;
    const at = [...deviceList.querySelectorAll("button[data-revoke]")].indexOf(e.target);
    if (await call("DELETE", "/api/devices/" + encodeURIComponent(id))) refresh(at);
  });
  setInterval(() => refresh(), 5000);
}
