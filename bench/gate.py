#!/usr/bin/env python3
"""The cost model for connections: what a client gains by parking bodies at the body gate or flooding the
operations port with request heads, against a release server with the Kubernetes kit's settings.

- Parked bodies: N connections each declare an 8 MiB body, send 64 KiB + 100 bytes at once and then
  nothing. While they are open, an ordinary 200 KB POST is sent every 0.25 s; the memory budget in use is
  read from /metrics on the operations port. The targets: the budget held is back under 16 MiB within
  --body-timeout + 3 s of the last head, and every ordinary POST is answered within 2 s (200, or 503 with
  Retry-After).
- The operations port: 1,000 connections from 127.0.0.2 trickle request heads at it for 10 s (those it
  closes are opened again); /healthz from 127.0.0.1 every 0.25 s. The target: each 200 within 1 s.

`make bench` writes the table into BENCHMARKS.md ("Cost model, connections"); `--check` exits 1 when a
target is missed.
"""
import argparse
import os
import re
import socket
import sys
import threading
import time

sys.dont_write_bytecode = True  # no __pycache__ in the work tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run  # noqa: E402  (the benchmark driver's helpers; it puts scripts/ on sys.path)
from cost import KUBE_FLAGS  # noqa: E402
from trellis_harness import Trellis, free_port  # noqa: E402

BODY_TIMEOUT = 10
HELD_TARGET = 16 << 20
ANSWER_TARGET = 2.0
HEALTHZ_TARGET = 1.0


def flow_body(size):
    items, total = [], 0
    while total < size - 64:
        item = '{"width":%d,"height":5}' % (10 + len(items) % 50)
        items.append(item)
        total += len(item) + 1
    return ('{"containerWidth":1000,"items":[%s]}' % ",".join(items)).encode()


def metric(ops_port, name):
    with socket.create_connection(("127.0.0.1", ops_port), timeout=5) as s:
        s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        data = b""
        while chunk := s.recv(1 << 16):
            data += chunk
    found = re.search(rb"^" + name.encode() + rb" ([0-9.e+]+)$", data, re.M)
    return float(found.group(1)) if found else 0.0


def ask(port, head, body=b"", timeout=30, source=None):
    """(status, seconds) of one request on a new connection; status 0 when closed without an answer."""
    started = time.monotonic()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout,
                                      source_address=(source, 0) if source else None) as s:
            s.sendall(head + body)
            reply = b""
            while b"\r\n" not in reply:
                chunk = s.recv(4096)
                if not chunk:
                    break
                reply += chunk
    except OSError:
        reply = b""
    seconds = time.monotonic() - started
    match = re.match(rb"HTTP/1\.1 (\d+)", reply)
    status = int(match.group(1)) if match else 0
    retry = b"\r\nretry-after: 1" in reply.lower() if status == 503 else True
    return status, seconds, retry


