#!/usr/bin/env python3
"""User fonts: storing a font file (PUT /v1/fonts/{id}, sanitizing included) and text requests in an uploaded font
against the same requests in the same font installed with --font-dir.

Workloads (the targets in brackets):
- storing: each file PUT to a fresh server (the release build), timed from the request to the answer on a
  keep-alive connection opened before it: reading the body, hashing it, ots-sanitize in its bounded subprocess,
  HarfBuzz's metadata of the sanitized faces and the store [≤ 50 ms for a 230 KB-class WOFF2]; beside it
  `ots-sanitize` alone on the same file (the subprocess's share);
- uploaded against installed: Roboto (static) and Debian's Inter variable (roman) installed by --font-dir (the
  server's only fonts, --no-default-fonts) and the same files uploaded and declared in `fontFaces`, the same text
  measure and paragraph layout at weight 400 in each (the same face at the same instance: the answers must be the
  same bytes), under wrk (keep-alive), installed and uploaded alternating, the server's CPU per request read during
  each run [uploaded ≤ 1.1 × the CPU of installed].

- the cost model's rows for fonts: crafted uploads against a normal one (Inter's WOFF2), the server's CPU and its
  sanitizer's (the subprocess's CPU, read from the server's waited-for children) and the peak resident memory above
  idle; and a text request whose bytes are mostly `fontFaces` rules against a normal text request of the same size
  [at most 3 × the normal request's CPU per body byte, as every endpoint].

Each storing figure is the median (and the worst) of --repeats fresh servers; each request figure the median of
--pairs pairs of runs of --duration seconds (installed, then uploaded), the ratio the median of the pairs' ratios. `make bench` runs it and writes the section "User fonts" of BENCHMARKS.md.

Usage: python3 bench/fonts.py [--repeats 11] [--pairs 9] [--duration 3] [--write BENCHMARKS.md]
"""
import argparse
import datetime
import hashlib
import http.client
import json
import os
import pathlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the work tree
HERE = pathlib.Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "scripts")]
import run  # noqa: E402  (the benchmark's helpers)
import cost  # noqa: E402  (the cost model's CPU and memory readings)
from trellis_harness import Trellis  # noqa: E402

ROOT = HERE.parent
INTER_ROMAN = pathlib.Path("/usr/share/fonts/truetype/inter-vf/Inter-roman.var.ttf")  # fonts-inter-variable
INTER_WOFF2 = ROOT / "Tests" / "TrellisTextTests" / "Fixtures" / "fonts" / "Inter.var.woff2"
ROBOTO = pathlib.Path("/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF/Roboto-Regular.ttf")  # fonts-roboto-unhinted
STORE_TARGET_MS = 50.0
RATIO_TARGET = 1.1
CONNECTIONS = 8
TEXT = ("Sphinx of black quartz, judge my vow: the quick brown fox jumps over the lazy dog while five boxing wizards "
        "jump quickly, and 1,234,567 typographers weigh 89 glyphs at 450 in Inter's variable font.")


def font_id(data):
    return "sha256-" + hashlib.sha256(data).hexdigest()


def store_once(data, media_type):
    """Milliseconds of one PUT of `data` to a fresh server, on a connection that has answered a GET first."""
    with Trellis(run.TRELLIS, "--threads", 2, "--max-font-bytes", 8 << 20) as trellis:
        connection = http.client.HTTPConnection("127.0.0.1", trellis.port, timeout=60)
        connection.request("GET", "/healthz")
        connection.getresponse().read()
        start = time.perf_counter()
        connection.request("PUT", "/v1/fonts/" + font_id(data), body=data, headers={"Content-Type": media_type})
        response = connection.getresponse()
        answer = response.read()
        elapsed = (time.perf_counter() - start) * 1000
        connection.close()
        if response.status != 201:
            raise RuntimeError(f"PUT answered {response.status}: {answer[:300]!r}")
        return elapsed


def sanitize_once(path, workdir):
    """Milliseconds of `ots-sanitize path out` alone (a process started and waited for)."""
    start = time.perf_counter()
    subprocess.run(["ots-sanitize", str(path), str(workdir / "out.ttf")], check=True, capture_output=True)
    return (time.perf_counter() - start) * 1000


