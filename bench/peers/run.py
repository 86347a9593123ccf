#!/usr/bin/env python3
"""Trellis beside a peer a user would compare it with: the flow layout and the outline expansion in
Node.js (bench/peers/server.js: stdlib http + cluster, one worker per core), and the bare
libmicrohttpd server as the floor.

First every benchmark body of those endpoints is sent to Trellis and to the peer: the status, the
Content-Type and every byte of the answer must be the same, or the run stops before measuring. Then
each workload runs bare, Trellis and Node alternately (B T N B T N ...) on the same port with the
same thread or worker count under wrk, at the workload's own connection count and at -c32 for the
smaller ones, and the medians go into the "## Peers" section of BENCHMARKS.md.
"""
import argparse
import datetime
import http.client
import json
import os
import re
import shutil
import statistics
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the work tree
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import run as bench  # noqa: E402  (bench/run.py: servers, wrk scripts, bodies, the report writer; it puts scripts/ on sys.path)
from trellis_harness import free_port, stop, wait_listening  # noqa: E402

SERVER_JS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "server.js")
PATHS = ("/healthz", "/v1/flow/layout", "/v1/outline/expansion")
SECTION = "## Peers"


def start_node(port, workers):
    process = subprocess.Popen(["node", SERVER_JS, str(port), str(workers)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_listening(port)
    return process


def answer(port, method, path, body_path):
    """Status, Content-Type and body bytes of one request (any status)."""
    data = open(body_path, "rb").read() if body_path else None
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
    connection.request(method, path, body=data, headers={"Content-Type": "application/json"} if data else {})
    response = connection.getresponse()
    result = (response.status, response.getheader("Content-Type"), response.read())
    connection.close()
    return result


def first_difference(a, b):
    for k in range(min(len(a), len(b))):
        if a[k] != b[k]:
            return k
    return min(len(a), len(b))


def workloads():
    """bench/run.py's workloads of the three paths the peer serves."""
    return [w for w in bench.workloads() if w[2] in PATHS]


def check_answers(threads, workers):
    """Every workload's body (bodies() flow7, flow10, flow24k, outline20, /healthz, and the 100,000-item
    flow, the 100,000-node nested outline and the 1,000,000-node flat chain): Trellis's and Node's answers
    must be the same status, Content-Type and bytes. Returns {workload name: (reply, content type)}."""
    cases = [(name, method, path, body_path) for name, method, path, body_path, _, _ in workloads()]
    port = free_port()
    trellis = bench.start_trellis(port, threads, 256 << 20)
    try:
        trellis_answers = [answer(port, method, path, body) for _, method, path, body in cases]
    finally:
        stop(trellis)
    node = start_node(port, workers)
    try:
        node_answers = [answer(port, method, path, body) for _, method, path, body in cases]
    finally:
        stop(node)
    failures = []
    for (name, method, path, _), t, n in zip(cases, trellis_answers, node_answers):
        if t[0] != 200:
            failures.append(f"{name}: Trellis answered {t[0]}: {t[2][:300]!r}")
        elif t != n:
            k = first_difference(t[2], n[2])
            failures.append(
                f"{name} ({method} {path}): Trellis {t[0]} {t[1]} {len(t[2])} bytes, Node {n[0]} {n[1]} {len(n[2])} bytes; "
                f"first difference at byte {k}:\n  Trellis ...{t[2][max(0, k - 60):k + 60]!r}\n  Node    ...{n[2][max(0, k - 60):k + 60]!r}")
        else:
            print(f"same answer: {name} ({method} {path}): {t[0]} {t[1]}, {len(t[2])} bytes", flush=True)
    if failures:
        sys.exit("bench-peers: Node's answers differ from Trellis's; nothing was measured:\n" + "\n".join(failures))
    return {name: (t[2], t[1]) for (name, _, _, _), t in zip(cases, trellis_answers)}


def run_wrk(port, script, duration, connections):
    """bench.run_wrk's figures, with a 60 s request timeout (a 1,000,000-node answer takes seconds), and
    timeouts or socket errors reported instead of hiding in the latency."""
    out = subprocess.run(
        ["wrk", "-t1", f"-c{connections}", f"-d{duration}s", "--timeout", "60s", "--latency", "-s", script,
         f"http://127.0.0.1:{port}"],
        capture_output=True, text=True, check=True).stdout
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if errors:
        raise RuntimeError(f"{errors.group(1)} non-2xx responses:\n{out}")
    socket_errors = re.search(r"Socket errors: (.*)", out)
    if socket_errors and re.search(r"[1-9]", socket_errors.group(1)):
        raise RuntimeError(f"socket errors ({socket_errors.group(1)}):\n{out}")
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    p99 = bench.to_ms(re.search(r"\s99%\s+(\S+)", out).group(1))
    return rps, p99


def measure(args, replies):
    rows = []
    for name, method, path, body_path, own_connections, max_body in workloads():
        if args.only and args.only not in name:
            continue
        reply, content_type = replies[name]
        reply_path = os.path.join(bench.WORK, "peer-reply.bin")
        open(reply_path, "wb").write(reply)
        script = bench.lua_script("peer_" + re.sub(r"\W+", "_", name), method, path, body_path)
        # The small and the 1 MiB workloads also at -c32; the 100,000- and 1,000,000-element ones at their own count.
        counts = [own_connections] + ([32] if own_connections > 1 and own_connections != 32 else [])
        for connections in counts:
            port = free_port()
            runs = {"bare": [], "trellis": [], "node": []}
            starts = {
                "bare": lambda: bench.start_bare(port, args.threads, reply_path, content_type),
                "trellis": lambda: bench.start_trellis(port, args.threads, max_body),
                "node": lambda: start_node(port, args.threads),
            }
            failure = None
            for _ in range(args.pairs):
                for server in ("bare", "trellis", "node"):
                    process = starts[server]()
                    try:
                        # Node compiles as it runs: every server gets the same unrecorded warm-up first.
                        if args.warmup:
                            run_wrk(port, script, args.warmup, connections)
                        runs[server].append(run_wrk(port, script, args.duration, connections))
                    except (RuntimeError, subprocess.CalledProcessError) as error:
                        failure = f"{server}: {str(error).splitlines()[0]}"
                    finally:
                        stop(process)
                    if failure:
                        break
                if failure:
                    break
            row = {"name": name, "connections": connections, "bytes": len(reply), "failure": failure}
            if not failure:
                for server, figures in runs.items():
                    row[server + "_rps"] = statistics.median(r[0] for r in figures)
                    row[server + "_p99"] = statistics.median(r[1] for r in figures)
                print(f"{name} -c{connections}: bare {row['bare_rps']:.0f}, Trellis {row['trellis_rps']:.0f}, "
                      f"Node {row['node_rps']:.0f} req/s; Trellis/bare {row['trellis_rps'] / row['bare_rps']:.2f}, "
                      f"Trellis/Node {row['trellis_rps'] / row['node_rps']:.2f}", flush=True)
            else:
                print(f"{name} -c{connections}: FAILED: {failure}", flush=True)
            rows.append(row)
    return rows


def rate(value):
    """Requests per second with three significant figures at most, so that slow workloads keep theirs."""
    return f"{value:.0f}" if value >= 100 else f"{value:.1f}" if value >= 10 else f"{value:.2f}"


def write_report(args, rows, checked):
    node_version = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip()
    command = "make bench-peers" + (f' BENCH_ARGS="{" ".join(sys.argv[1:])}"' if len(sys.argv) > 1 else "")
    lines = [
        SECTION,
        "",
        f"- Command: `{command}` ({args.pairs} rounds of {args.duration} s, bare, Trellis and Node alternating, each run after {args.warmup} s of unrecorded warm-up; medians)",
        f"- Date: {datetime.date.today().isoformat()}",
        f"- Machine: {os.cpu_count()} CPUs (`nproc`), {bench.cpu_model()}, shared with other work (load average "
        f"{args.load_before:.1f} before the run, {os.getloadavg()[0]:.1f} after it); wrk -t1 on the same machine (loopback)",
        f"- Bare and Trellis: thread pool of {args.threads}, as `make bench` runs them; Node {node_version} "
        f"([bench/peers/server.js](bench/peers/server.js): stdlib `http` + `cluster`, {args.threads} workers, JSON.parse and JSON.stringify)",
        f"- Same answers: before measuring, Node's status, Content-Type and body bytes were checked equal to Trellis's for "
        f"all {checked} requests below (the 100,000- and 1,000,000-element ones included)",
        "- Ratios are of the medians; p99 in ms",
        "",
        "| workload | connections | reply bytes | bare req/s | Trellis req/s | Node req/s | Trellis / bare | Trellis / Node | bare p99 | Trellis p99 | Node p99 |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        if r["failure"]:
            lines.append(f"| {r['name']} | {r['connections']} | {r['bytes']} | failed: {r['failure']} |" + " |" * 7)
            continue
        lines.append(
            f"| {r['name']} | {r['connections']} | {r['bytes']} | {rate(r['bare_rps'])} | {rate(r['trellis_rps'])} | "
            f"{rate(r['node_rps'])} | {r['trellis_rps'] / r['bare_rps']:.2f} | {r['trellis_rps'] / r['node_rps']:.2f} | "
            f"{r['bare_p99']:.3f} | {r['trellis_p99']:.3f} | {r['node_p99']:.3f} |")
    bench.replace_section(args.output, SECTION, "\n".join(lines) + "\n")
    print(f"wrote {args.output}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--duration", type=int, default=10)
    parser.add_argument("--pairs", type=int, default=3, help="rounds of bare, Trellis, Node")
    parser.add_argument("--warmup", type=int, default=3, help="seconds of unrecorded load before each run")
    parser.add_argument("--threads", type=int, default=os.cpu_count(), help="threads of bare and Trellis, workers of Node")
    parser.add_argument("--only", help="measure only workloads whose name contains this (every answer is still checked)")
    parser.add_argument("--check-only", action="store_true", help="check the answers and stop")
    parser.add_argument("--output", default=os.path.join(bench.ROOT, "BENCHMARKS.md"))
    args = parser.parse_args()
    if shutil.which("node") is None:
        sys.exit("bench-peers: no node on PATH (make bench-peers installs Debian's nodejs)")
    args.load_before = os.getloadavg()[0]
    replies = check_answers(args.threads, args.threads)
    checked = len(replies)
    if args.check_only:
        return
    rows = measure(args, replies)
    # Every median, unrounded, beside the build products.
    with open(os.path.join(bench.ROOT, ".build", "bench-peers.json"), "w") as f:
        json.dump(rows, f, indent=1)
    write_report(args, rows, checked)
    if any(r["failure"] for r in rows):
        sys.exit("bench-peers: some workloads failed (see the table)")


if __name__ == "__main__":
    main()
