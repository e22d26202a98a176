// The live feed: one EventSource (/stream) for every change at the table, resumed from the last
// event id this page heard, so a page that slept or lost the Wi-Fi is replayed what it missed.
// Its fallback: a page the box turns away (it serves as many live pages as it can) keeps itself
// up to date by asking every 5 s, says so on the link badge, and asks for the live feed again
// after the server's Retry-After. What the page does with a message, and how it reads the table
// afresh, it tells openFeed.

import { $ } from "./dom.js";
import { boxIsAway, boxIsBack, checkTheBox } from "./reach.js";

const POLL_EVERY = 5000;     // ms between reads while the newsdesk has no live feed to spare
const RETRY_AFTER = 30000;   // ms before asking for a live feed again (the server's Retry-After)

const nothing = () => {};
const feed = { source: null, lastEventId: 0, wasDown: false, pollTimer: null, retryTimer: null };
// hear(message): a message of the table's; resync(): the feed couldn't send what this page missed
// (read everything again); read(): read the game again (the fallback's ask, a wake-up);
// reopened(): the feed is back after it was lost (maybe a restart: a new release).
const hooks = { hear: nothing, resync: nothing, read: nothing, reopened: nothing };

// The newest event id this page has heard: the feed resumes after it (panel.js shows it, and
// lets the browser's console and the tests set it, as window.NEWSDESK_PANEL.lastEventId).
export function lastEventId() {
  return feed.lastEventId;
}

export function setLastEventId(id) {
  feed.lastEventId = id;
}

// The EventSource now open (or null): oracles.js listens on it too.
export function stream() {
  return feed.source;
}

// Opens the feed after the last event heard and keeps it open: a tablet that slept reconnects
// when it is looked at again.
export function openFeed(given) {
  Object.assign(hooks, given);
  // A tablet that slept: its EventSource may have died; reconnect (the store replays what it missed).
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState !== "visible") return;
    if (!feed.source || feed.source.readyState === EventSource.CLOSED) connect();
    hooks.read();
  });
  connect();
}

// Turned away (the newsdesk serves as many live pages as it can) or the feed is gone for good:
// the page keeps itself up to date by asking, says so, and asks for the live feed again later.
function fallBackToPolling() {
  const link = $("#link");
  link.textContent = "updating every 5 s";
  link.className = "badge badge-warn";
  link.title = "The newsdesk has as many live pages open as it serves; this one asks for changes instead.";
  if (!feed.pollTimer) feed.pollTimer = setInterval(() => { hooks.read(); }, POLL_EVERY);
  clearTimeout(feed.retryTimer);
  feed.retryTimer = setTimeout(connect, RETRY_AFTER);
}

// (Re)opens the feed after the last event heard.
export function connect() {
  const link = $("#link");
  if (feed.source) feed.source.close();
  clearTimeout(feed.retryTimer);
  const source = feed.source = new EventSource("/stream?since=" + encodeURIComponent(feed.lastEventId || 0));
  source.onopen = () => {
    boxIsBack();
    link.textContent = "live";
    link.className = "badge badge-ok";
    link.title = "";
    if (feed.pollTimer) { clearInterval(feed.pollTimer); feed.pollTimer = null; }
    if (feed.wasDown) { feed.wasDown = false; hooks.reopened(); }
  };
  source.onerror = () => {
    feed.wasDown = true;
    // CLOSED: the server answered but not with a feed (503 when it is full): the browser won't retry
    if (source.readyState === EventSource.CLOSED) { fallBackToPolling(); return; }
    if (boxIsAway()) return;
    link.textContent = "reconnecting…";
    link.className = "badge badge-warn";
    checkTheBox();
  };
  source.onmessage = (e) => {
    let m;
    try { m = JSON.parse(e.data); } catch { return; }
    if (typeof m.id === "number") feed.lastEventId = Math.max(feed.lastEventId, m.id);
    if (m.type === "resync") {
      // the stream could not send what this page missed one by one (it was away too long, or
      // fell behind): the store's newest id (it may have been replaced), and everything read again
      const last = m.data && m.data.last_event_id;
      if (typeof last === "number") feed.lastEventId = last;
      hooks.resync();
      return;
    }
    hooks.hear(m);
  };
}