def storing_rows(files, repeats, workdir):
    rows = []
    for name, path, media_type in files:
        data = path.read_bytes()
        store_once(data, media_type)  # warm the page cache and the binary
        times = [store_once(data, media_type) for _ in range(repeats)]
        sanitize = statistics.median(sanitize_once(path, workdir) for _ in range(repeats))
        row = {"name": name, "bytes": len(data), "median": statistics.median(times), "max": max(times),
               "sanitize": sanitize}
        rows.append(row)
        print(f"storing {name} ({len(data):,} bytes): median {row['median']:.1f} ms, worst {row['max']:.1f} ms, "
              f"ots-sanitize alone {sanitize:.1f} ms", flush=True)
    return rows


# The fonts of the request rows: (name, file, family installed, media type). Both at weight 400, where the installed
# face and the declared one are the same face at the same instance, so the answers must be the same bytes: Chromium's
# @font-face sets a variable face's axes from the request, while an installed variable font (--font-dir) is its named
# instances, so between instances the two are different text.
REQUEST_FONTS = [
    ("Roboto Regular (static TTF)", ROBOTO, "Roboto", "font/ttf"),
    ("Inter variable (roman)", INTER_ROMAN, "Inter", "font/ttf"),
]


def request_bodies(font_name, family, id):
    declared = [{"family": family + " Uploaded", "src": id, "weight": "100 900"}]
    installed_font = {"family": family, "size": 16, "weight": 400}
    uploaded_font = {"family": family + " Uploaded", "size": 16, "weight": 400}
    measure = {"texts": [TEXT]}
    layout = {"texts": [TEXT], "width": 240}
    return [
        (f"{font_name}: text measure, 200 characters", "/v1/text/measure",
         dict(measure, font=installed_font), dict(measure, font=uploaded_font, fontFaces=declared)),
        (f"{font_name}: paragraph layout, 200 characters at 240 px", "/v1/text/layout",
         dict(layout, font=installed_font), dict(layout, font=uploaded_font, fontFaces=declared)),
    ]


def request_rows(args, workdir):
    fonts = workdir / "fonts"
    fonts.mkdir()
    uploads = []
    bodies = []
    for font_name, path, family, media_type in REQUEST_FONTS:
        shutil.copy(path, fonts / path.name)
        data = path.read_bytes()
        uploads.append((font_id(data), data, media_type))
        bodies += request_bodies(font_name, family, font_id(data))
    rows = []
    port = run.free_port()
    # Only these fonts are loaded: the generic names must mean one of them (a generic family no loaded face has exits 2).
    generics = [a for flag in ("--font-sans-serif", "--font-serif", "--font-monospace", "--font-system-ui") for a in (flag, "Roboto")]
    flags = ["--threads", args.threads, "--no-default-fonts", "--font-dir", fonts, "--max-font-bytes", 8 << 20, *generics]

    def start():
        trellis = Trellis(run.TRELLIS, *flags, port=port)
        for id, data, media_type in uploads:
            status, _, answer = trellis.request("PUT", "/v1/fonts/" + id, data, {"Content-Type": media_type})
            if status != 201:
                raise RuntimeError(f"PUT answered {status}: {answer[:300]!r}")
        return trellis

    for name, path, installed, uploaded in bodies:
        scripts = []
        with start() as trellis:
            for which, body in (("installed", installed), ("uploaded", uploaded)):
                status, _, answer = trellis.post(path, body)
                if status != 200:
                    raise RuntimeError(f"{name}, {which}: {status} {answer}")
                scripts.append((which, answer, run.lua_script(f"font_{which}", "POST", path,
                                                              run.write_body(f"font_{which}", body))))
        same = scripts[0][1] == scripts[1][1]
        runs = {"installed": [], "uploaded": []}
        for _ in range(args.pairs):
            with start() as trellis:
                for which, _, script in scripts:
                    # The server's own CPU per request during the run: what a request costs, which the throughput
                    # of this shared 2-core machine shows only through the other processes' noise.
                    before = cost.cpu_ns(trellis.pid)
                    rps, p50, p99 = run.run_wrk(port, script, args.duration, CONNECTIONS)
                    cpu_us = (cost.cpu_ns(trellis.pid) - before) / 1e3 / max(1.0, rps * args.duration)
                    runs[which].append((rps, p50, p99, cpu_us))
        median = {which: statistics.median(r[0] for r in runs[which]) for which in runs}
        p50 = {which: statistics.median(r[1] for r in runs[which]) for which in runs}
        cpu = {which: statistics.median(r[3] for r in runs[which]) for which in runs}
        # The ratio of each pair (the two runs one after the other on one server), then their median: a burst of
        # another process's work on this shared machine then skews one pair, not a side's median.
        ratios = [i[0] / u[0] for i, u in zip(runs["installed"], runs["uploaded"])]
        cpu_ratios = [u[3] / i[3] for i, u in zip(runs["installed"], runs["uploaded"])]
        row = {"name": name, "installed": median["installed"], "uploaded": median["uploaded"],
               "installed_p50": p50["installed"], "uploaded_p50": p50["uploaded"],
               "installed_cpu": cpu["installed"], "uploaded_cpu": cpu["uploaded"],
               "ratio": statistics.median(ratios), "cpu_ratio": statistics.median(cpu_ratios), "same": same}
        rows.append(row)
        print(f"{name}: installed {row['installed']:.0f} req/s {row['installed_cpu']:.1f} µs CPU, uploaded "
              f"{row['uploaded']:.0f} req/s {row['uploaded_cpu']:.1f} µs CPU; uploaded costs {row['cpu_ratio']:.2f} × the "
              f"CPU, takes {row['ratio']:.2f} × the time (answers {'the same' if same else 'DIFFERENT'})", flush=True)
    return rows


