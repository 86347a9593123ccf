#!/usr/bin/env python3
"""The cost model, measured: crafted requests against normal ones of the same endpoint and size.

The requests are the features' samples with a `group` (Sources/TrellisAPI/<Feature>/samples.json, read by
scripts/trellis_samples.py): each recipe expanded for --size bytes, with a different salt for every repetition.

One release server with one worker thread; each case's body is sent alone (a new connection each
time), and the server's CPU time (the sum of its threads' run time in /proc/PID/task/*/schedstat)
and its peak resident memory above idle (VmHWM after `clear_refs`) are read around it. A case's
ratio is its CPU per body byte over its endpoint's normal case's, in the same run; memory is peak
bytes above idle per body byte. With the list endpoint, one more row: the 16 widths case kept (`keep`) and then
named by a request of a few dozen bytes, per byte of the body that kept it (a list of at most 2 MB of text, which
half the server's list store holds). `make bench` writes the table into BENCHMARKS.md ("Cost model");
`--check` exits 1 when a crafted case passes the targets (3× the CPU per byte, 12 bytes per byte).
"""
import argparse
import json
import os
import re
import socket
import statistics
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the work tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run  # noqa: E402  (the benchmark driver's helpers; it puts scripts/ on sys.path)
from trellis_harness import Trellis, free_port  # noqa: E402
from trellis_samples import Samples  # noqa: E402

CPU_TARGET = 3.0
MEMORY_TARGET = 12.0
# Bodies smaller than this are dominated by fixed costs: their memory is given in bytes, not per byte.
SMALL = 64 << 10


def post(port, path, body):
    """Sends one request on its own connection; returns (status, answer bytes). For a 422 refused at the answer
    bound, the answer bytes are the bound: what the writer held when it stopped."""
    head = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode()
    with socket.create_connection(("127.0.0.1", port)) as s:
        try:
            s.sendall(head + body)
        except (BrokenPipeError, ConnectionResetError):
            pass  # refused before the whole body was read (503, 413): its answer may still be there
        chunks = []
        while True:
            try:
                chunk = s.recv(1 << 20)
            except ConnectionResetError:
                break
            if not chunk:
                break
            chunks.append(chunk)
    answer = b"".join(chunks)
    if not answer:
        return 0, 0  # closed without an answer
    status = int(answer.split(b" ", 2)[1])
    held = re.search(rb"The answer would be larger than (\d+) bytes", answer) if status == 422 else None
    if held:
        return status, int(held.group(1))
    return status, len(answer) - answer.index(b"\r\n\r\n") - 4


def cpu_ns(pid):
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as f:
                total += int(f.read().split()[0])
        except (FileNotFoundError, ProcessLookupError):
            pass
    return total


def status_kb(pid, field):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise RuntimeError(field)


def measure(process, port, path, bodies):
    """Median CPU seconds of one request, the peak bytes above idle, the status and the answer's size."""
    pid = process.pid
    cpus, peaks = [], []
    status = size = 0
    for body in bodies:
        time.sleep(0.6)  # the server gives back freed memory after an idle round
        idle = status_kb(pid, "VmRSS")
        with open(f"/proc/{pid}/clear_refs", "w") as f:
            f.write("5")
        before = cpu_ns(pid)
        status, size = post(port, path, body)
        cpus.append((cpu_ns(pid) - before) / 1e9)
        peaks.append(max(0, status_kb(pid, "VmHWM") - idle) * 1024)
    return statistics.median(cpus), statistics.median(peaks), status, size


# Set per repetition: every text and number that a cache could key on differs between repetitions.
SALT = 0
# The cases are the samples with a `group` (Sources/TrellisAPI/<Feature>/samples.json): each cost sample is compared
# with the last normal sample of its group before it. The table lists the features in this order, then any other.
SAMPLES = Samples()
FEATURES = ["Text", "TextLayout", "Batch", "Flow", "Sections", "Drawer", "Outline"]
# Font files a sample needs besides the default fonts come from Debian's fonts-noto-core; a sample whose files are
# not installed is left out.
NOTO_DIR = "/usr/share/fonts/truetype/noto"
DEJAVU_DIR = "/usr/share/fonts/truetype/dejavu"
# The samples left out for want of their fonts, each said once.
LEFT_OUT = set()


