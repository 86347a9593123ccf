#!/usr/bin/env python3
"""REDbot (HTTP lint) on every GET route of a trellis binary on an ephemeral loopback port.

Not part of make test: `make redbot-check` installs REDbot (pinned) into its own virtualenv and
runs this. The routes are `/` and every GET endpoint its index lists. Prints every note REDbot gives
each route (its HAR output: level, category, note id, summary); exits 1 when a route has a note at
level BAD or WARN.
"""
import argparse
import json
import os
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the work tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import trellis_harness as harness  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=harness.RELEASE_BINARY)
    parser.add_argument("--redbot", default=os.path.join(harness.ROOT, ".build", "tools", "redbot", "bin", "redbot"))
    args = parser.parse_args()
    failed = []
    with harness.Trellis(args.binary) as server:
        routes = ["/"] + [e["path"] for e in server.index()["endpoints"] if e["method"] == "GET"]
        for route in routes:
            result = subprocess.run([args.redbot, "-o", "har", server.base + route], capture_output=True, text=True, timeout=120)
            try:
                entries = json.loads(result.stdout)["log"]["entries"]
            except (ValueError, KeyError):
                failed.append((route, [f"redbot exited {result.returncode}: {result.stderr.strip()[-500:]}"]))
                continue
            notes = [note for entry in entries for note in entry.get("_red_messages", [])]
            status = entries[0]["response"]["status"] if entries else None
            print(f"== {route} ({status})")
            for note in notes:
                print(f"  {note['level']:<5} {note['category']:<10} {note['note_id']}: {note['summary']}")
            bad = [f"{n['level']} {n['note_id']}" for n in notes if n["level"] in ("BAD", "WARN")]
            if bad:
                failed.append((route, bad))
    for route, notes in failed:
        print(f"FAIL {route}: {notes}")
    print(f"redbot-check: {len(routes) - len(failed)} of {len(routes)} routes without a BAD or WARN note")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