def request_cpu_rows(repeats, workdir):
    """The server's CPU per MB of a large text measure (4,000 different texts of about 200 characters) in each font
    installed and uploaded, at weight 400 (the same answers) and for Inter also at 450 (the installed font's Medium
    instance, the declared one at wght 450): the shaping's own cost, without the per-request fixed part that
    dominates the wrk rows; one server with one worker, medians of `repeats` bodies with different texts."""
    fonts = workdir / "cpu-fonts"
    fonts.mkdir()
    words = TEXT.split()
    generics = [a for flag in ("--font-sans-serif", "--font-serif", "--font-monospace", "--font-system-ui") for a in (flag, "Roboto")]
    rows = []
    for font_name, path, family, media_type in REQUEST_FONTS:
        shutil.copy(path, fonts / path.name)
    with Trellis(run.TRELLIS, "--threads", 1, "--no-default-fonts", "--font-dir", fonts, "--max-body-bytes", 64 << 20,
                 "--request-timeout", 0, *generics) as trellis:
        for font_name, path, family, media_type in REQUEST_FONTS:
            data = path.read_bytes()
            id = font_id(data)
            status, _, answer = trellis.request("PUT", "/v1/fonts/" + id, data, {"Content-Type": media_type})
            if status != 201:
                raise RuntimeError(f"PUT answered {status}: {answer[:300]!r}")
            for weight in ((400, 450) if "variable" in font_name else (400,)):
                per_mb = {"installed": [], "uploaded": []}
                for repeat in range(repeats):
                    for which in per_mb:
                        # Texts no earlier body had: the shared measure cache must not answer them.
                        salt = weight * 100 + repeat * 2 + (which == "uploaded")
                        texts = [" ".join(words[(i + salt) % len(words):] + words[:(i + salt) % len(words)]) + f" {i}.{salt}"
                                 for i in range(4000)]
                        body = {"font": {"family": family, "size": 16, "weight": weight}, "texts": texts}
                        if which == "uploaded":
                            body["font"]["family"] = family + " Uploaded"
                            body["fontFaces"] = [{"family": family + " Uploaded", "src": id, "weight": "100 900"}]
                        encoded = json.dumps(body).encode()
                        before = cost.cpu_ns(trellis.pid)
                        status, _ = cost.post(trellis.port, "/v1/text/measure", encoded)
                        if status != 200:
                            raise RuntimeError(f"{font_name} {which}: {status}")
                        per_mb[which].append((cost.cpu_ns(trellis.pid) - before) / 1e9 / (len(encoded) / 1e6))
                row = {"name": f"{font_name}, weight {weight}", "installed": statistics.median(per_mb["installed"]),
                       "uploaded": statistics.median(per_mb["uploaded"])}
                row["ratio"] = row["uploaded"] / row["installed"]
                rows.append(row)
                print(f"text measure CPU, {row['name']}: installed {row['installed']:.3f} s/MB, uploaded "
                      f"{row['uploaded']:.3f} s/MB, {row['ratio']:.2f} ×", flush=True)
            # The fixed part: the same small request (one text, answered by the measure cache after the first) sent
            # on one keep-alive connection; the server's CPU per request.
            per_request = {"installed": [], "uploaded": []}
            connection = http.client.HTTPConnection("127.0.0.1", trellis.port, timeout=60)
            # Rounds of 500 requests each way, alternating: a burst of another process's work skews one round.
            for _ in range(4 * repeats + 1):
                for which in per_request:
                    body = {"font": {"family": family, "size": 16, "weight": 400}, "texts": [TEXT]}
                    if which == "uploaded":
                        body["font"]["family"] = family + " Uploaded"
                        body["fontFaces"] = [{"family": family + " Uploaded", "src": id, "weight": "100 900"}]
                    encoded = json.dumps(body)
                    before = cost.cpu_ns(trellis.pid)
                    for _ in range(500):
                        connection.request("POST", "/v1/text/measure", encoded, {"Content-Type": "application/json"})
                        response = connection.getresponse()
                        response.read()
                    per_request[which].append((cost.cpu_ns(trellis.pid) - before) / 500 / 1e3)
            connection.close()
            row = {"name": f"{font_name}, weight 400, one text of 200 characters (µs per request)", "per_request": True,
                   "installed": statistics.median(per_request["installed"]), "uploaded": statistics.median(per_request["uploaded"])}
            # The median of the rounds' ratios (each round's two halves ran one after the other).
            row["ratio"] = statistics.median(u / i for i, u in zip(per_request["installed"], per_request["uploaded"]))
            rows.append(row)
            print(f"text measure CPU per small request, {font_name}: installed {row['installed']:.1f} µs, uploaded "
                  f"{row['uploaded']:.1f} µs, {row['ratio']:.2f} ×", flush=True)
    return rows