def font_directories(files):
    """--font-dir values for a server with DejaVu and `files` of Noto (a directory of links to them, made once)."""
    import tempfile
    folder = os.path.join(tempfile.gettempdir(), "trellis-cost-fonts-" + "-".join(f.split("-")[0] for f in files))
    os.makedirs(folder, exist_ok=True)
    for f in files:
        link = os.path.join(folder, f)
        if not os.path.exists(link):
            os.symlink(os.path.join(NOTO_DIR, f), link)
    return (DEJAVU_DIR, folder)


def cases(size):
    """(group, title, path, body bytes, is normal, the server's --font-dir list or () for the defaults, sample name) for the
    current SALT: every sample with a group, its recipe expanded for `size` bytes."""
    out = []
    measured = sorted((s for s in SAMPLES.samples if s.group),
                      key=lambda s: FEATURES.index(s.folder) if s.folder in FEATURES else len(FEATURES))
    for sample in measured:
        if not all(os.path.exists(os.path.join(NOTO_DIR, f)) for f in sample.fonts):
            if sample.name not in LEFT_OUT:
                LEFT_OUT.add(sample.name)
                print(f"left out: {sample.name} (needs {', '.join(sample.fonts)} of fonts-noto-core, not installed)", file=sys.stderr)
            continue
        dirs = font_directories(sample.fonts) if sample.fonts else ()
        for path in sample.paths:
            out.append((sample.group, sample.title, path, SAMPLES.body(sample, size, SALT), sample.kind == "normal", dirs,
                        sample.name))
    return out


def row_of(endpoint, name, size, cpu, peak, status, answer, is_normal, normal, sent=None):
    """A table row, printed: the request's CPU and memory per byte of `size` (its body's, or the body it stands for;
    `sent`, the body's own bytes when it stands for another, which its working memory leaves out)."""
    per_mb = cpu / (size / 1e6)
    row = {"endpoint": endpoint, "case": name, "bytes": size, "status": status, "answer": answer,
           "cpu_ms": cpu * 1000, "cpu_s_per_mb": per_mb, "ratio": per_mb / normal.get(endpoint, per_mb),
           "peak": peak, "peak_per_byte": peak / size if size >= SMALL else None,
           "working_per_byte": (peak - (size if sent is None else sent) - answer) / size if size >= SMALL else None,
           "normal": is_normal}
    memory = (f"{row['peak_per_byte']:6.2f} B/B (working {row['working_per_byte']:6.2f}, answer {answer / size:5.2f})"
              if row["peak_per_byte"] is not None else f"{peak / 1e6:6.2f} MB")
    print(f"{endpoint:18} {name:44} {size:>9} B  {status}  {cpu * 1000:9.2f} ms  {per_mb:8.3f} s/MB"
          f"  ×{row['ratio']:6.2f}  {memory}", flush=True)
    return row


# A kept list's shaping is about 30 bytes a scalar: a list of 2 MB of text is about 60 MB, within half the store.
NAMED_LIST_BYTES = 2_000_000


