#!/usr/bin/env python3
"""`make soak`: mixed requests over every endpoint at full load for a while (default 10
minutes) with wrk; the server's RSS at the end must be within 10% of its RSS after the first minute,
with no socket errors and no non-2xx answers. Writes a "## Soak" section into BENCHMARKS.md."""
import argparse
import datetime
import os
import re
import subprocess
import sys
import threading
import time

sys.dont_write_bytecode = True  # no __pycache__ in the work tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run as bench  # noqa: E402  (the benchmark's servers, bodies and report helpers; it puts scripts/ on sys.path)
from trellis_harness import free_port  # noqa: E402


def lua_mixed(requests):
    """A wrk script that cycles through (method, path, body file) requests. wrk.format at the top
    level runs before wrk sets its Host header, and an HTTP/1.1 request without Host is a 400."""
    path = os.path.join(bench.WORK, "soak.lua")
    with open(path, "w") as f:
        f.write("local requests = {}\n")
        for method, url, body in requests:
            if body:
                f.write(f'do local h = io.open("{body}", "rb"); local b = h:read("*a"); h:close()\n')
                f.write(f'  table.insert(requests, wrk.format("{method}", "{url}", {{["Host"] = "127.0.0.1", ["Content-Type"] = "application/json"}}, b)) end\n')
            else:
                f.write(f'table.insert(requests, wrk.format("{method}", "{url}", {{["Host"] = "127.0.0.1"}}))\n')
        f.write("local i = 0\nrequest = function()\n  i = i % #requests + 1\n  return requests[i]\nend\n")
    return path


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=int, default=600)
    parser.add_argument("--threads", type=int, default=os.cpu_count())
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--output", default=os.path.join(bench.ROOT, "BENCHMARKS.md"))
    args = parser.parse_args()

    mixed = [(m, p, b) for name, m, p, b, c, _ in bench.workloads() if c > 1]
    script = lua_mixed(mixed)
    port = free_port()
    server = bench.start_trellis(port, args.threads, 8 << 20)
    samples = {}

    def sample():
        start = time.time()
        while server.process.poll() is None:
            elapsed = time.time() - start
            samples[int(elapsed)] = bench.rss_mb(server.pid)
            time.sleep(1)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    out = subprocess.run(
        ["wrk", "-t1", f"-c{args.connections}", f"-d{args.seconds}s", "-s", script, f"http://127.0.0.1:{port}"],
        capture_output=True, text=True, check=True).stdout
    end_rss = bench.rss_mb(server.pid)
    peak = bench.peak_rss_mb(server.pid)
    server.stop()
    first_minute = samples.get(min(60, args.seconds // 10), float("nan"))
    total = int(re.search(r"(\d+) requests in", out).group(1))
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    non2xx = int(m.group(1)) if (m := re.search(r"Non-2xx or 3xx responses: (\d+)", out)) else 0
    errors = re.search(r"Socket errors: (.*)", out)
    growth = (end_rss - first_minute) / first_minute * 100
    ok = non2xx == 0 and errors is None and abs(growth) <= 10
    section = "\n".join([
        "## Soak",
        "",
        f"- Command: `make soak` ({args.seconds} s of wrk -t1 -c{args.connections}, cycling through "
        f"{len(mixed)} requests over every endpoint: {', '.join(sorted({p for _, p, _ in mixed}))})",
        f"- Date: {datetime.date.today().isoformat()}; {os.cpu_count()} CPUs, {bench.cpu_model()}",
        f"- Requests: {total:,} ({rps:,.0f}/s); non-2xx: {non2xx}; socket errors: {errors.group(1) if errors else 'none'}",
        f"- RSS after {min(60, args.seconds // 10)} s: {first_minute:.1f} MB; at the end: {end_rss:.1f} MB "
        f"({growth:+.1f}%); peak {peak:.1f} MB",
        f"- Verdict: {'pass' if ok else 'FAIL'} (end RSS within 10% of the first minute's, no errors, no non-2xx)",
    ]) + "\n"
    bench.replace_section(args.output, "## Soak", section)
    print(section)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
