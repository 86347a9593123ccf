#!/usr/bin/env python3
"""Paragraph layout against headless Chromium on paragraphs Trellis has never seen: the agreement table.

The fixtures (scripts/gentext/genpara.py) are built from the sentences of corpus.py and checked in; this script
measures what a new user would see instead. Its texts are the translations Debian ships for desktop and
command-line programs (the gettext catalogs under /usr/share/locale: GTK, GLib, APT, PackageKit, coreutils, ...;
English from their source strings), written by people for people and never read by the engine's authors; emoji
paragraphs add emoji sequences that corpus.py does not use; mixed paragraphs join other languages' strings. Its
family lists, sizes, weights and property values are others than the fixture sets' (FAMILIES, SIZES, the value
lists below), its seed is its own (--seed), and only the faces the service loads by default are used, every text
checked against their character maps (a character no listed face has is a 422 in Trellis and a system font in
Chromium: such a text is drawn again).

The paragraphs go through genpara.py's groups (every mode and property of the CSS set: white space as typed with
line feeds, CRLF and tabs; break data; line height in every form; alignment and indent; justify; letter and word
spacing; soft hyphens; balance and pretty, with clamps; and the base set's modes), each group's layouts sampled
down to LAYOUTS_PER_PARAGRAPH, laid out in Chromium by genpara.py's page (line starts from Range rects, block
heights, each line's x), then in a running Trellis release build (POST /v1/batch of /v1/text/layout entries; a
clamped layout also unclamped, as the fixture test compares: the block's height is the clamped answer's, its line
starts the whole paragraph's), and compared: every line start equal, the block's height equal, each drawn line's
width and x (from the block's start edge) within 1/64 px (lines Chromium's rects give). Ellipses are not compared
(their visible text needs Chromium's pixels).

Prints the table (per script, per group and property value, overall) and the layouts that differ.
--save FILE keeps Chromium's answers with the cases; --load FILE compares them again without Chromium (after a fix).

Usage: python3 scripts/gentext/neverseen.py [--paragraphs 2500] [--seed N] [--binary .build/release/trellis]
       [--chromium PATH] [--save FILE | --load FILE] [--details N]
`make text-neverseen` runs it with the release build (minutes of Chromium: not part of `make test`).
Python 3 standard library only.
"""

import argparse
import bisect
import collections
import gettext
import json
import pathlib
import random
import re
import shutil
import struct
import subprocess
import sys
import time
import unicodedata
import zlib

sys.dont_write_bytecode = True
HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))
import genpara  # noqa: E402
import gentext  # noqa: E402
import trellis_harness  # noqa: E402

# The default seed (the second set's; docs/text.md names each set's figures by its --seed, and every set's finds are
# fixed and kept as fixtures).
SEED = 20270102
LAYOUTS_PER_PARAGRAPH = 5
MAX_SCALARS = 1000

# Where the sentences come from: the gettext catalogs of Debian's packages, per script.
LOCALES = {"de": "de", "fr": "fr", "el": "el", "ru": "ru", "he": "he", "ar": "ar", "ja": "ja", "zh": "zh_CN",
           "ko": "ko", "th": "th"}
CATALOGS = ["gtk30", "glib20", "PackageKit", "software-properties", "system-config-printer", "apt", "libapt-pkg6.0",
            "appstream", "coreutils", "grep", "sed", "tar", "dpkg", "gtk30-properties", "gtk20-properties",
            "at-spi2-core", "avahi", "xdg-user-dirs", "shared-mime-info", "wget", "bash", "findutils", "diffutils",
            "gnupg2", "Linux-PAM", "python-apt", "libsecret", "notification-daemon", "gdk-pixbuf",
            "gsettings-desktop-schemas"]
