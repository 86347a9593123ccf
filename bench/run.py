#!/usr/bin/env python3
"""Side-by-side benchmark: Trellis against the bare libmicrohttpd server in bench/.

Each workload runs the bare server and Trellis alternately (A B A B ...) on the same port with
the same thread count, under wrk with keep-alive, and reports medians. The bare server answers
with the exact bytes Trellis returns for that request. Results go to BENCHMARKS.md.
"""
import argparse
import datetime
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.dont_write_bytecode = True  # no __pycache__ in the work tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts"))
from trellis_harness import ROOT, Trellis, free_port, stop, wait_listening  # noqa: E402

TRELLIS = os.path.join(ROOT, ".build", "release", "trellis")
# Trellis's default --connection-memory, given to the bare server too.
CONNECTION_MEMORY = 32 << 10
BARE = os.path.join(ROOT, ".build", "bare-server")
PARSE_LIMIT = os.path.join(ROOT, ".build", "parse-limit")
WORK = tempfile.mkdtemp(prefix="trellis-bench-")


def peak_rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def start_trellis(port, threads, max_body):
    """The release build on `port`, ready (harness.Trellis); harness.stop stops it, or a bare server's process."""
    return Trellis(TRELLIS, "--threads", threads, "--max-body-bytes", max_body, port=port)


def start_bare(port, threads, reply_path, content_type):
    process = subprocess.Popen([BARE, str(port), str(threads), reply_path, content_type, str(CONNECTION_MEMORY)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_listening(port)
    return process


def lua_script(name, method, path, body_path):
    script = os.path.join(WORK, f"{name}.lua")
    with open(script, "w") as f:
        f.write(f'wrk.method = "{method}"\nwrk.path = "{path}"\n')
        if body_path:
            f.write(f'local f = io.open("{body_path}", "rb")\nwrk.body = f:read("*a")\nf:close()\n')
            f.write('wrk.headers["Content-Type"] = "application/json"\n')
    return script


def to_ms(text):
    value, unit = re.match(r"([\d.]+)(us|ms|s)", text).groups()
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]


def run_wrk(port, script, duration, connections):
    out = subprocess.run(
        ["wrk", "-t1", f"-c{connections}", f"-d{duration}s", "--latency", "-s", script, f"http://127.0.0.1:{port}"],
        capture_output=True, text=True, check=True).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    p50 = to_ms(re.search(r"\s50%\s+(\S+)", out).group(1))
    p99 = to_ms(re.search(r"\s99%\s+(\S+)", out).group(1))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if errors:
        raise RuntimeError(f"{errors.group(1)} non-2xx responses:\n{out}")
    return rps, p50, p99


def fetch(port, method, path, body_path):
    data = open(body_path, "rb").read() if body_path else None
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method,
                                     headers={"Content-Type": "application/json"} if data else {})
    with urllib.request.urlopen(request) as response:
        return response.read(), response.headers["Content-Type"]


def write_body(name, value):
    path = os.path.join(WORK, name + ".json")
    with open(path, "w") as f:
        json.dump(value, f, separators=(",", ":"), ensure_ascii=False)
    return path


def flow_body(count):
    return {"containerWidth": 320, "horizontalSpacing": 4, "verticalSpacing": 4,
            "items": [{"id": i, "width": 20 + (i * 37) % 90, "height": 36} for i in range(count)]}


