// The service worker, where the browser allows one: a secure context (HTTPS, or the box's own
// screen on loopback). Over plain http://<box>.local the panel still installs to the home screen
// from its manifest; it just has no offline page (docs/tablet.md).
if ("serviceWorker" in navigator && window.isSecureContext) {
  navigator.serviceWorker.register("/sw.js", {scope: "/"}).catch((error) => {
    console.warn("newsdesk: no offline page on this device:", error);
  });
}
