// The offline page: ask the box now and then, and go back to the page asked for as soon as it
// answers (the page itself, fresh from the box: never a kept copy).
const RETRY_MS = 3000;
const status = document.getElementById("offline-status");

async function tryAgain() {
  try {
    const response = await fetch("/api/health", {cache: "no-store"});
    if (response.ok) {
      location.reload();
      return;
    }
  } catch (error) {
    // still unreachable
  }
  if (status) status.textContent = "Still no answer; trying again every few seconds.";
  setTimeout(tryAgain, RETRY_MS);
}

document.getElementById("offline-retry")?.addEventListener("click", () => location.reload());
setTimeout(tryAgain, RETRY_MS);