def named_list_row(server, size, repeats, normal):
    """The list sample at 16 widths, kept (`keep`, not measured) and then named at its 16 widths (measured): the named
    request's CPU and memory per byte of the body that kept it (its own body is a few dozen bytes). Each repeat keeps
    its own salted list."""
    import http.client
    global SALT
    sample = next(s for s in SAMPLES.samples if s.group == "list" and s.name == "bench-16-widths")
    cpus, peaks = [], []
    status = answer = 0
    body = ask = b""
    for repeat in range(repeats):
        SALT = 100 + repeat
        kept = json.loads(SAMPLES.body(sample, size, SALT))
        kept["keep"] = True
        body = json.dumps(kept).encode()
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=600)
        connection.request("POST", sample.paths[0], body, {"Content-Type": "application/json"})
        name = json.loads(connection.getresponse().read())["list"]
        connection.close()
        if name is None:
            sys.exit("cost.py: the server did not keep the list for the named-list row")
        ask = json.dumps({"list": name, "widths": kept["widths"]}).encode()
        cpu, peak, status, answer = measure(server.process, server.port, sample.paths[0], [ask])
        cpus.append(cpu)
        peaks.append(peak)
    return row_of("list", f"{sample.title}, the list kept and named (per byte of the body that kept it)", len(body),
                  statistics.median(cpus), statistics.median(peaks), status, answer, False, normal, sent=len(ask))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=1 << 20, help="body bytes of the large cases")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", help="write the rows as JSON here")
    parser.add_argument("--check", action="store_true", help="exit 1 when a crafted case passes the targets")
    parser.add_argument("--only", help="endpoints to run, comma-separated")
    parser.add_argument("--cases", help="only these samples (by name, comma-separated) besides each group's normal one; "
                        "for measuring a few rows, not for --write")
    parser.add_argument("--binary", default=run.TRELLIS, help="the trellis binary (default: the release build)")
    parser.add_argument("--write", help="write the table as the section \"Cost model\" of this Markdown file")
    parser.add_argument("--section", default="Cost model",
                        help="the section's title (a run of some endpoints with --only writes its own section)")
    parser.add_argument("--concurrent", action="store_true",
                        help="also six concurrent worst-case requests per endpoint with the Kubernetes settings")
    args = parser.parse_args()
    def start(font_dirs=()):
        return Trellis(args.binary, "--threads", 1, "--max-body-bytes", 64 << 20, "--memory-budget", 8 << 30,
                       # No deadline: on a busy machine a normal 8 MB text request may pass the default's 5 s of wall time.
                       "--request-timeout", 0, *[a for d in font_dirs for a in ("--font-dir", d)])
    server = start()
    # Cases in scripts the default fonts lack run on a server with those fonts too (the same binary and flags).
    servers = {(): server}
    rows = []
    try:
        normal = {}
        global SALT
        runs = []
        for repeat in range(args.repeats):
            SALT = repeat + 1
            runs.append([c for c in cases(args.size) if (not args.only or any(c[0].startswith(o) for o in args.only.split(",")))
                         and (not args.cases or c[4] or c[6] in args.cases.split(","))])
        for k, (endpoint, name, path, body, is_normal, font_dirs, _) in enumerate(runs[0]):
            if font_dirs not in servers:
                servers[font_dirs] = start(font_dirs)
            chosen = servers[font_dirs]
            cpu, peak, status, answer = measure(chosen.process, chosen.port, path, [r[k][3] for r in runs])
            if is_normal:
                normal[endpoint] = cpu / (len(body) / 1e6)
            rows.append(row_of(endpoint, name, len(body), cpu, peak, status, answer, is_normal, normal))
        if "list" in normal and not args.cases:
            rows.append(named_list_row(server, min(args.size, NAMED_LIST_BYTES), args.repeats, normal))
    finally:
        for running in servers.values():
            running.stop()
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    crowd = concurrent_worst(args.binary, args.size) if args.concurrent else []
    if args.write:
        if args.cases:
            sys.exit("--cases measures a few rows: a section is written from every case of its groups")
        write_section(args, rows, crowd)
    if args.check:
        bad = [r for r in rows if not r["normal"] and (r["ratio"] > CPU_TARGET or (r["peak_per_byte"] or 0) > MEMORY_TARGET)]
        for r in bad:
            print(f"past the targets: {r['endpoint']}: {r['case']}", file=sys.stderr)
        sys.exit(1 if bad else 0)


# The Kubernetes kit's settings (deploy/kubernetes/configmap.yaml) and the pod's memory limit.
KUBE_FLAGS = ["--threads", "2", "--memory-budget", str(128 << 20), "--connection-memory", str(64 << 10)]
KUBE_LIMIT = 512 << 20


