#!/usr/bin/env python3
"""Virtual lists against Chromium, side by side in one run: POST /v1/list/layout over HTTP and the same rows laid
out by Debian's headless Chromium through the DOM (Selenium), timed with performance.now() in the page.

Workloads (the issue's targets in brackets):
- cold: bench/run.py's 10,000 paragraphs of 200 characters (DejaVu Sans 16 px) as one-paragraph rows at 600 px,
  the first list request a fresh server answers, asking it to keep the list (`keep`) [≤ 10 µs a paragraph];
- warm, a new width: the same rows at 640 px on that server after the cold request, named by the id the cold
  answer gave (`list`) [≤ 0.5 µs a row]; and the same with the rows sent again;
- warm, every paragraph kept: the first 2,000 of those rows, which one request's share of the shaping cache holds
  whole (docs/list.md), sent at 600 px and then again at 640 px: the layout at a new width of rows sent again, with
  no paragraph shaped again;
- a chat: 10,000 rows of 20 to 400 characters in English, Japanese, Arabic and emoji, padded bubbles, at three
  widths, answered after one earlier request for the same rows at three other widths (which kept the list), the
  list named by its id [≤ 30 ms]; and the same with the rows sent again;
- Chromium: the same rows as divs (the list's CSS, docs/list.md), appended to a container of the width and every
  row's offsetHeight read (cold), then the container's width changed and every height read again (a new width).

Each Trellis figure is the median of --repeats fresh servers (a release build, one thread per core); each Chromium
figure the median of --repeats runs in one page, faces declared by @font-face on the files Trellis loads. The two take
turns, a repeat each, so that a shared machine's load weighs on both alike; the ratio is the median of the repeats'.
`make bench` runs it and writes the section "Virtual lists" of BENCHMARKS.md.

Usage: python3 bench/lists.py [--repeats 5] [--write BENCHMARKS.md]
"""
import argparse
import datetime
import http.client
import json
import os
import pathlib
import random
import shutil
import statistics
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the work tree
HERE = pathlib.Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "scripts"), str(HERE.parent / "scripts" / "gentext")]
import run  # noqa: E402  (the benchmark's helpers and its paragraphs)
import corpus  # noqa: E402
import gentext  # noqa: E402
from trellis_harness import Trellis  # noqa: E402

PACKAGES = gentext.PACKAGES + ["fonts-noto-color-emoji"]
CHAT_FONT = {"family": "DejaVu Sans, IPAGothic, Noto Color Emoji", "size": 15}
BUBBLE = {"top": 8, "bottom": 8, "leading": 12, "trailing": 12}
TARGETS = {"cold": 10.0, "warm": 0.5, "chat": 30.0}
KEPT = 2_000  # rows whose paragraphs one request's share of the shaping cache holds whole (about 7 KB each)


def paragraphs_body(width, count=10_000):
    return {"font": {"family": "DejaVu Sans", "size": 16}, "width": width,
            "rows": [{"texts": [text]} for text in run.paragraphs(10_000)[:count]]}


def chat_rows(count=10_000, seed=41):
    """Messages of 20 to 400 characters from the fixtures' sentences: English, Japanese, Arabic and emoji, mixed."""
    rng = random.Random(seed)
    scripts = ["en", "en", "ja", "ar", "emoji"]
    rows = []
    for i in range(count):
        length = rng.randint(20, 400)
        text = ""
        while len(text) < length:
            text += rng.choice(corpus.MAIN[rng.choice(scripts)]) + " "
        text = text[:length].strip()
        while text and (0xD800 <= ord(text[-1]) <= 0xDFFF or text[-1] in "\u200d\ufe0f"):
            text = text[:-1]
        row = {"key": f"m{i}", "texts": [text], "padding": BUBBLE}
        if i % 7 == 3:
            row["extraHeight"] = 22
        rows.append(row)
    return rows


def chat_body(rows, widths):
    return {"font": CHAT_FONT, "widths": widths, "gap": 8, "paragraphGap": 4, "rows": rows}


def kept(body):
    """The body, asking the server to keep the list."""
    return dict(body, keep=True)


class Client:
    """One keep-alive connection; each request timed end to end (sent, answered, read)."""

    def __init__(self, port):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=300)

    def post(self, body):
        data = json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode()
        start = time.perf_counter()
        self.connection.request("POST", "/v1/list/layout", body=data, headers={"Content-Type": "application/json"})
        response = self.connection.getresponse()
        answer = response.read()
        elapsed = time.perf_counter() - start
        if response.status != 200:
            raise RuntimeError(f"/v1/list/layout answered {response.status}: {answer[:300]!r}")
        return elapsed, json.loads(answer)