# Strings that are markup or format templates rather than text (printf and brace placeholders, mnemonics, tags).
TEMPLATE = re.compile(r"%|\{|\}|<|>|\\|_[^\W_]|&|\$|`|\|")
# Each non-Latin script's letters: a string counts for a script when most of its letters are of it.
SCRIPT_LETTERS = {
    "el": lambda c: "\u0370" <= c <= "\u03ff" or "\u1f00" <= c <= "\u1fff",
    "ru": lambda c: "\u0400" <= c <= "\u04ff",
    "he": lambda c: "\u0590" <= c <= "\u05ff",
    "ar": lambda c: "\u0600" <= c <= "\u06ff" or "\ufb50" <= c <= "\ufeff",
    "ja": lambda c: "\u3040" <= c <= "\u30ff" or "\u4e00" <= c <= "\u9fff",
    "zh": lambda c: "\u4e00" <= c <= "\u9fff",
    "ko": lambda c: "\uac00" <= c <= "\ud7af" or "\u1100" <= c <= "\u11ff",
    "th": lambda c: "\u0e00" <= c <= "\u0e7f",
}
# Emoji sequences corpus.py does not use: ZWJ sequences, skin tones, flags, keycaps, presentation selectors.
EMOJI = ["🐙", "🦊", "🌵", "🍉", "🥑", "🎸", "📚", "🧩", "🛠️", "⚽", "🏀", "🚲", "🗺️", "⏰", "📎", "🔒", "🌈", "🌻",
         "🧑\u200d🍳", "👩\u200d🚒", "🏳️\u200d🌈", "🐕\u200d🦺", "👨\u200d👨\u200d👦", "🧑🏿\u200d🎨", "💪🏻", "🙌🏿",
         "🤝", "👌🏼", "🇨🇦", "🇧🇷", "🇰🇷", "🇳🇴", "🇺🇦", "#️⃣", "9️⃣", "✔️", "⚠️", "♻️", "☂️", "✉️", "🧭", "🪴", "🫖"]

# Family lists per script, none of them the fixture sets' (NanumGothic never: Chromium's @font-face rejects its file).
FAMILIES = {
    "en": ["DejaVu Sans Mono", "DejaVu Serif, DejaVu Sans", "IPAPGothic, DejaVu Sans", "NanumBarunGothic, DejaVu Serif"],
    "de": ["DejaVu Serif, IPAGothic", "DejaVu Sans Mono, DejaVu Serif", "Garuda, DejaVu Sans"],
    "fr": ["DejaVu Sans Mono", "DejaVu Serif, IPAGothic", "NanumSquareRound, DejaVu Serif"],
    "el": ["DejaVu Sans, IPAGothic", "IPAPGothic, DejaVu Sans", "DejaVu Serif, DejaVu Sans"],
    "ru": ["DejaVu Serif, DejaVu Sans", "IPAGothic, DejaVu Sans", "NanumBarunGothic, DejaVu Sans"],
    "he": ["DejaVu Sans Mono, DejaVu Sans", "DejaVu Serif, DejaVu Sans"],
    "ar": ["DejaVu Serif, DejaVu Sans", "IPAPGothic, DejaVu Sans"],
    "ja": ["IPAGothic, DejaVu Sans", "DejaVu Sans Mono, IPAPGothic", "NanumBarunGothic, IPAGothic"],
    "zh": ["Droid Sans Fallback", "DejaVu Sans Mono, Droid Sans Fallback"],
    "ko": ["NanumMyeongjo, DejaVu Sans", "DejaVu Sans Mono, NanumBarunGothic", "NanumSquareRound, DejaVu Serif"],
    "th": ["Garuda, DejaVu Serif", "DejaVu Sans Mono, Garuda"],
    "emoji": ["DejaVu Sans Mono, Noto Color Emoji", "DejaVu Serif, Noto Color Emoji", "IPAGothic, Noto Color Emoji"],
    "mixed": ["DejaVu Serif, Droid Sans Fallback, NanumBarunGothic, Noto Color Emoji",
              "DejaVu Sans Mono, IPAGothic, Garuda", "DejaVu Sans, IPAPGothic, Garuda, Noto Color Emoji"],
}
MIXED_PARTS = {"DejaVu Serif, Droid Sans Fallback, NanumBarunGothic, Noto Color Emoji": ["en", "zh", "ko", "emoji", "ru"],
               "DejaVu Sans Mono, IPAGothic, Garuda": ["fr", "ja", "th", "el"],
               "DejaVu Sans, IPAPGothic, Garuda, Noto Color Emoji": ["he", "ja", "th", "emoji", "de", "ar"]}
