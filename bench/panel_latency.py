"""Panel benchmark: time from an action on one page to its appearance on the others, with 12
pages connected. Prints figures; asserts nothing.

    python bench/panel_latency.py [--pages 12] [--actions 100]

Twelve browser contexts (twelve devices: each its own cookies and connections) load the table
panel from a panel served as `newsdesk serve` serves it, on a fresh data folder, in a game of SCOOP (1956). The
first page taps an offer ("Exchange a card"), then "Undo", and so on; each tap is timed at the
click, and every other page notes when its screen shows the new version (a MutationObserver on
the version the page draws). All pages run in one Chromium on one machine, so they share one
clock. The figure covers the whole path: the POST, the store's commit, the bus, each /stream,
and drawing the new screen.
"""

import argparse
import statistics

from panel_common import browser, call, panel, pct

WATCH = """() => {
  window.__seen = {};
  new MutationObserver(() => {
    const v = document.body.dataset.version;
    if (v && !(v in window.__seen)) window.__seen[v] = performance.timeOrigin + performance.now();
  }).observe(document.body, { attributes: true, attributeFilter: ["data-version"] });
  document.addEventListener("click", () => { window.__clicked = performance.timeOrigin + performance.now(); }, true);
}"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pages", type=int, default=12)
    ap.add_argument("--actions", type=int, default=100)
    args = ap.parse_args()
    p, b = browser()
    samples = []
    try:
        with panel() as (base, desk, srv):
            players = [{"name": n} for n in ("Ann", "Bob", "Cat", "Dan")]
            assert call(base, "/api/games", {"engine": "scoop1956", "players": players})[0] == 201
            contexts = [b.new_context(viewport={"width": 1024, "height": 768}) for _ in range(args.pages)]
            pages = [c.new_page() for c in contexts]
            for page in pages:
                page.goto(base + "/")
            for page in pages:
                page.wait_for_function("document.getElementById('link').textContent === 'live'", timeout=20000)
                page.evaluate(WATCH)
            streams = len(srv.panel.streams)     # the pages' streams, on the server's event loop
            actor, others = pages[0], pages[1:]
            for i in range(args.actions):
                version = int(actor.evaluate("document.body.dataset.version"))
                if i % 2 == 0:
                    actor.get_by_role("button", name="Exchange a card", exact=True).first.click()
                else:
                    actor.locator("#undo").click()
                want = str(version + 1)
                for page in pages:
                    page.wait_for_function("v => v in window.__seen", arg=want, timeout=20000)
                clicked = actor.evaluate("window.__clicked")
                for page in others:
                    samples.append(page.evaluate("v => window.__seen[v]", want) - clicked)
            for c in contexts:
                c.close()
    finally:
        b.close()
        p.stop()
    print("%d pages connected (%d live streams on the server), %d actions from the first page, %d arrivals timed"
          % (args.pages, streams, args.actions, len(samples)))
    print("action -> shown on another page:  median %.1f ms   p90 %.1f ms   p99 %.1f ms   max %.1f ms"
          % (statistics.median(samples), pct(samples, 0.90), pct(samples, 0.99), max(samples)))


if __name__ == "__main__":
    main()
