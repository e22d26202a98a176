/* The panel's service worker (web_ui/app_shell.py says when it runs and why).
 *
 * The box serves this file at /sw.js with one line before it: self.SHELL, what to keep (the
 * offline page and every static file under this release's version) and what never to touch.
 *
 * Never a stale game: the live feed and the API are left to the network (no respondWith), and a
 * page is always asked of the box; only when the box can't be reached does the offline page
 * stand in, never a kept copy of the page.
 */
const SHELL = self.SHELL;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(SHELL.cache)
      .then((cache) => cache.addAll(SHELL.files))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  // a new release's files replace the last one's: every cache of ours but this one goes
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names
        .filter((name) => name.startsWith(SHELL.cachePrefix) && name !== SHELL.cache)
        .map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

function offlinePage() {
  return caches.open(SHELL.cache)
    .then((cache) => cache.match(SHELL.offline))
    .then((page) => page || new Response("The box can't be reached.", {
      status: 503, headers: {"Content-Type": "text/plain; charset=utf-8"}}));
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (SHELL.never.some((prefix) => url.pathname === prefix.replace(/\/$/, "") || url.pathname.startsWith(prefix))) {
    return;                                   // the live game: network only, never cached
  }
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(offlinePage));
    return;
  }
  if (url.pathname.startsWith(SHELL.static + SHELL.version + "/")) {
    event.respondWith(
      caches.open(SHELL.cache)
        .then((cache) => cache.match(request))
        .then((kept) => kept || fetch(request)),
    );
  }
});