SIZES = [10, 12.5, 14.75, 15.5, 22, 23.25, 28, 11.75]
WEIGHTS = [(300, "normal"), (600, "normal"), (900, "normal"), (400, "italic"), (800, "italic"), (200, "normal")]

# Property values the fixture sets do not use (genpara.py's lists are replaced by these while this script runs).
FRESH_VALUES = {
    "LETTER_SPACINGS": [0.75, 1.25, -0.25, 1.75, -0.8, 0.4, 2.5, "0.07em", "-0.02em", "0.15em", "2.25px", "-0.4px", "0.08em"],
    "WORD_SPACINGS": [3, 1.5, -1.5, 7, 0.75, "0.2em", "-0.05em", "6px", "0.5em", "-2.5px", "2.2px"],
    "LINE_HEIGHT_NUMBERS": ["1.05", "1.3", "1.45", "1.6", "1.75", "0.9", "1.8", "2.2", "1.35"],
    "LINE_HEIGHT_PERCENTAGES": ["110%", "125%", "140%", "95%", "175%", "160.5%", "118%"],
    "TAB_SIZES": [6, 5, 7, "16px", "31.25px", 1.5, "9px", 3.5],
}

# The groups: genpara.py's CSS groups, and the base set's modes (widths, overflow-wrap, word-break, pre-wrap, fixed
# line heights, nowrap with an ellipsis, clamps). Paragraphs per script in each.
GROUPS = {"modes": (genpara.paragraph, lambda rng, width, size: genpara.layouts(rng, size))}
GROUPS.update({name: (make_text, make_layouts) for name, (_, make_text, make_layouts, _, _) in genpara.CSS_GROUPS.items()})


def catalog_sentences():
    """Each script's strings from the catalogs: 25–220 characters, no template syntax or control characters, most
    letters of the script (English: the catalogs' source strings)."""
    found = collections.defaultdict(set)
    for script, locale in LOCALES.items():
        for catalog in CATALOGS:
            path = pathlib.Path(f"/usr/share/locale/{locale}/LC_MESSAGES/{catalog}.mo")
            if not path.exists():
                continue
            with path.open("rb") as handle:
                translations = gettext.GNUTranslations(handle)
            for source, translated in translations._catalog.items():
                if not isinstance(source, str) or not translated or "\x00" in source or "\x04" in source:
                    continue
                for text, language in ((translated, script), (source, "en")):
                    text = " ".join(text.split())
                    if not 25 <= len(text) <= 220 or TEMPLATE.search(text):
                        continue
                    if any(unicodedata.category(c)[0] == "C" for c in text):
                        continue
                    if language in SCRIPT_LETTERS:
                        letters = [c for c in text if c.isalpha()]
                        if not letters or sum(map(SCRIPT_LETTERS[language], letters)) < 0.7 * len(letters):
                            continue
                        if language == "zh" and any("\u3040" <= c <= "\u30ff" for c in text):
                            continue
                    if language == "en" and not text.isascii():
                        continue
                    found[language].add(text)
    return {script: sorted(texts) for script, texts in found.items()}


def emoji_sentences(rng, english):
    """English strings with emoji sequences put between their words, at their ends, or in runs."""
    out = []
    for text in rng.sample(english, 400):
        words = text.split(" ")
        for _ in range(rng.randint(1, 4)):
            run = "".join(rng.choice(EMOJI) for _ in range(rng.choice([1, 1, 1, 2, 3])))
            words.insert(rng.randrange(len(words) + 1), run)
        out.append(" ".join(words))
    return out


