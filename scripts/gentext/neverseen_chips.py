#!/usr/bin/env python3
"""Flows of labels with the CSS text properties against headless Chromium on labels Trellis has never seen.

genchips.py builds the flow fixtures from a few hand-picked words per script; this script measures what a new user gets
instead, as neverseen.py does for paragraphs: its labels are pieces of the strings of Debian's gettext catalogs
(neverseen.py's corpus: one to three words, or two to ten characters in Japanese, Chinese and Thai, cut where no
combining mark or Thai following vowel comes next), with emoji sequences; its family lists, sizes and property values are neverseen.py's (not
the fixtures'), with bold and italic faces; its groups are genchips.py's (letter spacing, word spacing, white space,
text alignment, narrowed chips), each seeded by its name and --seed. Chromium lays every flow out with genchips.py's
page; the release build answers POST /v1/flow/layout; each flow is compared as FlowLabelFixtureTests compares the
fixtures (every chip's rectangle within 1/32 px, each label's line starts exactly, each line's x within 1/64 px but an
ellipsis's line). Prints the flows that differ and the agreement per group.

Droid Sans Fallback is never a list's first family here: the page reads the primary face's line height from an "x",
which that face lacks (Chromium draws it in another face, and the chips' line height with it).

Usage: python3 scripts/gentext/neverseen_chips.py [--seed N] [--flows 600] [--binary .build/release/trellis]
       [--save FILE | --load FILE] [--details N]
`make chips-neverseen` runs it with the release build (minutes of Chromium: not part of `make test`).
Python 3 standard library only.
"""

import argparse
import collections
import json
import pathlib
import random
import shutil
import sys
import unicodedata
import zlib

sys.dont_write_bytecode = True
HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))
import genchips  # noqa: E402
import genpara  # noqa: E402
import gentext  # noqa: E402
import neverseen  # noqa: E402
import trellis_harness  # noqa: E402

SEED = 1
# The scripts whose words are not separated by spaces: a label is a piece of a string.
UNSPACED = ("ja", "zh", "th")
POOLS = ["en", "de", "fr", "el", "ru", "he", "ar", "ja", "ko", "th", "zh", "emoji"]
TOLERANCE = 1 / 32


def labels(sentences, rng, script):
    """About 300 labels of a script: one to three words of a catalog string, or a piece of two to ten characters."""
    out = set()
    for text in rng.sample(sentences, min(len(sentences), 300)):
        if script in UNSPACED:
            text = text.replace(" ", "")
            # A piece starts and ends where no combining mark or Thai following vowel comes next (as a writer would cut).
            cuts = [k for k in range(len(text) + 1) if k == len(text) or not (
                unicodedata.category(text[k]).startswith("M") or "\u0e30" <= text[k] <= "\u0e3a" or text[k] == "\u0e45")]
            if len(cuts) < 3:
                continue
            a = rng.randrange(len(cuts) - 1)
            b = min(len(cuts) - 1, a + rng.randint(2, 10))
            piece = text[cuts[a]:cuts[b]].strip()
        else:
            words = [w.strip(".,:;!?()\"'«»") for w in text.split(" ")]
            words = [w for w in words if w]
            if not words:
                continue
            a = rng.randrange(len(words))
            piece = " ".join(words[a:a + rng.randint(1, 3)])
        if piece:
            out.add(piece)
    return sorted(out)


