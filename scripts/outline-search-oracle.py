#!/usr/bin/env python3
"""Outline search against a reference implementation: seeded random trees with mixed-script labels,
queries in every mode and with both sensitivity flags, sent to both outline endpoints of a live
server; every answer must equal the one computed here, byte for byte after parsing.

The reference folds with Python's unicodedata (NFD, general categories) and str.casefold (full case
folding, CaseFolding.txt statuses C and F), scans the folded label naively, and maps back to UTF-16.

Unicode versions: this Python's unicodedata may be older than the Swift standard library's tables.
Folding, decomposition and categories of assigned characters are stable across versions with one
exception checked here (U+1171E went from Mn to Mc in Unicode 15), so the random alphabet keeps only
characters this Python knows (category not Cn) and leaves out VERSION_SENSITIVE.

Usage: outline-search-oracle.py --binary .build/debug/trellis [--trees 2000] [--seed 16]
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import sys
import unicodedata

sys.dont_write_bytecode = True  # no __pycache__ in the work tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from trellis_harness import Trellis  # noqa: E402

MARKS = {"Mn", "Mc", "Me"}
# The White_Space property (PropList.txt); str.isspace also accepts U+001C–U+001F, which are not White_Space.
WHITE_SPACE = set("\u0009\u000a\u000b\u000c\u000d\u0020\u0085\u00a0\u1680\u2028\u2029\u202f\u205f\u3000") | {
    chr(c) for c in range(0x2000, 0x200B)}
# Characters whose properties differ between this Python's Unicode version and the service's.
VERSION_SENSITIVE = {"\U0001171E"}

LATIN = list("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.,()")
LATIN_ACCENTED = list("éèêëáàâäåãçñöüÄÖÜÉÅØøæÆœŒÿŸǅǄǆĳĲŉǰ") + ["e\u0301", "a\u0308", "o\u0302", "u\u0308\u0301",
                                                               "c\u0327", "n\u0303", "i\u0307", "e\u0323\u0302"]
SPECIAL = list("ßẞſİıﬁﬀﬃﬆKÅΩ") + ["\u1e9b\u0323"]
MARKS_ONLY = ["\u0301", "\u0308", "\u0323", "\u0327", "\u0345", "\u0903", "\u093e", "\u20dd", "\u20e3", "\u0e31",
              "\ufe0f", "\u302a"]
GREEK = list("ΣσςΑαΒβΓγΔδΟοΛλΆάΐΰᾳᾼὒϐϑϕΩωΈέΉή") + ["σ\u0301", "Σ\u0342"]
CYRILLIC = list("ЁёЙйДдЖжЯяЩщЀѐӁӂ") + ["е\u0308", "и\u0306"]
CJK = list("漢字検索日本語中文東京")
HANGUL = list("한글검색서울") + ["\u1112\u1161\u11ab", "\u1100\u1161"]
EMOJI = ["👍", "👍🏽", "👨‍👩‍👧", "❤️", "1️⃣", "🏳️‍🌈", "🇩🇪", "😀", "👩🏿‍💻"]
ASTRAL = list("𐐀𐐨𞤀𞤢𝐀𝔸𑢠𑣀𐒰𐓘𖹀𖹠")
SPACES = [" ", " ", " ", "\u00a0", "\u3000", "\u2003", "\t"]
WORDS = ["café", "Straße", "STRASSE", "İstanbul", "ıstanbul", "ΣΊΣΥΦΟΣ", "σίσυφος", "Ёлка", "ёлка", "검색", "日本語",
         "naïve", "nai\u0308ve", "Ǆemal", "ﬁle", "ΐ", "Ⅻ", "ⅻ", "Ⓐ", "ⓐ", "readme", "README", "src", "main.swift"]
POOLS = [(LATIN, 30), (LATIN_ACCENTED, 12), (SPECIAL, 6), (MARKS_ONLY, 4), (GREEK, 8), (CYRILLIC, 6), (CJK, 4),
         (HANGUL, 4), (EMOJI, 5), (ASTRAL, 5), (SPACES, 8)]


def known(text: str) -> bool:
    return all(unicodedata.category(c) != "Cn" and c not in VERSION_SENSITIVE for c in text)


POOLS = [([t for t in pool if known(t)], weight) for pool, weight in POOLS]
WORDS = [w for w in WORDS if known(w)]


# -- the reference --

def fold_scalar(c: str, case_sensitive: bool, diacritic_sensitive: bool) -> str:
    folded = unicodedata.normalize("NFD", c)
    if not case_sensitive:
        folded = unicodedata.normalize("NFD", folded.casefold())
    if not diacritic_sensitive:
        folded = "".join(x for x in folded if unicodedata.category(x) != "Mn")
    return folded


def fold(text: str, cs: bool, ds: bool) -> tuple[str, list[int]]:
    """The folded text and, for each folded scalar, the index of the scalar it came from."""
    out, origins = [], []
    for i, c in enumerate(text):
        f = fold_scalar(c, cs, ds)
        out.append(f)
        origins += [i] * len(f)
    return "".join(out), origins


def terms_of(query: str, mode: str, cs: bool, ds: bool) -> list[str]:
    pieces = [query]
    if mode == "words":
        pieces = re.split("[" + "".join(re.escape(c) for c in sorted(WHITE_SPACE)) + "]+", query)
    terms = [fold(p, cs, ds)[0] for p in pieces]
    return [t for t in terms if t]


def occurrences(folded: str, term: str, ds: bool, prefix: bool) -> list[tuple[int, int]]:
    found, p = [], 0
    while p + len(term) <= len(folded):
        end = p + len(term)
        ok = folded[p:end] == term and not (ds and end < len(folded) and unicodedata.category(folded[end]) in MARKS)
        if ok:
            found.append((p, end))
            p = end
        else:
            p += 1
        if prefix:
            break
    return found


def merge(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[list[int]] = []
    for s, e in sorted(ranges):
        if merged and s < merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], e)
        else:
            merged.append([s, e])
    return [(s, e) for s, e in merged]


def label_ranges(label, terms: list[str], mode: str, cs: bool, ds: bool):
    """The UTF-16 ranges of a matching label, or None."""
    if not isinstance(label, str):
        return None
    folded, origins = fold(label, cs, ds)
    scalar_ranges = []
    for term in terms:
        found = occurrences(folded, term, ds, mode == "prefix")
        if not found:
            return None
        scalar_ranges += [(origins[s], origins[e - 1] + 1) for s, e in found]
    ranges = merge(scalar_ranges)
    extended = []
    for s, e in ranges:
        while e < len(label) and unicodedata.category(label[e]) in MARKS:
            e += 1
        extended.append((s, e))
    ranges = merge(extended)
    utf16 = [0]
    for c in label:
        utf16.append(utf16[-1] + (2 if ord(c) > 0xFFFF else 1))
    return [[utf16[s], utf16[e]] for s, e in ranges]


# -- random requests --

def random_text(rng: random.Random, scalars: int) -> str:
    out = ""
    while len(out) < scalars:
        if rng.random() < 0.15:
            out += rng.choice(WORDS)
        else:
            pool = rng.choices([p for p, _ in POOLS], weights=[w for _, w in POOLS])[0]
            out += rng.choice(pool)
    return out


def random_query(rng: random.Random, labels: list[str], mode) -> str:
    strings = [l for l in labels if isinstance(l, str) and l]
    if strings and rng.random() < 0.6:
        label = rng.choice(strings)
        start = rng.randrange(len(label))
        query = label[start:start + rng.randint(1, 6)]
        change = rng.random()
        if change < 0.15:
            query = query.upper()
        elif change < 0.3:
            query = query.lower()
        elif change < 0.4:
            query = unicodedata.normalize("NFD", query)
        elif change < 0.5:
            query = unicodedata.normalize("NFC", query)
        elif change < 0.6:
            query = "".join(c for c in unicodedata.normalize("NFD", query) if unicodedata.category(c) != "Mn")
        if rng.random() < 0.3:
            query += rng.choice(SPACES) + rng.choice(strings)[:rng.randint(1, 4)]
        if mode == "words" and rng.random() < 0.5:
            # A one-scalar term next to the slice, often a combining mark: ranges that meet once extended.
            at = min(len(label) - 1, start + rng.randint(0, 6))
            query += rng.choice(SPACES) + label[at]
    else:
        query = random_text(rng, rng.randint(1, 5))
    return query[:256] or "a"


def random_case(rng: random.Random):
    """A request body (without the endpoint-specific members) and the tree facts the answers need."""
    n = rng.randint(1, 24)
    parents = [-1 if i == 0 or rng.random() < 0.2 else rng.randrange(i) for i in range(n)]
    label_key = rng.choice(["label", "label", "name", "título"])
    labels = []
    for _ in range(n):
        r = rng.random()
        # Some labels long enough (64 bytes or more) to be collected in the pass that matches them.
        length = rng.randint(1, 20) if rng.random() < 0.9 else rng.randint(30, 120)
        labels.append(None if r < 0.05 else 7 if r < 0.08 else "" if r < 0.1 else random_text(rng, length))
    flat = rng.random() < 0.5
    children = [[c for c in range(n) if parents[c] == v] for v in range(n)]
    # Nested form: a node without children sometimes still has an empty children array (expandable).
    empty_children = [not children[v] and rng.random() < 0.2 for v in range(n)]

    def node_object(v):
        obj = {"id": v}
        if labels[v] is not None or rng.random() < 0.5:
            obj[label_key] = labels[v]
        return obj

    if flat:
        order = list(range(n))
        rng.shuffle(order)
        nodes = []
        for v in order:
            obj = node_object(v)
            obj["parent"] = None if parents[v] < 0 else parents[v]
            nodes.append(obj)
        body = {"parentKey": "parent", "nodes": nodes}
        # Flat form: siblings keep the array order.
        children = [[c for c in order if parents[c] == v] for v in range(n)]
        roots = [v for v in order if parents[v] < 0]
        expandable = [bool(children[v]) for v in range(n)]
    else:
        def nested(v):
            obj = node_object(v)
            if children[v]:
                obj["children"] = [nested(c) for c in children[v]]
            elif empty_children[v]:
                obj["children"] = []
            return obj
        roots = [v for v in range(n) if parents[v] < 0]
        body = {"nodes": [nested(v) for v in roots]}
        expandable = [bool(children[v]) or empty_children[v] for v in range(n)]
    pre = []
    stack = list(reversed(roots))
    while stack:
        v = stack.pop()
        pre.append(v)
        stack += reversed(children[v])
    depth = [0] * n
    for v in pre:
        if parents[v] >= 0:
            depth[v] = depth[parents[v]] + 1

    mode = rng.choice(["substring", "prefix", "words", None])
    search = {"query": random_query(rng, labels, mode)}
    if label_key != "label":
        search["labelKey"] = label_key
    if mode:
        search["mode"] = mode
    for flag in ("caseSensitive", "diacriticSensitive"):
        r = rng.random()
        if r < 0.3:
            search[flag] = True
        elif r < 0.5:
            search[flag] = False
    body["search"] = search
    tree = {"n": n, "parents": parents, "pre": pre, "depth": depth, "expandable": expandable, "labels": labels}
    return body, tree


def expected_answers(body, tree, rows_extra):
    s = body["search"]
    mode, cs, ds = s.get("mode", "substring"), s.get("caseSensitive", False), s.get("diacriticSensitive", False)
    terms = terms_of(s["query"], mode, cs, ds)
    if not terms:
        return None, None
    n, parents, pre = tree["n"], tree["parents"], tree["pre"]
    ranges = [label_ranges(tree["labels"][v], terms, mode, cs, ds) for v in range(n)]
    below = [False] * n
    for v in reversed(pre):
        if parents[v] >= 0 and (below[v] or ranges[v] is not None):
            below[parents[v]] = True
    expansion = {"expand": [v for v in pre if below[v]],
                 "matches": [{"id": v, "ranges": ranges[v]} for v in pre if ranges[v] is not None]}
    visible = [v for v in pre if below[v] or ranges[v] is not None]
    selection = rows_extra.get("selection")
    offset, limit = rows_extra.get("offset", 0), rows_extra.get("limit")
    rows = []
    for index, v in enumerate(visible):
        if index >= offset and (limit is None or index < offset + limit):
            rows.append({"index": index, "id": v, "depth": tree["depth"][v],
                         "parent": None if parents[v] < 0 else parents[v], "expandable": tree["expandable"][v],
                         "expanded": below[v], "selected": v == selection,
                         "match": None if ranges[v] is None else {"ranges": ranges[v]}})
    selected_row = visible.index(selection) if selection in visible else None
    answer = {"rows": rows, "totalRows": len(visible), "selectedRow": selected_row,
              "matchCount": sum(r is not None for r in ranges)}
    if rows_extra.get("includeNoSelection", True):
        answer["noSelection"] = {"selected": selection is None}
    return answer, expansion


# -- the server --

class Server:
    """The binary on a port the kernel picks, called over one keep-alive connection."""

    def __init__(self, binary: str):
        self.trellis = Trellis(binary, "--threads", "2")
        self.connection = http.client.HTTPConnection("127.0.0.1", self.trellis.port, timeout=30)

    def post(self, path: str, body: dict, ensure_ascii: bool):
        data = json.dumps(body, ensure_ascii=ensure_ascii).encode()
        self.connection.request("POST", path, data, {"Content-Type": "application/json"})
        response = self.connection.getresponse()
        return response.status, json.loads(response.read())

    def stop(self) -> None:
        self.connection.close()
        self.trellis.stop()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--trees", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=16)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    server = Server(args.binary)
    failures = compared = refused = matched = 0
    modes: dict[str, int] = {}
    try:
        for case in range(args.trees):
            body, tree = random_case(rng)
            extra = {}
            if rng.random() < 0.5:
                extra["selection"] = rng.randrange(tree["n"])
            if rng.random() < 0.3:
                extra["offset"] = rng.randint(0, 4)
            if rng.random() < 0.3:
                extra["limit"] = rng.randint(0, 6)
            if rng.random() < 0.1:
                extra["includeNoSelection"] = False
            if rng.random() < 0.2:
                extra["expanded"] = [rng.randrange(tree["n"])]
            rows_answer, expansion_answer = expected_answers(body, tree, extra)
            mode = body["search"].get("mode", "substring")
            modes[mode] = modes.get(mode, 0) + 1
            ascii_only = rng.random() < 0.5
            for path, request, expected in (("/v1/outline/rows", {**body, **extra}, rows_answer),
                                            ("/v1/outline/expansion", body, expansion_answer)):
                status, answer = server.post(path, request, ascii_only)
                compared += 1
                if expected is None:
                    # A query that folds to nothing is a 422 at /search/query.
                    ok = status == 422 and [e["pointer"] for e in answer.get("errors", [])] == ["/search/query"]
                    refused += ok
                else:
                    ok = status == 200 and answer == expected
                    matched += ok and bool(expected.get("matches") or expected.get("matchCount"))
                if not ok:
                    failures += 1
                    if failures <= 5:
                        print(f"MISMATCH case {case} {path}\nrequest:  {json.dumps(request, ensure_ascii=False)}\n"
                              f"expected: {json.dumps(expected, ensure_ascii=False)}\n"
                              f"got ({status}): {json.dumps(answer, ensure_ascii=False)}\n", file=sys.stderr)
    finally:
        server.stop()
    print(f"{compared} answers compared over {args.trees} trees (modes {modes}): {matched} with matches, "
          f"{refused} refused queries, {failures} mismatches")
    # The check must exercise both outcomes, or it proves nothing.
    if failures or matched < compared // 4:
        sys.exit("FAIL")
    print("ok")


if __name__ == "__main__":
    main()