class Coverage:
    """Which characters the faces a family list selects have (their cmaps, read once per file)."""

    def __init__(self, face_list):
        self.face_list = face_list
        self.ranges = {}

    def file_ranges(self, path):
        if path not in self.ranges:
            data = pathlib.Path(path).read_bytes()
            cmap = gentext.tables(data)["cmap"]
            spans = []
            for i in range(struct.unpack_from(">H", cmap, 2)[0]):
                platform, _, offset = struct.unpack_from(">HHI", cmap, 4 + 8 * i)
                if platform not in (0, 3):
                    continue
                kind = struct.unpack_from(">H", cmap, offset)[0]
                if kind == 4:
                    count = struct.unpack_from(">H", cmap, offset + 6)[0] // 2
                    ends = struct.unpack_from(f">{count}H", cmap, offset + 14)
                    starts = struct.unpack_from(f">{count}H", cmap, offset + 16 + 2 * count)
                    spans += zip(starts, ends)
                elif kind == 12:
                    for g in range(struct.unpack_from(">I", cmap, offset + 12)[0]):
                        spans.append(struct.unpack_from(">II", cmap, offset + 16 + 12 * g))
            spans.sort()
            self.ranges[path] = ([a for a, _ in spans], [b for _, b in spans])
        return self.ranges[path]

    def has(self, path, code):
        starts, ends = self.file_ranges(path)
        k = bisect.bisect_right(starts, code) - 1
        while k >= 0 and starts[k] <= code:
            if code <= ends[k]:
                return True
            k -= 1
        return False

    def files(self, font):
        """The face each family of the list selects for the weight and style (the nearest weight of the style)."""
        out = []
        for family in font["family"].split(","):
            members = [f for f in self.face_list if f["family"].lower() == family.strip().lower()]
            if not members:
                continue
            styled = [f for f in members if f["italic"] == (font["style"] != "normal")] or members
            out.append(min(styled, key=lambda f: abs(f["weight"] - font["weight"]))["file"])
        return out

    def uncovered(self, font, text):
        files = self.files(font)
        ignored = {0x200B, 0x200C, 0x200D, 0x200E, 0x200F, 0x2060, 0xFEFF, 0x00AD, 0xFE0F, 0xFE0E, 9, 10, 13}
        return {c for c in text if ord(c) not in ignored and not unicodedata.category(c).startswith("M")
                and not any(self.has(path, ord(c)) for path in files)}


def make_cases(seed, paragraphs, face_list):
    """About `paragraphs` paragraphs spread over the groups and the 13 scripts, each with LAYOUTS_PER_PARAGRAPH of its
    group's layouts."""
    for name, values in FRESH_VALUES.items():
        setattr(genpara, name, values)
    genpara.MIXED_PARTS.update(MIXED_PARTS)
    rng = random.Random(seed)
    sentences = catalog_sentences()
    sentences["emoji"] = emoji_sentences(rng, sentences["en"])
    coverage = Coverage(face_list)
    per = max(1, round(paragraphs / (len(GROUPS) * len(FAMILIES))))
    out = []
    for group, (make_text, make_layouts) in GROUPS.items():
        group_rng = random.Random(seed + zlib.crc32(group.encode()))
        for script, families in FAMILIES.items():
            for k in range(per):
                family = families[k % len(families)]
                size = group_rng.choice(SIZES)
                weight, style = 400, "normal"
                if script not in genpara.UPRIGHT_ONLY and group_rng.random() < 0.35:
                    weight, style = group_rng.choice(WEIGHTS)
                font = {"family": family, "size": size, "weight": weight, "style": style}
                for _ in range(50):
                    text = make_text(group_rng, script, sentences, family)
                    missing = coverage.uncovered(font, text)
                    # The break data's characters no face has are left out (as genpara.py does); any other: drawn again.
                    text = "".join(c for c in text if c not in missing or c not in genpara.BREAK_DATA_CHARACTERS)
                    # Within the service's limit of 1,000 scalars a text (past it, a 422 by contract).
                    if not coverage.uncovered(font, text) and text.strip() and len(text) <= MAX_SCALARS:
                        break
                else:
                    continue

                def width():
                    return genpara.quarter(group_rng, size * 2, size * 24)
                made = (make_layouts(group_rng, width, size, text, script) if group in genpara.TEXT_AWARE_GROUPS
                        else make_layouts(group_rng, width, size))
                picked = sorted(group_rng.sample(range(len(made)), min(LAYOUTS_PER_PARAGRAPH, len(made))))
                out.append({"id": f"n{len(out)}", "group": group, "script": script, "font": font, "text": text,
                            "layouts": [made[i] for i in picked]})
    return out