def make_flows(seed, count, face_list):
    rng = random.Random(seed)
    sentences = neverseen.catalog_sentences()
    sentences["emoji"] = neverseen.emoji_sentences(rng, sentences["en"])
    words = {s: labels(sentences[s], random.Random(seed + zlib.crc32(s.encode())), s) for s in POOLS}
    genchips.WORDS = {s: (w, w) for s, w in words.items()}
    families = {s: [f for f in neverseen.FAMILIES[s] if not f.startswith("Droid")] for s in POOLS}
    genchips.FAMILIES = {s: (families[s], families[s]) for s in POOLS}
    fresh = neverseen.FRESH_VALUES["LETTER_SPACINGS"] + neverseen.FRESH_VALUES["WORD_SPACINGS"]
    genchips.spacing = lambda r, holdout: r.choice(fresh)
    coverage = neverseen.Coverage(face_list)
    flows = []
    per = max(1, count // len(genchips.GROUPS))
    for group in genchips.GROUPS:
        group_rng = random.Random(seed * 7919 + zlib.crc32(group.encode()))
        made = 0
        while made < per:
            request = genchips.flow(group_rng, False, group)
            request["font"]["size"] = group_rng.choice(neverseen.SIZES)
            if group_rng.random() < 0.3:
                request["font"]["weight"], request["font"]["style"] = group_rng.choice([(700, "normal"), (400, "italic"), (700, "italic")])
            # Every character in a listed face (else a 422 here and a system font in Chromium).
            if any(coverage.uncovered(request["font"], item["text"]) for item in request["items"]):
                continue
            flows.append({"group": group, "request": request})
            made += 1
    return flows


def compare(flow, answer):
    """What differs between Trellis's answer and Chromium's (flow["expected"]), as FlowLabelFixtureTests compares."""
    request, expected = flow["request"], flow["expected"]
    differences = []
    if abs(answer["size"]["height"] - expected["height"]) > TOLERANCE:
        differences.append(f"height {answer['size']['height']} (Chromium {expected['height']})")
    items = answer.get("items", [])
    if len(items) != len(expected["items"]):
        differences.append(f"{len(items)} items (Chromium {len(expected['items'])})")
    for index, (item, rect) in enumerate(zip(items, expected["items"])):
        for key in ("x", "y", "width", "height"):
            if abs(item[key] - rect[key]) > TOLERANCE:
                differences.append(f"item {index} {key} {item[key]} (Chromium {rect[key]})")
        given = request["items"][index]
        shown = len(rect["starts"]) if "maxWidth" not in given else given.get("maxLines", 1)
        starts, xs = rect["starts"][:shown], rect["xs"][:shown]
        if "lines" in item:
            ours = [line["start"] for line in item["lines"]]
            if ours != starts:
                differences.append(f"item {index} line starts {ours} (Chromium {starts})")
            ellipsis = (item.get("ellipsis") or {}).get("line")
            for k, (line, x) in enumerate(zip(item["lines"], xs)):
                if k != ellipsis and x is not None and abs(line.get("x", 0) - x) > 1 / 64:
                    differences.append(f"item {index} line {k} x {line.get('x', 0)} (Chromium {x})")
        elif len(starts) > 1:
            differences.append(f"item {index}: one line (Chromium's starts {starts})")
    return differences


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--flows", type=int, default=600, help="about this many flows (600)")
    parser.add_argument("--binary", default=trellis_harness.RELEASE_BINARY)
    parser.add_argument("--chromium", default=shutil.which("chromium") or "chromium")
    parser.add_argument("--save", metavar="FILE", help="keep the flows and Chromium's answers in FILE")
    parser.add_argument("--load", metavar="FILE", help="compare the flows and Chromium's answers kept in FILE")
    parser.add_argument("--details", type=int, default=40, help="print at most this many differing flows")
    args = parser.parse_args()
    face_list = gentext.faces(genpara.PACKAGES)
    if args.load:
        flows = json.loads(pathlib.Path(args.load).read_text(encoding="utf-8"))
    else:
        flows = make_flows(args.seed, args.flows, face_list)
        measured = genchips.render([flow["request"] for flow in flows], face_list, args.chromium, None)
        for flow, result in zip(flows, measured):
            flow["expected"] = result
        if args.save:
            pathlib.Path(args.save).write_text(json.dumps(flows, ensure_ascii=False), encoding="utf-8")
    table = collections.defaultdict(lambda: [0, 0])
    shown = 0
    with trellis_harness.Trellis(args.binary) as server:
        for number, flow in enumerate(flows):
            status, _, body = server.request("POST", "/v1/flow/layout", flow["request"])
            differences = [f"status {status}: {body[:300]!r}"] if status != 200 else compare(flow, json.loads(body))
            row = table[flow["group"]]
            row[0] += 1
            row[1] += not differences
            if differences and shown < args.details:
                shown += 1
                print(f"flow {number} [{flow['group']}] {json.dumps(flow['request'], ensure_ascii=False)}\n  " + "; ".join(differences[:12]))
    print("\n| group | flows | every chip and line equal |\n|---|---|---|")
    for group, (count, agree) in table.items():
        print(f"| {group} | {count} | {agree} ({100 * agree / count:.2f} %) |")
    count, agree = sum(r[0] for r in table.values()), sum(r[1] for r in table.values())
    print(f"| **all** | {count:,} | {agree:,} ({100 * agree / max(count, 1):.2f} %) |")


if __name__ == "__main__":
    main()