def children_cpu_s(pid):
    """CPU seconds of the process's waited-for children (the sanitizer runs): cutime + cstime, in clock ticks."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")


def crafted_fonts(workdir):
    """The crafted uploads, made with fontTools: a collection of 16 faces that share every table (16 runs of the
    sanitizer, each writing the whole face, for the bytes of one), and WOFF2 files whose one extra table is 4 or
    6 MB of zeros (52 KB sent; the sanitizer decompresses 4 MB and drops the unknown table, or refuses 6 MB as an
    implausible compression ratio)."""
    from fontTools.ttLib import TTCollection, TTFont, newTable
    collection = TTCollection()
    collection.fonts = [TTFont(INTER_ROMAN) for _ in range(16)]
    shared = workdir / "inter-16-faces.ttc"
    collection.save(str(shared), shareTables=True)
    bombs = []
    for megabytes in (4, 6):
        font = TTFont(ROOT / "Tests" / "TrellisAPITests" / "Fonts" / "Fixtures" / "inter-latin.ttf")
        table = newTable("zzzz")
        table.data = bytes(megabytes << 20)
        font["zzzz"] = table
        font.flavor = "woff2"
        bombs.append(workdir / f"zeros-{megabytes}mb.woff2")
        font.save(str(bombs[-1]))
    return [
        ("normal: Inter variable (roman), WOFF2", workdir / "Inter-roman.var.woff2", "font/woff2"),
        ("Inter variable (roman), TTF", INTER_ROMAN, "font/ttf"),
        ("a collection of 16 faces sharing every table (Inter variable)", shared, "font/collection"),
        ("a WOFF2 with a 4 MB table of zeros (decompressed 80 × its size)", bombs[0], "font/woff2"),
        ("a WOFF2 with a 6 MB table of zeros (past libwoff2's plausible ratio, 100)", bombs[1], "font/woff2"),
        ("IPAGothic, 6 MB TTF", pathlib.Path("/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf"), "font/ttf"),
    ]


def upload_cost_rows(files, repeats):
    """Each file PUT to a fresh server: the server's CPU, its sanitizer's, the wall time and the peak RSS above idle."""
    rows = []
    for name, path, media_type in files:
        data = path.read_bytes()
        samples = []
        for _ in range(repeats):
            with Trellis(run.TRELLIS, "--threads", 1, "--max-font-bytes", 8 << 20) as trellis:
                pid = trellis.pid
                time.sleep(0.3)
                idle = cost.status_kb(pid, "VmRSS")
                with open(f"/proc/{pid}/clear_refs", "w") as f:
                    f.write("5")
                cpu, children = cost.cpu_ns(pid), children_cpu_s(pid)
                start = time.perf_counter()
                status, _, answer = trellis.request("PUT", "/v1/fonts/" + font_id(data), data, {"Content-Type": media_type},
                                                    timeout=60)
                wall = time.perf_counter() - start
                samples.append({"status": status, "server": (cost.cpu_ns(pid) - cpu) / 1e9,
                                "sanitizer": children_cpu_s(pid) - children, "wall": wall,
                                "peak": max(0, cost.status_kb(pid, "VmHWM") - idle) * 1024,
                                "sanitized": json.loads(answer).get("sanitizedSize", 0) if status in (200, 201) else 0})
        row = {"name": name, "bytes": len(data), "status": samples[0]["status"],
               **{key: statistics.median(s[key] for s in samples) for key in ("server", "sanitizer", "wall", "peak", "sanitized")}}
        row["cpu_per_mb"] = (row["server"] + row["sanitizer"]) / (len(data) / 1e6)
        rows.append(row)
        print(f"upload {name}: {len(data):,} B, {row['status']}, server {row['server'] * 1000:.1f} ms + sanitizer "
              f"{row['sanitizer'] * 1000:.0f} ms CPU, {row['wall'] * 1000:.0f} ms, peak {row['peak'] / 1e6:.1f} MB, "
              f"sanitized {row['sanitized']:,} B", flush=True)
    return rows


def faces_cost_rows(repeats, size=1 << 20):
    """A text request whose bytes are mostly fontFaces (256 rules over one stored font, each with a unicode-range of
    256 ranges, the most the limits take, the rest short texts) against a normal text request of about the same size
    (texts of 200 characters in DejaVu Sans): CPU per body byte and the ratio, on one server with one worker."""
    data = (ROOT / "Tests" / "TrellisAPITests" / "Fonts" / "Fixtures" / "inter-latin.woff2").read_bytes()
    id = font_id(data)
    words = TEXT.split()
    rows = []
    with Trellis(run.TRELLIS, "--threads", 1, "--max-body-bytes", 64 << 20, "--request-timeout", 0) as trellis:
        status, _, answer = trellis.request("PUT", "/v1/fonts/" + id, data, {"Content-Type": "font/woff2"})
        if status != 201:
            raise RuntimeError(f"PUT answered {status}: {answer[:300]!r}")

        def normal(salt):
            # At most 10,000 texts of 1,000 scalars: texts of about 200 bytes, their words rotated by the salt.
            texts = [" ".join(words[(i + salt):] + words[:(i + salt)]) + f" {i}" for i in range(size // 210)]
            return json.dumps({"font": {"family": "DejaVu Sans", "size": 16}, "texts": texts}).encode()

        def faces(salt):
            ranges = ", ".join(f"U+{0x100 + 3 * k + salt:X}-{0x100 + 3 * k + salt + 1:X}" for k in range(255))
            rules = [{"family": f"Face {r}", "src": id, "weight": f"{100 + r % 800} 900", "style": "oblique 0deg 20deg",
                      "stretch": "75% 125%", "unicodeRange": "U+0000-00FF, " + ranges,
                      "featureSettings": '"liga" 0, "tnum", "ss01"', "variationSettings": '"wght" 500'}
                     for r in range(256)]
            family = ", ".join(f"Face {r}" for r in range(256))
            body = {"font": {"family": family, "size": 16, "weight": 450}, "fontFaces": rules, "texts": []}
            base = len(json.dumps(body))
            body["texts"] = [f"Hello {i + salt}" for i in range(min(10_000, max(1, (size - base) // 12)))]
            return json.dumps(body).encode()

        for name, make in (("normal: labels in DejaVu Sans", normal),
                           ("256 fontFaces rules, each with 256 unicode ranges, one family list naming them all", faces)):
            cpus, statuses, lengths = [], [], []
            for salt in range(1, repeats + 1):
                body = make(salt)
                before = cost.cpu_ns(trellis.pid)
                status, _ = cost.post(trellis.port, "/v1/text/measure", body)
                cpus.append((cost.cpu_ns(trellis.pid) - before) / 1e9)
                statuses.append(status)
                lengths.append(len(body))
            row = {"name": name, "bytes": statistics.median(lengths), "status": statuses[0], "cpu": statistics.median(cpus)}
            row["cpu_per_mb"] = row["cpu"] / (row["bytes"] / 1e6)
            rows.append(row)
    for row in rows:
        row["ratio"] = row["cpu_per_mb"] / rows[0]["cpu_per_mb"]
        print(f"text measure, {row['name']}: {row['bytes']:,} B, {row['status']}, {row['cpu'] * 1000:.1f} ms, "
              f"{row['cpu_per_mb']:.3f} s/MB, {row['ratio']:.2f} × normal", flush=True)
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=11)
    parser.add_argument("--pairs", type=int, default=9)
    parser.add_argument("--duration", type=int, default=3)
    parser.add_argument("--threads", type=int, default=os.cpu_count())
    parser.add_argument("--cost-repeats", type=int, default=3, help="repetitions of each cost case (medians)")
    parser.add_argument("--skip", default="", help="parts to leave out, comma-separated: storing, requests, cost")
    parser.add_argument("--write", help="write the section \"User fonts\" of this Markdown file")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    workdir = pathlib.Path(tempfile.mkdtemp(prefix="trellis-bench-fonts-"))
    try:
        shutil.copy(INTER_ROMAN, workdir)
        subprocess.run(["woff2_compress", str(workdir / INTER_ROMAN.name)], check=True, capture_output=True)
        files = [
            ("Inter variable (roman), WOFF2 from Debian's TTF by woff2_compress", workdir / "Inter-roman.var.woff2", "font/woff2"),
            ("Inter variable (roman and italic), WOFF2 (the fixtures' Inter.var.woff2)", INTER_WOFF2, "font/woff2"),
            ("Inter variable (roman), Debian's TTF", INTER_ROMAN, "font/ttf"),
            ("Roboto Regular, Debian's TTF", ROBOTO, "font/ttf"),
        ]
        skip = set(filter(None, args.skip.split(",")))
        stored = storing_rows(files, args.repeats, workdir) if "storing" not in skip else []
        requests = request_rows(args, workdir) if "requests" not in skip else []
        request_cpu = request_cpu_rows(args.cost_repeats, workdir) if "requests" not in skip else []
        uploads = upload_cost_rows(crafted_fonts(workdir), args.cost_repeats) if "cost" not in skip else []
        faces = faces_cost_rows(args.cost_repeats) if "cost" not in skip else []
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    if not args.write:
        return
    command = "python3 bench/fonts.py" + "".join(
        f" --{name} {value}" for name, value, default in
        (("repeats", args.repeats, 11), ("pairs", args.pairs, 9), ("duration", args.duration, 3),
         ("cost-repeats", args.cost_repeats, 3), ("skip", args.skip, "")) if value != default)
    lines = [
        "## User fonts",
        "",
        f"- Command: `{command}` (part of `make bench`), the release build",
        f"- Date: {datetime.date.today().isoformat()}; {os.cpu_count()} CPUs, {run.cpu_model()}; load average {load:.1f} before, "
        f"{os.getloadavg()[0]:.1f} after",
        f"- Storing: `PUT /v1/fonts/{{id}}` to a fresh server, from the request to the answer on a keep-alive connection "
        f"(reading, hashing, `ots-sanitize` in its bounded subprocess, the faces' metadata, the store); median and worst "
        f"of {args.repeats} servers; `ots-sanitize` alone: the same file sanitized by the CLI, median of {args.repeats}",
        "",
        "| file | bytes | median ms | worst ms | ots-sanitize alone ms | target |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for row in stored:
        target = f"≤ {STORE_TARGET_MS:g} ms" if "woff2_compress" in row["name"] else "—"
        lines.append(f"| {row['name']} | {row['bytes']:,} | {row['median']:.1f} | {row['max']:.1f} | {row['sanitize']:.1f} | {target} |")
    lines += [
        "",
        f"- Requests: each font at weight 400, 16 px, installed (`--no-default-fonts --font-dir`) and the same file "
        f"uploaded and declared in `fontFaces` (weight 100 900), on one server; wrk -t1 -c{CONNECTIONS}, keep-alive, "
        f"{args.pairs} pairs of runs of {args.duration} s, installed then uploaded on one server, medians; CPU is the "
        f"server's own per request during the run (what a request costs; the target is its ratio); each ratio is the "
        f"median of the pairs' ratios; the answers compared byte for byte",
        "",
        "| workload | installed req/s | uploaded req/s | installed / uploaded p50 ms | installed / uploaded CPU µs | "
        "uploaded time × installed | uploaded CPU × installed | answers | target |",
        "|---|---:|---:|---:|---:|---:|---:|---|---:|",
    ]
    for row in requests:
        lines.append(f"| {row['name']} | {row['installed']:.0f} | {row['uploaded']:.0f} | "
                     f"{row['installed_p50']:.3f} / {row['uploaded_p50']:.3f} | "
                     f"{row['installed_cpu']:.1f} / {row['uploaded_cpu']:.1f} | {row['ratio']:.2f} | {row['cpu_ratio']:.2f} | "
                     f"{'the same' if row['same'] else 'different'} | ≤ {RATIO_TARGET:g} |")
    if request_cpu:
        lines += [
            "",
            f"- Shaping's own cost: `POST /v1/text/measure` with 4,000 different texts of about 200 characters (0.8 MB), "
            f"one server with one worker, the server's CPU per MB, median of {args.cost_repeats} bodies each way; at "
            "weight 450 the installed Inter is its Medium named instance and the declared one at wght 450 (different "
            "answers: the variation's own cost). The fixed part (µs per request): one small request (its text measured once, then answered by the "
            f"measure cache) sent in {4 * args.cost_repeats + 1} rounds of 500 each way on a keep-alive connection, "
            "alternating, the server's CPU per request (medians; the ratio the median of the rounds' ratios): for the "
            "uploaded font, spelling the key of its `fontFaces` and finding the resolution the store remembers (as an "
            "installed family list's is remembered)",
            "",
            "| font | installed CPU s/MB (µs) | uploaded CPU s/MB (µs) | uploaded × installed | target |",
            "|---|---:|---:|---:|---:|",
        ]
        for row in request_cpu:
            digits = 1 if row.get("per_request") else 3
            lines.append(f"| {row['name']} | {row['installed']:.{digits}f} | {row['uploaded']:.{digits}f} | {row['ratio']:.2f} | "
                         f"≤ {RATIO_TARGET:g} |")
    if uploads:
        lines += [
            "",
            f"- Cost model, uploads: each file `PUT` to a fresh server with one worker thread, median of {args.cost_repeats}; "
            "CPU is the server's threads' and the sanitizer's (the subprocesses it waited for: clock ticks of 10 ms), "
            "per MB sent; peak is the server's resident memory above idle (the sanitizer's own memory is its process's, "
            "within its 256 MiB of address space); sanitized is OTS's output, what the store keeps",
            "",
            "| upload | bytes | status | server CPU ms | sanitizer CPU ms | wall ms | CPU s/MB | peak MB | sanitized bytes |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for row in uploads:
            lines.append(f"| {row['name']} | {row['bytes']:,} | {row['status']} | {row['server'] * 1000:.1f} | "
                         f"{row['sanitizer'] * 1000:.0f} | {row['wall'] * 1000:.0f} | {row['cpu_per_mb']:.3f} | "
                         f"{row['peak'] / 1e6:.1f} | {row['sanitized']:,} |")
    if faces:
        lines += [
            "",
            f"- Cost model, `fontFaces`: `POST /v1/text/measure` on one server with one worker thread (one font stored), "
            f"each body sent alone, median of {args.cost_repeats} with different texts; the server's CPU per MB over the "
            "normal request's [target ≤ 3 ×]",
            "",
            "| request | bytes | status | CPU ms | CPU s/MB | × normal |",
            "|---|---:|---:|---:|---:|---:|",
        ]
        for row in faces:
            lines.append(f"| {row['name']} | {row['bytes']:,} | {row['status']} | {row['cpu'] * 1000:.1f} | "
                         f"{row['cpu_per_mb']:.3f} | {row['ratio']:.2f} |")
    run.replace_section(args.write, "## User fonts", "\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