def chromium_layouts(all_cases, face_list, chromium):
    """Every layout's line starts, widths and height as Chromium draws them (genpara.py's page)."""
    blocks = []
    for case in all_cases:
        for layout in case["layouts"]:
            classes, css = genpara.layout_css(case["font"], layout)
            blocks.append({"classes": classes, "css": css, "text": case["text"], "size": case["font"]["size"],
                           "hang": 0 if layout.get("whiteSpace") in ("pre", "break-spaces") else 1})
    measured = []
    for index in range(0, len(blocks), genpara.CASES_PER_PAGE):
        measured += genpara.render(blocks[index:index + genpara.CASES_PER_PAGE], face_list, chromium, None, index)
        print(f"  Chromium: {len(measured)} of {len(blocks)} layouts", file=sys.stderr, flush=True)
    results = iter(measured)
    for case in all_cases:
        for layout in case["layouts"]:
            result = next(results)
            layout["expected"] = {"starts": result["starts"], "widths": result["widths"], "xs": result["xs"],
                                  "height": result["height"]}


def request_body(case, layout, clamped=True):
    body = {"font": case["font"], "texts": [case["text"]]}
    body.update({k: v for k, v in layout.items() if k != "expected"})
    if not clamped:
        body.pop("maxLines", None)
        body.pop("textOverflow", None)
    return body


def trellis_layouts(all_cases, server):
    """Each layout's answer from Trellis: (the clamped answer, the whole paragraph's answer), 100 entries a batch."""
    entries = []
    for case in all_cases:
        for layout in case["layouts"]:
            entries.append(request_body(case, layout))
            entries.append(request_body(case, layout, clamped=False))
    answers = []
    for index in range(0, len(entries), 100):
        chunk = entries[index:index + 100]
        status, _, body = server.post("/v1/batch", {"requests": [{"path": "/v1/text/layout", "body": b} for b in chunk]})
        if status != 200:
            sys.exit(f"POST /v1/batch answered {status}: {json.dumps(body)[:2000]}")
        answers += body["responses"]
    pairs = iter(zip(answers[0::2], answers[1::2]))
    for case in all_cases:
        for layout in case["layouts"]:
            layout["trellis"] = next(pairs)


def compare(case, layout):
    """(starts equal, height equal, widths and x equal, what differs), as ParagraphFixtureTests compares (x on every
    layout, where the fixtures keep it only with an alignment or indent: a set saved before x was kept has none)."""
    expected = layout["expected"]
    clamped, whole = layout["trellis"]
    if clamped["status"] != 200 or whole["status"] != 200:
        problem = clamped if clamped["status"] != 200 else whole
        return False, False, False, f"status {problem['status']}: {json.dumps(problem['body'].get('errors'))[:300]}"
    starts = expected["starts"]
    shown = clamped["body"]["texts"][0]
    lines = whole["body"]["texts"][0]["lines"]
    ours = [line["start"] for line in lines]
    max_lines = layout.get("maxLines")
    if layout.get("textWrap", "wrap") != "wrap" and max_lines and shown["lineCount"] == len(starts):
        # A balanced clamp breaks the lines it shows otherwise than the paragraph unclamped: its shown lines' starts,
        # and as many lines in all.
        lines = shown["lines"]
        ours = [line["start"] for line in lines] + starts[min(max_lines, len(starts)):]
    detail = ""
    starts_equal = ours == starts
    if not starts_equal:
        detail += f"starts {ours} (Chromium {starts}); "
    height_equal = abs(shown["height"] - expected["height"]) < 1e-9
    if not height_equal:
        detail += f"height {shown['height']} (Chromium {expected['height']}); "
    widths_equal = True
    cut = shown["ellipsis"]["line"] if shown.get("ellipsis") else (max_lines - 1 if max_lines else -1)
    if starts_equal:
        for index, line in enumerate(lines):
            if index == cut or index >= len(expected["widths"]) or expected["widths"][index] is None:
                continue
            if abs(line["width"] - expected["widths"][index]) > 1 / 64 + 1e-9:
                widths_equal = False
                detail += f"line {index} width {line['width']} (Chromium {expected['widths'][index]}); "
            # A line Chromium draws nothing on has no x (its page says 0), as ParagraphFixtureTests has it.
            xs = expected.get("xs") or []
            if (index < len(xs) and xs[index] is not None and expected["widths"][index] > 0
                    and abs(line.get("x", 0) - xs[index]) > 1 / 64 + 1e-9):
                widths_equal = False
                detail += f"line {index} x {line.get('x', 0)} (Chromium {xs[index]}); "
    return starts_equal, height_equal, widths_equal, detail


