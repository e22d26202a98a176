"""Panel benchmark: the weight of each screen, uncompressed, everything the browser fetches to
show it (HTML, stylesheet, every script module, the JSON it reads at load). Prints figures;
asserts nothing. Target: under 200 KB per screen.

    python bench/panel_weight.py

"other" is the simulated phone's window (a small PNG). Each screen is loaded in a fresh browser context (nothing cached) from a panel on a fresh data
folder; the live stream (/stream) is left out: it never ends, and carries events, not the page.
"""

from panel_common import browser, call, games, panel, play_a_little

TARGET = 200 * 1024


def weigh(b, url):
    """(total bytes, {kind: bytes}, requests) of loading ``url`` until the network is idle."""
    ctx = b.new_context(viewport={"width": 1024, "height": 768})
    page = ctx.new_page()
    sizes = []

    def done(response):
        if "/stream" in response.url:
            return
        try:
            body = response.body()
        except Exception:
            return
        ctype = response.headers.get("content-type", "")
        kind = next((k for k, word in (("html", "html"), ("css", "css"), ("js", "javascript"), ("json", "json"))
                     if word in ctype), "other")
        sizes.append((kind, len(body)))

    page.on("response", done)
    page.goto(url, wait_until="networkidle")
    page.wait_for_function("document.getElementById('link').textContent === 'live'")
    ctx.close()
    kinds = {}
    for kind, n in sizes:
        kinds[kind] = kinds.get(kind, 0) + n
    return sum(n for _, n in sizes), kinds, len(sizes)


def main():
    rows = []
    p, b = browser()
    try:
        with panel() as (base, desk, _):
            rows.append(("start form (no game)",) + weigh(b, base + "/"))
            last = None
            for engine in games():
                game = play_a_little(base, engine)
                rows.append(("%s, move %d" % (engine, game["version"]),) + weigh(b, base + "/"))
                call(base, "/api/games/current/abandon", {"version": game["version"]})
                last = game["id"]
            rows.append(("end of a game (chart, exports)",) + weigh(b, "%s/games/%d" % (base, last)))
            rows.append(("history and statistics",) + weigh(b, base + "/history"))
    finally:
        b.close()
        p.stop()
    print("%-34s %9s %7s %7s %7s %7s %7s %5s" % ("screen", "total KB", "html", "css", "js", "json", "other", "reqs"))
    for name, total, kinds, n in rows:
        print("%-34s %9.1f %7.1f %7.1f %7.1f %7.1f %7.1f %5d" % (
            name, total / 1024, kinds.get("html", 0) / 1024, kinds.get("css", 0) / 1024, kinds.get("js", 0) / 1024,
            kinds.get("json", 0) / 1024, kinds.get("other", 0) / 1024, n))
    heaviest = max(r[1] for r in rows)
    print("heaviest screen: %.1f KB (target under %d KB)" % (heaviest / 1024, TARGET // 1024))


if __name__ == "__main__":
    main()
