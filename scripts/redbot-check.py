#!/usr/bin/env python3
"""REDbot (HTTP lint) on every GET route of a trellis binary on an ephemeral loopback port.

Not part of make test: `make redbot-check` installs REDbot (pinned) into its own virtualenv and
runs this. Prints every note REDbot gives each route (its HAR output: level, category, note id, summary);
exits 1 when a route has a note at level BAD or WARN.
"""
import argparse
import json
import os
import re
import socket
import subprocess
import sys
import time

ROUTES = ["/", "/healthz", "/readyz", "/metrics", "/openapi.yaml", "/playground", "/clients/trellis.mjs", "/v1/fonts"]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_ready(port, seconds=30):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
                s.sendall(b"GET /readyz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                if s.recv(64).startswith(b"HTTP/1.1 200"):
                    return
        except OSError:
            pass
        time.sleep(0.1)
    raise SystemExit("trellis did not become ready")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=".build/release/trellis")
    parser.add_argument("--redbot", default=".build/tools/redbot/bin/redbot")
    args = parser.parse_args()
    port = free_port()
    server = subprocess.Popen([args.binary, "--host", "127.0.0.1", "--port", str(port), "--log", "off"])
    failed = []
    try:
        wait_ready(port)
        for route in ROUTES:
            url = f"http://127.0.0.1:{port}{route}"
            result = subprocess.run([args.redbot, "-o", "har", url], capture_output=True, text=True, timeout=120)
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
    finally:
        server.terminate()
        server.wait(10)
    for route, notes in failed:
        print(f"FAIL {route}: {notes}")
    print(f"redbot-check: {len(ROUTES) - len(failed)} of {len(ROUTES)} routes without a BAD or WARN note")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
