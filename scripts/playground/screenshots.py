#!/usr/bin/env python3
"""Screenshots of the playground's panels for the README, run by `make screenshots`.

Starts the trellis binary on a free port, opens /playground in headless Chromium at 1280 px wide,
waits for each panel to draw the service's answer (and the drawer's spring to settle), and saves one
PNG per panel into docs/, plus one of a 422 shown as problem details. A panel whose endpoint the
binary doesn't have is not captured (its old PNG, if any, is kept) and the run fails.

Usage: python3 scripts/playground/screenshots.py [--binary .build/release/trellis] [--out docs]
"""

import argparse
import pathlib
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the work tree
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import browser_test  # noqa: E402
import driver  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
BAD_SECTIONS = ('{\n  "sections": [\n    {"id": "食べ物", "items": ["明太子パスタ"]},\n    {"id": "食べ物", "items": []}\n  ],\n'
                '  "expanded": ["デザート"],\n  "toggle": "飲み物",\n  "mode": "both"\n}')


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=str(ROOT / ".build" / "release" / "trellis"))
    parser.add_argument("--chromium", default=None)
    parser.add_argument("--chromedriver", default=None)
    parser.add_argument("--out", default=str(ROOT / "docs"))
    args = parser.parse_args()
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    server = driver.Trellis(args.binary)
    missing = []
    try:
        with driver.Browser(args.chromium, args.chromedriver) as browser:
            page = browser.page(width=1280, height=1000)
            page.navigate(f"{server.base}/playground")
            for panel in browser_test.PANEL_ENDPOINTS:
                browser_test.settled(page, panel)
            if not browser_test.panel_missing(server, "flow"):
                # The seed's tags, narrower and cut to two rows, so the picture shows the "+N" chip too.
                browser_test.set_control(page, "flow", "containerWidth", 250, "input")
                browser_test.set_control(page, "flow", "maxRows", 2, "input")
                browser_test.set_control(page, "flow", "chip", True, "change")
            # Let one-off highlights (the sections' flash) and the drawer's spring finish.
            page.wait("!document.getElementById('drawer').dataset.animating", timeout=10)
            page.evaluate("new Promise(resolve => setTimeout(resolve, 1200))")
            for panel in browser_test.PANEL_ENDPOINTS:
                gone = browser_test.panel_missing(server, panel)
                if gone:
                    missing.append(panel)
                    print(f"not captured: {panel} (this build has no POST {', '.join(gone)})")
                    continue
                path = out / f"playground-{panel}.png"
                page.screenshot(path, f"#{panel}", margin=8)
                print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
            # A 422 as the page shows it: problem details and the pointers marked in the request.
            browser_test.set_request(page, "sections", BAD_SECTIONS)
            page.evaluate("document.activeElement && document.activeElement.blur()")
            path = out / "playground-problem.png"
            page.screenshot(path, "#sections", margin=8)
            print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
    finally:
        server.stop()
    if missing:
        print(f"screenshots: {', '.join(missing)} not captured; build a binary with every endpoint")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