def trellis_round(repeat, rows):
    """One repeat on fresh servers: seconds of each request."""
    figures = {}
    server = Trellis(run.TRELLIS, "--threads", os.cpu_count(), "--max-body-bytes", 64 << 20)
    try:
        client = Client(server.port)
        figures["cold"], answer = client.post(kept(paragraphs_body(600)))
        figures["warm"], _ = client.post({"list": answer["list"], "width": 640 + 40 * repeat})
        figures["warmSent"], _ = client.post(paragraphs_body(680 + 40 * repeat))
        figures["chatCold"], answer = client.post(kept(chat_body(rows, [320, 480, 720])))
        figures["chatWarm"], _ = client.post({"list": answer["list"], "widths": [360 + repeat, 540, 800]})
        figures["chatWarmSent"], _ = client.post(chat_body(rows, [380 + repeat, 560, 820]))
    finally:
        server.stop()
    server = Trellis(run.TRELLIS, "--threads", os.cpu_count(), "--max-body-bytes", 64 << 20)
    try:
        client = Client(server.port)
        client.post(paragraphs_body(600, KEPT))
        figures["kept"], _ = client.post(paragraphs_body(640 + 40 * repeat, KEPT))
    finally:
        server.stop()
    return figures


PAGE = """<!doctype html><html><head><meta charset="utf-8"><style>
%s
html, body { margin: 0; padding: 0; }
.list { display: flex; flex-direction: column; font-synthesis: none; font-kerning: auto; line-height: normal; }
.row { box-sizing: border-box; }
.texts { display: flex; flex-direction: column; }
.p { unicode-bidi: plaintext; }
</style></head><body><div id="host"></div></body></html>"""

SCRIPT = """
const [rows, font, gap, paragraphGap, widths] = arguments;
const done = arguments[arguments.length - 1];
document.fonts.ready.then(() => {
  const host = document.getElementById('host');
  const list = document.createElement('div');
  list.className = 'list';
  list.style.cssText = `font-family: ${font.family}; font-size: ${font.size}px; row-gap: ${gap}px; width: ${widths[0]}px`;
  const t0 = performance.now();
  for (const row of rows) {
    const element = document.createElement('div');
    element.className = 'row';
    const p = row.padding || {};
    element.style.padding = `${p.top || 0}px ${p.trailing || 0}px ${p.bottom || 0}px ${p.leading || 0}px`;
    const texts = document.createElement('div');
    texts.className = 'texts';
    texts.style.rowGap = `${paragraphGap}px`;
    for (const text of row.texts) {
      const paragraph = document.createElement('div');
      paragraph.className = 'p';
      paragraph.dir = 'auto';
      paragraph.textContent = text;
      texts.appendChild(paragraph);
    }
    element.appendChild(texts);
    const extra = document.createElement('div');
    extra.style.height = `${row.extraHeight || 0}px`;
    element.appendChild(extra);
    list.appendChild(element);
  }
  host.replaceChildren(list);
  let sum = 0;
  for (const element of list.children) sum += element.offsetHeight;
  const times = [performance.now() - t0];
  for (const width of widths.slice(1)) {
    const t = performance.now();
    list.style.width = `${width}px`;
    for (const element of list.children) sum += element.offsetHeight;
    times.push(performance.now() - t);
  }
  host.replaceChildren();
  done({times, sum});
});
"""