def parked(binary, count):
    ops = free_port()
    server = Trellis(binary, "--ops-port", ops, "--body-timeout", BODY_TIMEOUT, *KUBE_FLAGS)
    ordinary = flow_body(200_000)
    ordinary_head = (b"POST /v1/flow/layout HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Connection: close\r\nContent-Length: %d\r\n\r\n" % len(ordinary))
    parked_head = (b"POST /v1/flow/layout HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                   b"Content-Length: %d\r\n\r\n" % (8 << 20))
    start = b" " * ((64 << 10) + 100)
    answers, held, stop = [], [], threading.Event()

    def ordinary_client():
        while not stop.is_set():
            answers.append(ask(server.port, ordinary_head, ordinary, timeout=60))
            time.sleep(0.25)

    def sampler():
        while not stop.is_set():
            held.append((time.monotonic(), metric(ops, "trellis_memory_in_use_bytes")))
            time.sleep(0.1)

    threads = [threading.Thread(target=ordinary_client), threading.Thread(target=sampler)]
    for t in threads:
        t.start()
    sockets = []
    for _ in range(count):
        s = socket.create_connection(("127.0.0.1", server.port))
        s.setblocking(False)
        try:
            s.send(parked_head + start)
        except BlockingIOError:
            pass
        sockets.append(s)
    last_head = time.monotonic()
    time.sleep(BODY_TIMEOUT + 5)
    stop.set()
    for t in threads:
        t.join()
    refusals = metric(ops, "trellis_body_gate_refusals_total")
    for s in sockets:
        s.close()
    server.stop()
    peak = max(b for _, b in held)
    after = [t - last_head for t, b in held if t > last_head and b >= HELD_TARGET]
    back_under = max(after) if after else 0.0
    worst = max(s for _, s, _ in answers)
    statuses = sorted({st for st, _, _ in answers})
    ok = (back_under <= BODY_TIMEOUT + 3 and worst <= ANSWER_TARGET and all(st in (200, 503) for st in statuses)
          and all(r for _, _, r in answers))
    print(f"parked {count}: peak {peak / 2**20:.1f} MiB, back under 16 MiB {back_under:.1f} s after the last head; "
          f"{len(answers)} ordinary POSTs {statuses}, slowest {worst:.2f} s; {refusals:.0f} refused at the gate",
          flush=True)
    return {"count": count, "peak": peak, "back_under": back_under, "answers": len(answers),
            "statuses": statuses, "worst": worst, "refusals": refusals, "ok": ok}


def ops_flood(binary, count=1000, seconds=10):
    ops = free_port()
    server = Trellis(binary, "--ops-port", ops, *KUBE_FLAGS)
    head = b"GET /healthz HTTP/1.1\r\nX"

    def dial():
        try:
            s = socket.create_connection(("127.0.0.1", ops), timeout=1, source_address=("127.0.0.2", 0))
            s.setblocking(False)
            s.send(head)
            return s
        except OSError:
            return None

    attackers = [dial() for _ in range(count)]
    probes = []
    started = time.monotonic()
    while time.monotonic() - started < seconds:
        for i, s in enumerate(attackers):
            try:
                if s is None or s.send(b"x") != 1:
                    raise OSError
            except OSError:
                if s is not None:
                    s.close()
                attackers[i] = dial()
        probes.append(ask(ops, b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", timeout=5))
        time.sleep(0.25)
    for s in attackers:
        if s is not None:
            s.close()
    server.stop()
    worst = max(s for _, s, _ in probes)
    statuses = sorted({st for st, _, _ in probes})
    ok = statuses == [200] and worst <= HEALTHZ_TARGET
    print(f"ops flood {count}: {len(probes)} probes {statuses}, slowest {worst * 1000:.0f} ms", flush=True)
    return {"count": count, "probes": len(probes), "statuses": statuses, "worst": worst, "ok": ok}


def write_section(path, rows, flood):
    import datetime
    import platform
    lines = [
        "## Cost model, connections",
        "",
        f"`python3 bench/gate.py` (part of `make bench`), {datetime.date.today().isoformat()}, {run.cpu_model()}, "
        f"{os.cpu_count()} cores, {platform.system()} {platform.release()}. A release server with the Kubernetes "
        f"kit's settings (`{' '.join(KUBE_FLAGS)}`) and `--body-timeout {BODY_TIMEOUT}`, the budget read from "
        "`/metrics` on the operations port every 0.1 s.",
        "",
        "Parked bodies: each connection declares 8 MiB, sends 64 KiB + 100 bytes at once, then nothing; an ordinary "
        "200 KB flow POST is sent every 0.25 s meanwhile. Targets: the budget held back under 16 MiB within "
        f"`--body-timeout` + 3 s ({BODY_TIMEOUT + 3} s) of the last head; every ordinary POST answered within 2 s "
        "(200, or 503 with `Retry-After`).",
        "",
        "| parked connections | peak held | back under 16 MiB after the last head | ordinary POSTs | their statuses | slowest | refused at the gate | targets |",
        "|---:|---:|---:|---:|---|---:|---:|---|",
    ]
    for r in rows:
        lines.append(f"| {r['count']:,} | {r['peak'] / 2**20:.1f} MiB | {r['back_under']:.1f} s | {r['answers']} | "
                     f"{' '.join(map(str, r['statuses']))} | {r['worst']:.2f} s | {r['refusals']:.0f} | "
                     f"{'met' if r['ok'] else 'MISSED'} |")
    lines += [
        "",
        f"The operations port: {flood['count']:,} connections from 127.0.0.2 trickle request heads at it for 10 s "
        "(each closed one opened again); `GET /healthz` from 127.0.0.1 every 0.25 s. Target: each 200 within 1 s.",
        "",
        "| trickling connections | probes | statuses | slowest | target |",
        "|---:|---:|---|---:|---|",
        f"| {flood['count']:,} | {flood['probes']} | {' '.join(map(str, flood['statuses']))} | "
        f"{flood['worst'] * 1000:.0f} ms | {'met' if flood['ok'] else 'MISSED'} |",
    ]
    run.replace_section(path, "## Cost model, connections", "\n".join(lines) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=os.path.join(run.ROOT, ".build", "release", "trellis"))
    parser.add_argument("--counts", default="300,1000", help="parked connection counts")
    parser.add_argument("--write", help="write the section into this BENCHMARKS.md")
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args()
    rows = [parked(args.binary, int(n)) for n in args.counts.split(",")]
    flood = ops_flood(args.binary)
    if args.write:
        write_section(args.write, rows, flood)
    if args.check and not (all(r["ok"] for r in rows) and flood["ok"]):
        sys.exit(1)


if __name__ == "__main__":
    main()