def value_of(group, layout):
    """A layout's property value, for the table (the key ParagraphFixtureTests prints, shortened)."""
    parts = []
    for member in ("whiteSpace", "wordBreak", "overflowWrap", "textWrap", "textAlign", "hyphens"):
        if member in layout:
            parts.append(str(layout[member]))
    for member, name in (("tabSize", "tab-size"), ("letterSpacing", "letter-spacing"), ("wordSpacing", "word-spacing"),
                         ("textIndent", "indent"), ("textAlignLast", "align-last")):
        if member in layout:
            parts.append(name)
    if "lineHeight" in layout:
        value = layout["lineHeight"]
        parts.append("line-height " + ("px" if isinstance(value, (int, float)) or str(value).endswith("px") else
                                       "%" if str(value).endswith("%") else str(value) if value == "normal" else "number"))
    if "maxLines" in layout:
        parts.append("clamp")
    elif "textOverflow" in layout:
        parts.append("ellipsis")
    return f"{group}: " + (" ".join(parts) or "normal")


def table(all_cases, details):
    by = {"script": collections.defaultdict(lambda: [0, 0, 0, 0]), "group": collections.defaultdict(lambda: [0, 0, 0, 0]),
          "value": collections.defaultdict(lambda: [0, 0, 0, 0])}
    total = [0, 0, 0, 0]
    misses = []
    for case in all_cases:
        for layout in case["layouts"]:
            starts, height, widths, detail = compare(case, layout)
            for key, name in (("script", case["script"]), ("group", case["group"]), ("value", value_of(case["group"], layout))):
                row = by[key][name]
                row[0] += 1
                row[1] += starts
                row[2] += height
                row[3] += starts and widths
            total[0] += 1
            total[1] += starts
            total[2] += height
            total[3] += starts and widths
            if detail:
                misses.append((case, layout, detail))

    def line(name, row):
        return (f"| {name} | {row[0]:,} | {row[1]:,} ({100 * row[1] / row[0]:.2f} %) | {row[2]:,} ({100 * row[2] / row[0]:.2f} %)"
                f" | {row[3]:,} ({100 * row[3] / row[0]:.2f} %) |")
    head = "| {} | layouts | every line start equal | height equal | and every width and x within 1/64 px |\n|---|---|---|---|---|"
    paragraphs = len(all_cases)
    print(f"\n{paragraphs:,} paragraphs, {total[0]:,} layouts\n")
    for key, title in (("script", "script"), ("group", "group"), ("value", "group: value")):
        print(head.format(title))
        for name in sorted(by[key], key=lambda n: (list(FAMILIES).index(n) if key == "script" else n)):
            print(line(name, by[key][name]))
        print(line("**all**", total) + "\n")
    for case, layout, detail in misses[:details]:
        shown = {k: v for k, v in layout.items() if k not in ("expected", "trellis")}
        print(f"{case['id']} [{case['script']} {case['group']}] {case['font']} {json.dumps(case['text'], ensure_ascii=False)}"
              f" {json.dumps(shown)}: {detail}")
    if len(misses) > details:
        print(f"... and {len(misses) - details} more (--details N)")