class Chromium:
    """Headless Chromium with one page of the list's CSS and the faces Trellis loads."""

    def __enter__(self):
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
        options = webdriver.ChromeOptions()
        options.binary_location = shutil.which("chromium") or "chromium"
        for argument in ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
                         "--force-device-scale-factor=1", "--allow-file-access-from-files", "--font-render-hinting=none"]:
            options.add_argument(argument)
        self.driver = webdriver.Chrome(options=options,
                                       service=Service(executable_path=shutil.which("chromedriver") or "chromedriver"))
        self.driver.set_script_timeout(600)
        self.workdir = pathlib.Path(tempfile.mkdtemp(prefix="trellis-bench-lists-"))
        page = self.workdir / "lists.html"
        page.write_text(PAGE % gentext.font_faces_css(gentext.faces(PACKAGES)), encoding="utf-8")
        self.driver.get(page.as_uri())
        self.version = self.driver.capabilities.get("browserVersion", "")
        self.paragraphs = [{"texts": [text]} for text in run.paragraphs(10_000)]
        self.sans = {"family": f'"{gentext.private_name("DejaVu Sans")}"', "size": 16}
        self.chat = {"family": gentext.css_families(CHAT_FONT["family"]), "size": CHAT_FONT["size"]}
        return self

    def __exit__(self, *exc):
        self.driver.quit()
        shutil.rmtree(self.workdir, ignore_errors=True)

    def round(self, rows):
        """One repeat in the page: seconds of the cold layout, a new width's, the kept rows' new width and the chat."""
        run_script = self.driver.execute_async_script
        result = run_script(SCRIPT, self.paragraphs, self.sans, 0, 0, [600, 640])
        figures = {"cold": result["times"][0] / 1000, "warm": result["times"][1] / 1000}
        result = run_script(SCRIPT, self.paragraphs[:KEPT], self.sans, 0, 0, [600, 640])
        figures["kept"] = result["times"][1] / 1000
        result = run_script(SCRIPT, rows, self.chat, 8, 4, [320, 480, 720])
        figures["chat"] = sum(result["times"]) / 1000
        return figures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--write", help="write the section \"Virtual lists\" of this Markdown file")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    # Trellis and Chromium take turns, a repeat each, so that the machine's load weighs on both alike.
    chat = chat_rows()
    ours, theirs = [], []
    with Chromium() as chromium:
        for repeat in range(args.repeats):
            ours.append(trellis_round(repeat, chat))
            theirs.append(chromium.round(chat))
    n = 10_000
    # (name, unit, Trellis's figure, Chromium's figure, scale to the unit, target)
    workloads = [
        ("cold: 10,000 paragraphs of 200 characters at one width (the list kept)", "µs a paragraph", "cold", "cold", 1e6 / n,
         TARGETS["cold"]),
        ("warm: the same rows at a new width, after one request, the list named by its id", "µs a row", "warm", "warm", 1e6 / n,
         TARGETS["warm"]),
        ("warm, the rows sent again", "µs a row", "warmSent", "warm", 1e6 / n, None),
        (f"warm, every paragraph kept: {KEPT:,} of those rows sent again at a new width, after one request", "µs a row", "kept",
         "kept", 1e6 / KEPT, None),
        ("a chat of 10,000 rows (20–400 characters, mixed scripts and emoji) at 3 widths, after one request at 3 others, "
         "the list named by its id", "ms", "chatWarm", "chat", 1e3, TARGETS["chat"]),
        ("the same chat, the rows sent again", "ms", "chatWarmSent", "chat", 1e3, None),
        ("the same chat at 3 widths, first request", "ms", "chatCold", "chat", 1e3, None),
    ]
    rows = []
    for name, unit, mine, browser, scale, target in workloads:
        # The ratio is the median of each repeat's (the two ran one after the other).
        ratio = statistics.median(t[browser] / o[mine] for o, t in zip(ours, theirs))
        rows.append((name, unit, statistics.median(o[mine] for o in ours) * scale,
                     statistics.median(t[browser] for t in theirs) * scale, ratio, target))
    for name, unit, mine, browser, ratio, target in rows:
        print(f"{name}: Trellis {mine:.2f} {unit}, Chromium {browser:.2f} {unit}, {ratio:.1f}× faster"
              f"{f' (target ≤ {target:g})' if target else ''}", flush=True)
    if args.write:
        command = "python3 bench/lists.py" + (f" --repeats {args.repeats}" if args.repeats != 5 else "")
        lines = [
            "## Virtual lists",
            "",
            f"- Command: `{command}` (part of `make bench`): `POST /v1/list/layout` over HTTP on one keep-alive connection, "
            f"the release build, each figure the median of {args.repeats} fresh servers; beside it the same rows laid out by "
            f"headless Chromium {chromium.version} through the DOM (rows as divs with the list's CSS, offsetHeight read for "
            f"every row; a new width: the container's width changed and every height read again), median of {args.repeats} runs in one page; "
            f"Trellis and Chromium take turns, a repeat each, and the ratio is the median of the repeats' ratios",
            f"- Date: {datetime.date.today().isoformat()}; {os.cpu_count()} CPUs, {run.cpu_model()}; load average {load:.1f} before, "
            f"{os.getloadavg()[0]:.1f} after",
            "",
            "| workload | unit | Trellis | Chromium | Chromium / Trellis | target |",
            "|---|---|---:|---:|---:|---:|",
        ]
        for name, unit, mine, browser, ratio, target in rows:
            lines.append(f"| {name} | {unit} | {mine:.2f} | {browser:.2f} | {ratio:.1f}× | {f'≤ {target:g}' if target else '—'} |")
        # The cache's capacity as the executable makes it: an eighth of the memory budget (half the machine's memory
        # by default), at most 256 MiB; what a 200-character paragraph counts for (ShapingCache.entryBytes).
        memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
        capacity = min(256 << 20, memory // 2 // 8)
        # (with the break opportunities a Latin paragraph keeps, 8 bytes each, about one a word)
        share, paragraph_bytes = capacity // 4, 27 * 200 + 16 + 200 + 640 + 8 * 40
        lines += [
            "",
            f"What bounds the Trellis figures: a list of at least 32 KiB of text is laid out in up to 16 parts on the idle "
            f"cores at once ([docs/list.md](docs/list.md#limits-and-cost); on this machine {os.cpu_count()} threads), so each "
            "figure is the request's wall time with its rows' layout on every core and the rest (the body's transfer, its "
            "parsing and reading, the answer's writing) on one. The warm and chat rows name the list the first request kept "
            "(`keep`, [docs/list.md](docs/list.md#kept-lists-a-resize-without-the-rows)): no body sent, parsed or read, and "
            "no paragraph shaped or looked up. By instructions (callgrind, the server with one thread, 2,000 rows named at "
            "640 px after the request at 600 px that kept them), a row named is about 2,740: its line breaking about 1,300 "
            "(each line found by two binary searches over the break opportunities a Latin paragraph keeps), the loop over "
            "rows and widths 440, reference counting 270 and the answer's writing about 200. Most of a row's time is still "
            "waiting for its paragraph's shaping, about 7 KB read from wherever it was made (the layout asks each paragraph "
            "into the cache four paragraphs ahead): on this machine the first request naming the list takes about 0.42 µs a "
            "row, the tenth about 0.28 (the same server and list, 2026-12-07). The rows sent again have the paragraphs one "
            "request may add to the "
            f"shaping cache (a quarter of it: {share / 2**20:.0f} MiB of this machine's {capacity / 2**20:.0f} MiB, about "
            f"{min(share // paragraph_bytes, n):,} of these {n:,} paragraphs at about {paragraph_bytes / 1000:.1f} KB each, "
            '[docs/list.md](docs/list.md#shaping-kept-between-requests)). Timed inside the server (a build printing each '
            'phase, 2026-12-07, two threads), that request of 10,000 rows spends 1.7 ms parsing its 2.1 MB body, 1.1 ms '
            'reading it, 6.9 ms in the parts (about 1.4 µs a row on each thread), 0.6 ms writing the answer and about 2.7 ms '
            'outside the handler (the body and the answer sent): 0.5 µs a row, 5 ms, is less than the body\'s transfer, '
            'parsing and reading take with no layout at all. A kept row sent again is about 5,800 instructions: its line '
            "breaking about 1,300, the cache's lookup 750 (SipHash over the text's bytes 600), the "
            "request's parsing 690 and reading 1,000, the answer's writing 320, reference counting 600 and the loop over rows "
            "and widths 720; a thread's 1.4 µs a row is more than those instructions take, the rest waiting on memory (each "
            "row's kept paragraph is read from wherever the cache keeps it). The cold rows shape each distinct "
            "word once per request where the face allows it (Blink's word-by-word rule, [docs/text.md](docs/text.md)): about "
            "99,400 instructions a paragraph of 200 characters (callgrind, the request alone, 2,000 paragraphs), of which the "
            "words' segmentation, hashing, lookups and copies about 26,000 and the checks before shaping 26,000. The chat's "
            "rows sent again (3.9 MB) spend 2.8-4.5 ms parsing, 2 ms reading, 23.4 ms in the parts, 1.2 ms writing and about 3 "
            "ms outside the handler; by instructions about 305 million for its 30,000 row widths, of which the line breaking "
            "about 174 million: only 9% of its rows are all Latin (the others mix Japanese, Arabic and emoji in, whose break "
            "opportunities ICU decides from each line start), so most lines still take the breaker's search for where they "
            "stop fitting and its scan back over their opportunities, about 5,800 instructions a row width.",
        ]
        run.replace_section(args.write, "## Virtual lists", "\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
