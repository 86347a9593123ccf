#!/usr/bin/env python3
"""Screenshots of the playground's panels for the documentation, run by `make screenshots`.

Starts the trellis binary on a free port, opens /playground in headless Chromium at 1280 px wide,
waits for each panel to draw the service's answer (and the drawer's spring to settle), and saves one
PNG per panel the page shows into docs/ (docs/playground-<panel>.png), plus one of a 422 shown as
problem details. The panels are the page's own, one per feature of the service's registry; a panel
the page hides (its endpoint is not in this binary) is not captured (its old PNG, if any, is kept)
and the run fails.

Usage: python3 scripts/playground/screenshots.py [--binary .build/release/trellis] [--out docs]
"""

import argparse
import pathlib
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the work tree
HERE = pathlib.Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]
import browser_test  # noqa: E402
import driver  # noqa: E402
from trellis_harness import RELEASE_BINARY, ROOT, Trellis  # noqa: E402

ROOT = pathlib.Path(ROOT)
BAD_SECTIONS = ('{\n  "sections": [\n    {"id": "食べ物", "items": ["明太子パスタ"]},\n    {"id": "食べ物", "items": []}\n  ],\n'
                '  "expanded": ["デザート"],\n  "toggle": "飲み物",\n  "mode": "both"\n}')


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=RELEASE_BINARY)
    parser.add_argument("--chromium", default=None)
    parser.add_argument("--chromedriver", default=None)
    parser.add_argument("--out", default=str(ROOT / "docs"))
    args = parser.parse_args()
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    with Trellis(args.binary, "--threads", 2) as server, driver.Browser(args.chromium, args.chromedriver) as browser:
        page = browser.page(width=1280, height=1000)
        browser_test.load_playground(page, server)
        panels = browser_test.page_panels(page)
        shown = {panel["id"] for panel in panels if not panel["hidden"]}
        if "flow" in shown:
            # The seed's tags, narrower and cut to two rows, so the picture shows the "+N" chip too.
            browser_test.set_control(page, "flow", "containerWidth", 250, "input")
            browser_test.set_control(page, "flow", "maxRows", 2, "input")
            browser_test.set_control(page, "flow", "chip", True, "change")
        # Let one-off highlights (the sections' flash) and the drawer's spring finish.
        page.wait("!document.getElementById('drawer').dataset.animating", timeout=10)
        page.evaluate("new Promise(resolve => setTimeout(resolve, 1200))")
        missing = [panel["id"] for panel in panels if panel["hidden"]]
        for panel in panels:
            if panel["hidden"]:
                print(f"not captured: {panel['id']} (this build has no POST {', '.join(panel['endpoints'])})")
                continue
            path = out / f"playground-{panel['id']}.png"
            page.screenshot(path, f"#{panel['id']}", margin=8)
            print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
        # A 422 as the page shows it: problem details and the pointers marked in the request.
        browser_test.set_request(page, "sections", BAD_SECTIONS)
        page.evaluate("document.activeElement && document.activeElement.blur()")
        path = out / "playground-problem.png"
        page.screenshot(path, "#sections", margin=8)
        print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
    if missing:
        print(f"screenshots: {', '.join(missing)} not captured; build a binary with every endpoint")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