FIXTURE_FILE = gentext.FIXTURES / "paragraphs-neverseen.jsonl"


def write_fixtures(all_cases, ids):
    """The paragraphs `ids` as ParagraphFixtureTests reads them (their layouts with an ellipsis left out: its visible
    text needs Chromium's pixels), added to the file's others (a paragraph already there is replaced)."""
    kept = {}
    if FIXTURE_FILE.exists():
        for line in FIXTURE_FILE.read_text(encoding="utf-8").splitlines()[1:]:
            kept[json.loads(line)["id"]] = line
    for case in all_cases:
        if case["id"] not in ids:
            continue
        layouts = []
        for layout in case["layouts"]:
            if layout.get("textOverflow") == "ellipsis":
                continue
            expected = layout["expected"]
            shown = {k: v for k, v in layout.items() if k not in ("expected", "trellis")}
            shown["expected"] = {"starts": expected["starts"], "height": gentext.number(expected["height"]),
                                 "widths": [None if w is None else gentext.number(w) for w in expected["widths"]]}
            layouts.append(shown)
        fixture = {k: case[k] for k in ("id", "group", "script", "font", "text")}
        fixture["layouts"] = layouts
        kept[case["id"]] = json.dumps(fixture, ensure_ascii=False, separators=(",", ":"))
    lines = sorted(kept.values(), key=lambda line: int(json.loads(line)["id"][1:]))
    header = {"generatedBy": "scripts/gentext/neverseen.py --fixtures", "paragraphs": len(lines),
              "layouts": sum(len(json.loads(line)["layouts"]) for line in lines)}
    FIXTURE_FILE.write_text(json.dumps(header, separators=(",", ":")) + "\n" + "\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {len(lines)} paragraphs to {FIXTURE_FILE}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--paragraphs", type=int, default=2500, help="about this many paragraphs (2500)")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--binary", default=trellis_harness.RELEASE_BINARY)
    parser.add_argument("--chromium", default=shutil.which("chromium") or "chromium")
    parser.add_argument("--save", metavar="FILE", help="keep the cases and Chromium's answers in FILE")
    parser.add_argument("--load", metavar="FILE", help="compare the cases and Chromium's answers kept in FILE")
    parser.add_argument("--details", type=int, default=200, help="print at most this many differing layouts")
    parser.add_argument("--fixtures", metavar="IDS", help="with --load: write these paragraphs (comma-separated ids) with "
                        "Chromium's answers to Fixtures/paragraphs-neverseen.jsonl (regressions found here), then stop")
    args = parser.parse_args()
    if args.fixtures:
        return write_fixtures(json.loads(pathlib.Path(args.load).read_text(encoding="utf-8")), args.fixtures.split(","))
    started = time.monotonic()
    if args.load:
        all_cases = json.loads(pathlib.Path(args.load).read_text(encoding="utf-8"))
    else:
        face_list = gentext.faces(genpara.PACKAGES)
        all_cases = make_cases(args.seed, args.paragraphs, face_list)
        print(f"{len(all_cases)} paragraphs, {sum(len(c['layouts']) for c in all_cases)} layouts; "
              f"Chromium {subprocess.run([args.chromium, '--version'], capture_output=True, text=True).stdout.strip()}",
              file=sys.stderr, flush=True)
        chromium_layouts(all_cases, face_list, args.chromium)
        if args.save:
            pathlib.Path(args.save).write_text(json.dumps(all_cases, ensure_ascii=False), encoding="utf-8")
    with trellis_harness.Trellis(args.binary) as server:
        trellis_layouts(all_cases, server)
    table(all_cases, args.details)
    print(f"({time.monotonic() - started:.0f} s)")


if __name__ == "__main__":
    main()