def concurrent_worst(binary, size):
    """Six concurrent worst-case requests of each endpoint on a server with the Kubernetes settings: their
    statuses and the peak RSS; then /healthz's answer time while two of them run."""
    import threading
    worst = {}
    global SALT
    SALT = 99
    for endpoint, name, path, body, is_normal, font_dirs, _ in cases(size):
        if not is_normal and len(body) >= SMALL:
            worst.setdefault(endpoint.split()[0], []).append((name, path, body, font_dirs))
    out = []
    for endpoint, candidates in worst.items():
        for name, path, body, font_dirs in candidates:
            ops = free_port()
            server = Trellis(binary, "--ops-port", ops, "--max-body-bytes", 16 << 20, *KUBE_FLAGS,
                             *[a for d in font_dirs for a in ("--font-dir", d)])
            port = server.port
            try:
                statuses = []
                threads = [threading.Thread(target=lambda: statuses.append(post(port, path, body)[0])) for _ in range(6)]
                for t in threads:
                    t.start()
                for t in threads:
                    t.join()
                peak = status_kb(server.pid, "VmHWM") * 1024
                # /healthz while two of them run, where the kubelet asks: on the operations port.
                busy = [threading.Thread(target=lambda: post(port, path, body)) for _ in range(2)]
                for t in busy:
                    t.start()
                time.sleep(0.05)
                started = time.time()
                with socket.create_connection(("127.0.0.1", ops), timeout=30) as s:
                    s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                    s.recv(4096)
                health = time.time() - started
                for t in busy:
                    t.join()
            finally:
                server.stop()
            out.append({"endpoint": endpoint, "case": name, "bytes": len(body), "statuses": sorted(statuses),
                        "peak": peak, "healthz": health})
            print(f"{endpoint:18} {name:44} six at once: {sorted(statuses)} peak {peak / 2**20:.0f} MiB; "
                  f"/healthz beside two: {health * 1000:.0f} ms", flush=True)
    return out


def write_section(args, rows, crowd):
    import datetime
    import platform
    load = os.getloadavg()
    lines = [
        f"## {args.section}",
        "",
        f"`python3 bench/cost.py --size {args.size} --repeats {args.repeats}"
        + (f" --only {args.only} --section '{args.section}'" if args.only else "")
        + "` (part of `make bench`), "
        f"{datetime.date.today().isoformat()}, {run.cpu_model()}, {os.cpu_count()} cores, {platform.system()} "
        f"{platform.release()}, load average {load[0]:.1f} at the end. One release server with one worker "
        "thread with the default answer bound (16 × the body + 1 MiB: a case whose answer would pass it is "
        "answered 422 once it has written that much, as the service answers it); the requests are the features' "
        "samples with a group (`Sources/TrellisAPI/<Feature>/samples.json`) at this size, each body sent alone, its "
        "texts and numbers changed between repetitions (the recipes' salt) so that no cache helps; "
        "the medians of the repetitions. CPU is the server's (its threads' run time); memory is the peak resident "
        "set above idle, per body byte, and the working memory is that peak less the body and the answer (for a "
        "422 refused at the answer bound, the bound: the answer the writer held when it stopped) "
        "(what the endpoint reserves per byte). The ratio is CPU per MB over the endpoint's normal request "
        f"in the same run; the targets are at most {CPU_TARGET:g}× and {MEMORY_TARGET:g} bytes of working memory "
        "per body byte. Bodies under 64 KiB give their peak in MB instead (their cost is the request's fixed part).",
        "",
        "| endpoint | request | body | status | CPU ms | CPU s/MB | × normal | peak B/B | working B/B | answer B/B |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        if r["peak_per_byte"] is None:
            memory = f"{r['peak'] / 1e6:.2f} MB | — | —"
        else:
            memory = f"{r['peak_per_byte']:.2f} | {r['working_per_byte']:.2f} | {r['answer'] / r['bytes']:.2f}"
        lines.append(f"| {r['endpoint']} | {r['case']} | {r['bytes']:,} | {r['status']} | {r['cpu_ms']:.2f} | "
                     f"{r['cpu_s_per_mb']:.3f} | {r['ratio']:.2f} | {memory} |")
    if crowd:
        lines += [
            "",
            f"Six at once, with the Kubernetes kit's settings (`{' '.join(KUBE_FLAGS)}`; the pod's limit is "
            f"{KUBE_LIMIT >> 20} MiB): each crafted request above of 64 KiB or more sent six times concurrently to a "
            "fresh server, the statuses (503: the working memory did not fit the budget; 0: closed without an answer) and the peak RSS; then "
            "`GET /healthz` on the operations port (`--ops-port`, where the kit's probes ask) while two of them run.",
            "",
            "| endpoint | request | statuses | peak RSS | /healthz beside two |",
            "|---|---|---|---:|---:|",
        ]
        for c in crowd:
            lines.append(f"| {c['endpoint']} | {c['case']} | {' '.join(map(str, c['statuses']))} | "
                         f"{c['peak'] / 2**20:.0f} MiB | {c['healthz'] * 1000:.0f} ms |")
    run.replace_section(args.write, f"## {args.section}", "\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