def nested_tree(count, fanout=10):
    """A complete tree of `count` nodes in nested form, built without recursion."""
    nodes = [{"id": i, "children": []} for i in range(count)]
    for i in range(1, count):
        nodes[(i - 1) // fanout]["children"].append(nodes[i])
    for node in nodes:
        if not node["children"]:
            del node["children"]
    return [nodes[0]]


def labelled_tree(count, fanout=3):
    """A nested tree of `count` nodes (as nested_tree) whose nodes have labels to search."""
    words = ("report", "readme", "thread", "create", "sprite", "bread", "tree", "café")
    tree = nested_tree(count, fanout)
    stack = list(tree)
    while stack:
        node = stack.pop()
        node["label"] = f"{words[node['id'] % 8]} {node['id']}"
        stack.extend(node.get("children", []))
    return tree


def search_nodes(count):
    """A flat tree of `count` nodes, eight children each, labelled with words and a number (half of them contain "rea")."""
    return [{"id": i, "parent": (i - 1) // 8 if i else None,
             "label": f"{('report', 'readme', 'thread', 'create', 'sprite', 'bread', 'tree', 'café')[i % 8]:<8}{i * 2654435761 % 10**12:012d}"}
            for i in range(count)]


def search_rows_body(count):
    """The rows search over `search_nodes(count)`: the first 50 rows."""
    return {"parentKey": "parent", "search": {"query": "rea"}, "limit": 50, "nodes": search_nodes(count)}


def bodies():
    """The benchmark's request bodies by short name: (method, path, body or None)."""
    seed_flow = {"containerWidth": 300, "horizontalSpacing": 4, "verticalSpacing": 4,
                 "items": [{"id": t, "width": w, "height": 28} for t, w in
                           [("Swift", 42), ("SwiftUI", 58), ("UIKit", 40), ("Xcode", 44), ("Apple", 43), ("iOS", 26), ("iPad", 34)]]}
    seed_sections = {"sections": [{"id": "食べ物", "items": ["明太子パスタ", "ショートケーキ", "プロシュート", "パウンドケーキ"]},
                                  {"id": "飲み物", "items": ["コーラ", "ルイボスティー"]}],
                     "expanded": ["食べ物"], "toggle": "飲み物"}
    fifty_sections = {"sections": [{"id": f"s{i}", "items": [f"item {i}.{j}" for j in range(5)]} for i in range(50)],
                      "expanded": ["s0", "s7"], "toggle": "s20"}
    drawer = {"isPresented": False, "action": "toggle", "container": {"width": 390, "height": 844},
              "safeAreaInsets": {"top": 47, "leading": 0, "bottom": 34, "trailing": 0}}
    seed_tags = ["Swift", "SwiftUI", "UIKit", "Xcode", "Apple", "iOS", "iPad"]
    seed_flow_text = {"containerWidth": 300, "horizontalSpacing": 4, "verticalSpacing": 4,
                      "font": {"family": "DejaVu Sans", "size": 17},
                      "labelPadding": {"top": 8, "leading": 16, "bottom": 8, "trailing": 16},
                      "items": [{"id": t, "text": t} for t in seed_tags]}
    # Labels with every text path: one item narrowed to two lines, one cut to one, and the chip's count found by its fixed point.
    chip_flow = dict(seed_flow_text, maxRows=2, overflowIndicator={"text": "+{n}"},
                     items=[{"id": "long", "text": "Swift Package Manager", "maxWidth": 90, "maxLines": 2},
                            {"id": "cut", "text": "Interface Builder", "maxWidth": 80}]
                     + [{"id": t, "text": t} for t in seed_tags])
    return {
        "healthz": ("GET", "/healthz", None),
        "flow7": ("POST", "/v1/flow/layout", seed_flow),
        "flow10": ("POST", "/v1/flow/layout", flow_body(10)),
        "outline20": ("POST", "/v1/outline/expansion", {"nodes": nested_tree(20, 3), "selection": 17}),
        "rows20": ("POST", "/v1/outline/rows", {"nodes": nested_tree(20, 3), "selection": 17}),
        "sections2": ("POST", "/v1/sections/toggle", seed_sections),
        "sections50": ("POST", "/v1/sections/toggle", fifty_sections),
        "drawer": ("POST", "/v1/drawer/state", drawer),
        "flow24k": ("POST", "/v1/flow/layout", flow_body(24_000)),
        "flow7text": ("POST", "/v1/flow/layout", seed_flow_text),
        "flow9chip": ("POST", "/v1/flow/layout", chip_flow),
        "rows20search": ("POST", "/v1/outline/rows", {"nodes": labelled_tree(20), "search": {"query": "rea"}, "limit": 10}),
        "outline20search": ("POST", "/v1/outline/expansion", {"nodes": labelled_tree(20), "search": {"query": "re"}}),
        "rows10ksearch": ("POST", "/v1/outline/rows", search_rows_body(10_000)),
        "outline10ksearch": ("POST", "/v1/outline/expansion",
                             {"parentKey": "parent", "search": {"query": "rea"}, "nodes": search_nodes(10_000)}),
        "measure3": ("POST", "/v1/text/measure", {"font": {"family": "DejaVu Sans", "size": 16}, "texts": ["Swift", "SwiftUI", "Xcode"]}),
        "batch3": ("POST", "/v1/batch", {"requests": [{"path": "/v1/flow/layout", "body": seed_flow},
                                                      {"path": "/v1/sections/toggle", "body": seed_sections},
                                                      {"path": "/v1/drawer/state", "body": drawer}]}),
    }


def paragraphs(count, length=200):
    """`count` different paragraphs of `length` characters: words of English prose in a seeded order."""
    words = ("the quick brown fox jumps over a lazy dog while layout engines measure every line of text "
             "before drawing labels chips paragraphs and rows of a virtualized list").split()
    out = []
    for i in range(count):
        state, text = i * 2654435761 + 1, []
        while sum(len(w) + 1 for w in text) < length:
            state = (state * 1103515245 + 12345) % 2**31
            text.append(words[state % len(words)])
        out.append(" ".join(text)[:length])
    return out


def layout_body(widths):
    """10,000 paragraphs of 200 characters in DejaVu Sans 16 px, at one width or several."""
    body = {"font": {"family": "DejaVu Sans", "size": 16}, "texts": paragraphs(10_000)}
    body.update({"width": widths[0]} if len(widths) == 1 else {"widths": widths})
    return body


def workloads():
    """(name, method, path, body file or None, connections, max body bytes)."""
    b = bodies()

    def small(name, key, connections=64):
        method, path, body = b[key]
        return (name, method, path, write_body(key, body) if body is not None else None, connections, 8 << 20)

    outline100k = {"nodes": nested_tree(100_000), "selection": 99_999}
    chain = {"parentKey": "parent", "selection": 999_999,
             "nodes": [{"id": i, "parent": i - 1 if i else None} for i in range(1_000_000)]}
    big = 64 << 20
    return [
        small("GET /healthz", "healthz"),
        small("flow, 7 tags (seed)", "flow7"),
        small("flow, 10 items", "flow10"),
        small("outline expansion, 20 nodes", "outline20"),
        small("sections toggle, 2 sections (seed)", "sections2"),
        small("sections toggle, 50 sections", "sections50"),
        small("drawer toggle with keyframes (seed)", "drawer"),
        small("flow, 1 MiB (24,000 items)", "flow24k", 4),
        ("flow, 100,000 items", "POST", "/v1/flow/layout", write_body("flow100k", flow_body(100_000)), 1, big),
        ("outline expansion, 100,000 nodes nested", "POST", "/v1/outline/expansion", write_body("outline100k", outline100k), 1, big),
        ("outline expansion, 1,000,000-node flat chain", "POST", "/v1/outline/expansion", write_body("chain1m", chain), 1, big),
        ("outline rows search, 1,000,000-node flat tree", "POST", "/v1/outline/rows",
         write_body("search1m", search_rows_body(1_000_000)), 1, big),
        small("flow, 7 tags as text (seed)", "flow7text"),
        ("text measure, 10,000 short labels", "POST", "/v1/text/measure", write_body("measure10k", {
            "font": {"family": "DejaVu Sans, IPAGothic", "size": 16},
            "texts": [f"tag {i}" if i % 2 else f"タグ{i}" for i in range(10_000)]}), 4, 8 << 20),
        # Each paragraph is shaped once, then laid out at every width: ten widths must cost far less
        # than ten requests (wide boxes, so that the answers stay within 16 × the request).
        ("text layout, 10,000 paragraphs of 200 characters at one width", "POST", "/v1/text/layout",
         write_body("layout10k", layout_body([600])), 1, 8 << 20),
        ("text layout, the same paragraphs at 10 widths", "POST", "/v1/text/layout",
         write_body("layout10kx10", layout_body(list(range(600, 1600, 100)))), 1, 8 << 20),
    ]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--duration", type=int, default=10)
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument("--threads", type=int, default=os.cpu_count())
    parser.add_argument("--only", help="run only workloads whose name contains this")
    parser.add_argument("--output", default=os.path.join(ROOT, "BENCHMARKS.md"))
    parser.add_argument("--parse-limit-only", action="store_true", help="only the section \"Parse limit\"")
    args = parser.parse_args()
    if args.parse_limit_only:
        write_parse_limit_report(args)
        return

    args.load_before = os.getloadavg()[0]
    port = free_port()
    trellis = start_trellis(port, args.threads, 8 << 20)
    time.sleep(1)
    args.idle_rss = rss_mb(trellis.pid)
    stop(trellis)
    rows = []
    for name, method, path, body, own_connections, max_body in workloads():
        if args.only and args.only not in name:
            continue
        port = free_port()
        trellis = start_trellis(port, args.threads, max_body)
        reply, content_type = fetch(port, method, path, body)
        stop(trellis)
        reply_path = os.path.join(WORK, "reply.bin")
        open(reply_path, "wb").write(reply)
        script = lua_script(re.sub(r"\W+", "_", name), method, path, body)
        # Each workload at its own connection count and at 32 (the small ones run at 64 and 32).
        for connections in sorted({own_connections, 32} if own_connections > 1 else {own_connections}, reverse=True):
            bare_runs, trellis_runs, peaks = [], [], []
            for _ in range(args.pairs):
                bare = start_bare(port, args.threads, reply_path, content_type)
                bare_runs.append(run_wrk(port, script, args.duration, connections))
                stop(bare)
                trellis = start_trellis(port, args.threads, max_body)
                trellis_runs.append(run_wrk(port, script, args.duration, connections))
                peaks.append(peak_rss_mb(trellis.pid))
                stop(trellis)
            med = lambda runs, i: statistics.median(r[i] for r in runs)
            row = {
                "name": name, "bytes": len(reply), "connections": connections,
                "request_bytes": os.path.getsize(body) if body else 0,
                "bare_rps": med(bare_runs, 0), "rps": med(trellis_runs, 0),
                "bare_p50": med(bare_runs, 1), "p50": med(trellis_runs, 1),
                "bare_p99": med(bare_runs, 2), "p99": med(trellis_runs, 2),
                "rss": statistics.median(peaks),
            }
            rows.append(row)
            print(f"{name} -c{connections}: Trellis {row['rps']:.0f} req/s, bare {row['bare_rps']:.0f} req/s, "
                  f"ratio {row['rps'] / row['bare_rps']:.2f}, p99 ratio {row['p99'] / row['bare_p99']:.2f}", flush=True)
    if rows:
        write_report(args, rows)
    if not args.only or args.only in "batch":
        write_batch_report(args)
    if not args.only:
        write_scaling_report(args)
        write_parse_limit_report(args)
        write_json_report(args)


BATCH_SIZE = 50
BATCH_CONNECTIONS = 32


def write_batch_report(args):
    """The seed's flow layout 50 at a time in POST /v1/batch against the same layouts as separate keep-alive
    requests, in one run: layouts per second of each (the batch's req/s × 50), medians of the pairs."""
    method, path, seed = bodies()["flow7"]
    single = write_body("flow7", seed)
    batch = write_body("batch50flow7", {"requests": [{"path": path, "body": seed} for _ in range(BATCH_SIZE)]})
    port = free_port()
    trellis = start_trellis(port, args.threads, 8 << 20)
    reply, _ = fetch(port, "POST", "/v1/batch", batch)
    entries = json.loads(reply)["responses"]
    assert len(entries) == BATCH_SIZE and all(e["status"] == 200 for e in entries), reply[:300]
    stop(trellis)
    single_script = lua_script("batch_single", method, path, single)
    batch_script = lua_script("batch_50", "POST", "/v1/batch", batch)
    singles, batches = [], []
    for _ in range(args.pairs):
        trellis = start_trellis(port, args.threads, 8 << 20)
        singles.append(run_wrk(port, single_script, args.duration, BATCH_CONNECTIONS)[0])
        batches.append(run_wrk(port, batch_script, args.duration, BATCH_CONNECTIONS)[0] * BATCH_SIZE)
        stop(trellis)
    alone, batched = statistics.median(singles), statistics.median(batches)
    print(f"batch of {BATCH_SIZE} seed flow layouts: {batched:.0f} layouts/s, separate requests {alone:.0f} layouts/s, "
          f"ratio {batched / alone:.2f}", flush=True)
    command = "make bench" if len(sys.argv) == 1 else "bench/run.py " + " ".join(sys.argv[1:])
    lines = [
        "## Batch against separate requests",
        "",
        f"- Command: `{command}` ({args.pairs} runs of {args.duration} s each way on one server, medians); "
        f"wrk -t1 -c{BATCH_CONNECTIONS}, keep-alive, on the same machine",
        f"- Date: {datetime.date.today().isoformat()}; load average {os.getloadavg()[0]:.1f} after",
        f"- Target: a batch computes at least 5 × the layouts per second of the same layouts sent one per request",
        "",
        "| workload | request bytes | layouts/s | ratio |",
        "|---|---:|---:|---:|",
        f"| the seed's flow layout (7 tags), one per request | {os.path.getsize(single)} | {alone:.0f} | 1.00 |",
        f"| the same, {BATCH_SIZE} per `POST /v1/batch` | {os.path.getsize(batch)} | {batched:.0f} | {batched / alone:.2f} |",
    ]
    replace_section(args.output, "## Batch against separate requests", "\n".join(lines) + "\n")


def replace_section(path, marker, section):
    header = ("# Benchmarks\n\nFigures from `make bench` on this project's machines. They are shared and noisy: "
              "compare the ratio\nwithin one run, not absolute numbers across runs.\n\n")
    existing = open(path).read() if os.path.exists(path) else header
    if marker in existing:
        start = existing.index(marker)
        end = existing.find("\n## ", start + 1)
        existing = existing[:start] + section + ("\n" + existing[end + 1:] if end >= 0 else "")
    else:
        existing = existing.rstrip("\n") + "\n\n" + section
    open(path, "w").write(existing)


def time_requests(port, path, body_path, repeats):
    """Median milliseconds of `repeats` sequential requests on one keep-alive connection."""
    import http.client
    body = open(body_path, "rb").read()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        connection.request("POST", path, body=body, headers={"Content-Type": "application/json"})
        response = connection.getresponse()
        response.read()
        if response.status != 200:
            raise RuntimeError(f"{path}: {response.status}")
        times.append((time.perf_counter() - start) * 1000)
    connection.close()
    return statistics.median(times)


def write_scaling_report(args):
    """Ms per request end to end at 10^3 ... 10^6 elements; 10x the elements should cost at most 12x."""
    sizes = [1_000, 10_000, 100_000, 1_000_000]
    cases = [
        ("flow layout (items)", "/v1/flow/layout", lambda n: flow_body(n)),
        ("outline expansion, flat chain (nodes)", "/v1/outline/expansion",
         lambda n: {"parentKey": "parent", "selection": n - 1,
                    "nodes": [{"id": i, "parent": i - 1 if i else None} for i in range(n)]}),
        ("outline expansion, nested (nodes)", "/v1/outline/expansion",
         lambda n: {"nodes": nested_tree(n), "selection": n - 1}),
    ]
    port = free_port()
    trellis = start_trellis(port, args.threads, 256 << 20)
    lines = [
        "## Scaling",
        "",
        "- Command: `make bench` (one keep-alive connection, sequential requests, median of 5 after one warm-up)",
        f"- Date: {datetime.date.today().isoformat()}; machine as above",
        "",
        "| workload | " + " | ".join(f"{n:,} ms" for n in sizes) + " | worst 10x step |",
        "|---|" + "---:|" * (len(sizes) + 1),
    ]
    try:
        for name, path, make in cases:
            times = []
            for n in sizes:
                body = write_body("scale", make(n))
                time_requests(port, path, body, 1)
                times.append(time_requests(port, path, body, 5))
            steps = [b / a for a, b in zip(times, times[1:]) if a and b]
            cells = " | ".join(f"{t:.2f}" if t is not None else "over the limit" for t in times)
            lines.append(f"| {name} | {cells} | {max(steps):.1f}x |")
            print(f"scaling {name}: {cells}", flush=True)
    finally:
        stop(trellis)
    replace_section(args.output, "## Scaling", "\n".join(lines) + "\n")


# Targets for Trellis's time over the parse limit, where one is set.
PARSE_TARGETS = {"outline expansion, 1,000,000-node flat chain": 4, "outline expansion, 100,000 nodes nested": 4,
                 "outline rows search, 1,000,000-node flat tree": 6}


def write_parse_limit_report(args):
    """Each large workload alone on one keep-alive connection (median of 5 after one warm-up) beside the time
    simdjson's DOM parser takes for the same body (bench/parse-limit.cpp, best of 15), both in this run."""
    lines = [
        "## Parse limit",
        "",
        "- Command: `make bench` (each flow and outline body of 256 KiB or more sent alone on one keep-alive connection, median of 5 "
        "after one warm-up, beside `.build/parse-limit BODY 15`: simdjson's DOM parse of the same bytes, best of 15)",
        f"- Date: {datetime.date.today().isoformat()}; {os.cpu_count()} CPUs, {cpu_model()}; "
        f"load average {os.getloadavg()[0]:.1f} before",
        "",
        "| workload | body bytes | parse ms | Trellis ms | × parse | target |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    port = free_port()
    trellis = start_trellis(port, args.threads, 64 << 20)
    try:
        for name, method, path, body, _, _ in workloads():
            # Text is bound by shaping, not by reading: its rows are left out.
            if body is None or os.path.getsize(body) < 256 << 10 or path.startswith("/v1/text") or \
                    (args.only and args.only not in name):
                continue
            parse = float(subprocess.run([PARSE_LIMIT, body, "15"], capture_output=True, text=True, check=True).stdout)
            time_requests(port, path, body, 1)
            alone = time_requests(port, path, body, 5)
            target = PARSE_TARGETS.get(name)
            lines.append(f"| {name} | {os.path.getsize(body):,} | {parse:.2f} | {alone:.2f} | {alone / parse:.1f} | "
                         f"{f'≤ {target}' if target else '—'} |")
            print(f"parse limit {name}: parse {parse:.2f} ms, Trellis {alone:.2f} ms, {alone / parse:.1f}×", flush=True)
    finally:
        stop(trellis)
    replace_section(args.output, "## Parse limit", "\n".join(lines) + "\n")


def write_json_report(args):
    table = subprocess.run([os.path.join(ROOT, ".build", "release", "TrellisJSONBench")], capture_output=True,
                           text=True, check=True).stdout.strip()
    section = "\n".join([
        "## JSON layer",
        "",
        "- Command: `make bench` (runs `.build/release/TrellisJSONBench`: 1 MiB of `{\"id\",\"width\",\"height\"}` objects, median of 21)",
        f"- Date: {datetime.date.today().isoformat()}; machine as above",
        "",
        "| what | MB/s |",
        "|---|---:|",
        table,
    ]) + "\n"
    replace_section(args.output, "## JSON layer", section)
    print(table)


def cpu_model():
    for line in open("/proc/cpuinfo"):
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor()


def write_report(args, rows):
    command = "make bench" if len(sys.argv) == 1 else "bench/run.py " + " ".join(sys.argv[1:])
    lines = [
        "## Throughput against the bare libmicrohttpd server",
        "",
        f"- Command: `{command}` ({args.pairs} pairs of {args.duration} s, bare and Trellis alternating, medians)",
        f"- Date: {datetime.date.today().isoformat()}",
        f"- Machine: {os.cpu_count()} CPUs (`nproc`), {cpu_model()}; wrk -t1 on the same machine (loopback); "
        f"load average {args.load_before:.1f} before the run, {os.getloadavg()[0]:.1f} after",
        f"- Both servers: internal polling thread + epoll, thread pool of {args.threads}, {CONNECTION_MEMORY >> 10} KiB of connection memory (Trellis's default), keep-alive",
        f"- Trellis idle RSS: {args.idle_rss:.1f} MB (after start, before any request)",
        "",
        "| workload | connections | reply bytes | bare req/s | Trellis req/s | ratio | p99 ratio | bare p50 / p99 ms | Trellis p50 / p99 ms | Trellis peak RSS MB |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['name']} | {r['connections']} | {r['bytes']} | {r['bare_rps']:.0f} | {r['rps']:.0f} | {r['rps'] / r['bare_rps']:.2f} | "
            f"{r['p99'] / r['bare_p99']:.2f} | {r['bare_p50']:.3f} / {r['bare_p99']:.3f} | {r['p50']:.3f} / {r['p99']:.3f} | {r['rss']:.1f} |")
    # Memory for one large request: its peak above the idle process, per byte of the request.
    large = [r for r in rows if r["request_bytes"] >= 8 << 20]
    if large:
        lines.append("")
    for r in large:
        lines.append(f"- {r['name']}: peak {r['rss']:.1f} MB is {(r['rss'] - args.idle_rss) * (1 << 20) / r['request_bytes']:.1f} × "
                     f"its {r['request_bytes'] / (1 << 20):.1f} MiB body above the idle process")
    section = "\n".join(lines) + "\n"
    replace_section(args.output, "## Throughput against the bare libmicrohttpd server", section)
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
