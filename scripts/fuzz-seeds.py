#!/usr/bin/env python3
"""Writes the fuzzers' seed corpus, fuzz/corpus/<endpoint>/: each operation's examples from
openapi.yaml plus hand-picked edge cases (other forms of the request, values at and past the
limits, malformed JSON). `make fuzz` reads these and keeps what it discovers in
.build/fuzz-work/corpus/<endpoint>/, so this folder only changes when this script does.
Also writes fuzz/trellis.dict, libFuzzer's dictionary: every property name and enum value in
openapi.yaml's schemas, as JSON strings, plus JSON's own tokens.

Usage: python3 scripts/fuzz-seeds.py   (from the repository root; needs PyYAML)
"""
import json
import pathlib
import shutil

import yaml

ROOT = pathlib.Path(__file__).resolve().parent.parent
CORPUS = ROOT / "fuzz" / "corpus"

ENDPOINTS = {
    "outline-expansion": "/v1/outline/expansion",
    "outline-rows": "/v1/outline/rows",
    "flow-layout": "/v1/flow/layout",
    "sections-toggle": "/v1/sections/toggle",
    "drawer-state": "/v1/drawer/state",
    "text-measure": "/v1/text/measure",
    "text-layout": "/v1/text/layout",
    "batch": "/v1/batch",
}

# Malformed or off-schema bodies every endpoint gets.
COMMON = {
    "empty": b"",
    "null": b"null",
    "array": b"[]",
    "object": b"{}",
    "string": b'"nodes"',
    "truncated": b'{"nodes":[{"id":1,"children":[',
    "bom": b'\xef\xbb\xbf{}',
    "invalid-utf8": b'{"id":"\xff\xfe"}',
    "nul": b'{"a":"\x00"}',
    "too-deep": b"[" * 1100 + b"]" * 1100,
    "numbers": b'[1e400,-0,1e-400,18446744073709551616,-9223372036854775809,0.1e-5]',
    "nan": b"[NaN,Infinity,-Infinity]",
    "extreme-numbers": b'{"a":[-0,1e-400,18446744073709551615,-9223372036854775808,1.7976931348623157e308,5e-324]}',
    "duplicate-keys": b'{"a":1,"a":2}',
}

TREE = [{"id": "root", "children": [{"id": "a", "children": [{"id": "a1"}, {"id": "a2", "children": []}]},
                                     {"id": "b", "children": None}]}, {"id": 7}]
FLAT = [{"id": 1}, {"id": 2, "parent": 1}, {"id": 3, "parent": 2}, {"id": "x", "parent": 1}, {"id": 4, "parent": None}]

CASES = {
    "outline-expansion": {
        "cost-nested-folded-terms": {"nodes": [{"id": i, "label": "f" * 300 + "é"} for i in range(8)],
                                     "search": {"query": "ﬀ ﬀﬀ ﬀﬀﬀ ﬀﬀﬀﬀ ﬀﬀﬀﬀﬀ é", "mode": "words"}},
        "selections": {"nodes": TREE, "selections": ["a1", 7, "missing"]},
        "both-selections": {"nodes": TREE, "selection": "a1", "selections": ["a1"]},
        "flat": {"nodes": FLAT, "parentKey": "parent", "selection": 3},
        "flat-cycle": {"nodes": [{"id": 1, "parent": 2}, {"id": 2, "parent": 1}, {"id": 3, "parent": 3}],
                       "parentKey": "parent", "selection": 1},
        "keys": {"nodes": [{"key": "r", "kids": [{"key": "c"}]}], "idKey": "key", "childrenKey": "kids",
                 "selection": "c"},
        "same-keys": {"nodes": TREE, "idKey": "id", "childrenKey": "id"},
        "duplicates": {"nodes": [{"id": 1, "children": [{"id": 1}, {"id": "1"}]}, {"id": 9007199254740993}],
                       "selection": 1},
        "bad-nodes": {"nodes": [1, None, {"id": 1.5}, {"id": True}, {"children": 3}], "selection": [1]},
        "search": {"nodes": [{"id": 1, "label": "Straße café", "children": [{"id": 2, "label": "cafe\u0301 𐐀 👍🏽"}]},
                             {"id": 3, "name": "İstanbul ΣΊΣΥΦΟΣ"}],
                   "search": {"query": "SS e", "mode": "words", "diacriticSensitive": True}},
        "search-and-selection": {"nodes": TREE, "selection": "a1", "search": {"query": "\u0301", "labelKey": 7, "mode": "x"}},
    },
    "outline-rows": {
        "cost-nested-folded-terms": {"nodes": [{"id": i, "label": "f" * 300 + "é"} for i in range(8)],
                                     "search": {"query": "ﬀ ﬀﬀ ﬀﬀﬀ ﬀﬀﬀﬀ ﬀﬀﬀﬀﬀ é", "mode": "words"}, "limit": 4},
        # A member name that starts with a combining mark (its pointer's "/" and the mark are one Character).
        "pointer-combining-mark": {"nodes": [{"id": 1}], "idKey": "\u0323~0/x"},
        # A query of many distinct folded scalars: its automaton has a row and a column for each.
        "cost-distinct-scalars": {"nodes": [{"id": 1, "label": ""}],
                                  "search": {"query": "".join(chr(0x4E00 + i) for i in range(256))}},
        "cost-long-folds": {"nodes": [{"id": 1, "label": "\u1f8f"}], "search": {
            "query": "".join(chr(c) for c in range(0x1F80, 0x1FB0)) * 5 + "ǄǅǆǇǈǉǊǋǌ", "diacriticSensitive": True}},
        "expanded": {"nodes": TREE, "expanded": ["root", "a", "nope"], "selection": None},
        "window": {"nodes": TREE, "selection": "a2", "offset": 2, "limit": 1, "includeNoSelection": False},
        "window-past-end": {"nodes": TREE, "offset": 9223372036854775807, "limit": 9223372036854775807},
        "flat": {"nodes": FLAT, "parentKey": "parent", "expanded": [1, 2], "selection": "x", "limit": 0},
        "negative": {"nodes": TREE, "offset": -1, "limit": -5, "expanded": "root"},
        "flat-orphan": {"nodes": [{"id": 1, "up": 5}, {"id": 2, "up": 1}], "parentKey": "up", "idKey": "up"},
        "search": {"nodes": FLAT + [{"id": 5, "parent": 1, "title": "ǅemal ﬃ ı"}], "parentKey": "parent", "selection": 3,
                   "limit": 2, "search": {"query": "DŽ", "labelKey": "title", "mode": "prefix", "caseSensitive": False}},
    },
    "flow-layout": {
        "everything": {"containerWidth": 240, "columnGap": 3, "rowGap": 2, "alignment": "spaceEvenly",
                       "rowAlignment": "bottom", "direction": "rtl", "maxRows": 2,
                       "overflowIndicator": {"width": 30, "height": 20}, "lineBreaking": "balanced",
                       "pixelScale": 3,
                       "items": [{"id": i, "width": 10 + 13 * i, "height": 10 + (i % 3) * 7,
                                  "breakBefore": i == 4} for i in range(9)]},
        "spacing-and-gaps": {"containerWidth": 100, "horizontalSpacing": 5, "verticalSpacing": 6,
                             "columnGap": 1, "rowGap": 1, "alignment": "center", "rowAlignment": "center",
                             "items": [{"width": 50, "height": 10}, {"width": 50, "height": 20}]},
        "zero-and-huge": {"containerWidth": 0, "alignment": "spaceBetween",
                          "items": [{"width": 0, "height": 0}, {"width": 1e9, "height": 1e9},
                                    {"width": 1e9, "height": 0.5, "breakBefore": True}]},
        "balanced-overflow": {"containerWidth": 50, "lineBreaking": "balanced", "maxRows": 1,
                              "overflowIndicator": {"width": 60, "height": 5}, "alignment": "spaceAround",
                              "items": [{"width": 20, "height": 5}] * 7},
        "pixel-scale": {"containerWidth": 301.7, "pixelScale": 0.001, "alignment": "trailing",
                        "items": [{"id": "a", "width": 33.333, "height": 12.5}, {"id": "b", "width": 99.99, "height": 1}]},
        "extreme-numbers": b'{"containerWidth":-0,"horizontalSpacing":1e-400,"maxRows":18446744073709551615,'
                           b'"items":[{"width":5e-324,"height":-0.0},{"width":999999999.99999999,"height":1e9}]}',
        "invalid": {"containerWidth": -1, "maxRows": 2.0, "pixelScale": 1000, "items": [{"width": "1"}, None]},
        "labels": {"containerWidth": 120, "maxRows": 2, "direction": "rtl",
                   "font": {"family": "'IPAGothic', sans-serif", "size": 13.25, "weight": 700, "style": "oblique"},
                   "labelPadding": {"top": 2, "leading": 6, "bottom": 2, "trailing": 6},
                   "overflowIndicator": {"text": "+{n} {n}"},
                   "items": [{"text": t} for t in ["東京", "שלום", "office", "", "a\u200db", "مرحبا 12"]]
                   + [{"width": 5, "height": 5}]},
        "labels-invalid": {"containerWidth": 10, "font": {"family": "Nope,", "size": 0},
                           "labelPadding": {"top": -1}, "overflowIndicator": {"text": 1, "width": 2},
                           "items": [{"text": "x", "width": 1}, {"text": "\u0007"}, {"text": None}]},
    },
    "text-measure": {
        "cost-long-cluster": {"font": {"family": "DejaVu Serif, DejaVu Sans Mono, DejaVu Sans", "size": 16},
                              "texts": ["a" + "\u0301\u0323" * 15 + "\u20d0", "a" + "\u0301\u0323" * 40]},
        "scripts": {"font": {"family": "DejaVu Serif, DejaVu Sans, IPAGothic", "size": 33.75},
                    "texts": ["AV To ffi", "Ωμέγα", "עברית 123", "العدد ١٢٣", "ｶﾀｶﾅ", "e\u0301\u0323", "\u200b", ""]},
        "problems": {"font": {"family": "'Unclosed", "size": 1001, "weight": 0, "style": "bold"},
                     "texts": ["\u202e", "\t", 5, "x" * 1001]},
        "uncovered": {"font": {"family": "IPAGothic", "size": 0.001}, "texts": ["שלום", "\U0001F600"]},
        "generic": {"font": {"family": "monospace, serif, sans-serif", "size": 1000}, "texts": ["W" * 1000]},
    },
    "text-layout": {
        "modes": {"font": {"family": "DejaVu Sans, IPAGothic, Garuda, NanumBarunGothic, Noto Color Emoji", "size": 13.25},
                  "texts": ["AV To ffi well-known ABCD-1234 -5?x", "明太子パスタ「ちょっと」ー", "ภาษาไทยเขียนติดกัน",
                            "מה  שלומך? 123", "العدد ١٢٣ لا", "I \u2764\ufe0f \U0001F469\u200d\U0001F4BB 🇯🇵", "  ", ""],
                  "widths": [0.001, 37.5, 1e6], "wordBreak": "break-all", "overflowWrap": "anywhere",
                  "contentWidths": True},
        "clamp": {"font": {"family": "Droid Sans Fallback, DejaVu Sans", "size": 16}, "texts": ["今天天气很好。“明天见。”" * 20],
                  "width": 50, "maxLines": 2, "textOverflow": "ellipsis", "lineHeight": 0.5, "whiteSpace": "pre-wrap"},
        "nowrap": {"font": {"family": "DejaVu Serif", "size": 1000}, "texts": ["W" * 1000], "width": 1,
                   "whiteSpace": "nowrap", "textOverflow": "ellipsis", "wordBreak": "keep-all"},
        "problems": {"font": {"family": "DejaVu Sans", "size": 16}, "texts": ["\n", 1], "width": 0, "widths": [],
                     "whiteSpace": "pre-line", "maxLines": 0, "textOverflow": "fade", "lineHeight": None},
    },
    "sections-toggle": {
        "cost-collapse-all": {"sections": [{"id": i} for i in range(50)], "mode": "single", "expanded": [3],
                              "actions": [{"type": "collapseAll"}] * 50},
        "actions": {"sections": [{"id": 1, "items": ["a"]}, {"id": "1", "items": []}, {"id": 3}],
                    "mode": "multiple", "expanded": [1, 3],
                    "actions": [{"type": "expandAll"}, {"type": "toggle", "section": "1"},
                                {"type": "collapse", "section": 3}, {"type": "collapseAll"},
                                {"type": "expand", "section": 1}]},
        "single": {"sections": [{"id": "a", "items": ["x"]}, {"id": "b", "items": ["y", "z"]}],
                   "mode": "single", "collapsible": True, "expanded": ["a"], "toggle": "a"},
        "unknown-ids": {"sections": [{"id": "a"}], "expanded": ["zz"], "toggle": "q",
                        "actions": [{"type": "toggle", "section": "nope"}, {"type": "explode"}]},
        "duplicates": {"sections": [{"id": 1}, {"id": 1}], "expanded": [1, 1], "mode": "single",
                       "collapsible": False},
        "toggle-and-actions": {"sections": [{"id": 1}], "toggle": 1, "actions": [{"type": "toggle", "section": 1}]},
    },
    "drawer-state": {
        "cost-slow-spring": {"action": "toggle", "container": {"width": 390, "height": 844}, "frameRate": 240,
                             "spring": {"response": 0.5, "dampingFraction": 0.01}},
        # Padding once bought 16 keyframes or samples a byte: an overdamped spring at 240 frames/s, padded.
        "cost-padded-spring": {"action": "toggle", "container": {"width": 390, "height": 844}, "frameRate": 240,
                               "spring": {"response": 3.0, "dampingFraction": 3.5}, "note": "x" * 7000},
        # The heaviest transition the fuzzer found in a small request (about 12,800 keyframes and samples then; now
        # 2,136 keyframes and about 80 samples, answered).
        "cost-overdamped-237": {"action": "toggle", "container": {"width": 390, "height": 456}, "frameRate": 237,
                                "drawerWidth": 200, "edge": "leading", "maskOpacity": 0.2,
                                "spring": {"response": 1.55, "dampingFraction": 2.724}},
        # SwiftUI's overdamped spring that settles in 5.3 s: refused at 24 frames/s while its easing cost a sample per ms.
        "swiftui-overdamped-24fps": {"action": "toggle", "container": {"width": 390, "height": 844}, "frameRate": 24,
                                     "spring": {"response": 1.0, "dampingFraction": 2.5}},
        # The most easing samples within the limit: a 50 ms spring that rings for 1.9 s (about 2,370 samples, 433 stops).
        "cost-ringing-easing": {"action": "toggle", "container": {"width": 390, "height": 844}, "frameRate": 1,
                                "spring": {"response": 0.05, "dampingFraction": 0.029}},
        "minimal": {"container": {"width": 320, "height": 480}},
        "ios17-spring": {"isPresented": True, "action": "close", "container": {"width": 1024, "height": 768},
                         "drawerWidth": 320, "edge": "trailing", "layoutDirection": "rtl",
                         "spring": {"duration": 0.3, "bounce": -0.5}, "frameRate": 120},
        "overdamped": {"isPresented": False, "action": "open", "container": {"width": 390, "height": 844},
                       "spring": {"response": 2, "dampingFraction": 3}, "frameRate": 30},
        "from-motion": {"isPresented": True, "action": "tapMask", "container": {"width": 390, "height": 844},
                        "from": {"x": -150, "velocity": 900}, "maskOpacity": 1,
                        "spring": {"duration": 1.5, "bounce": 0.9}},
        "tiny-spring": {"action": "toggle", "container": {"width": 390, "height": 844},
                        "spring": {"response": 1e-9, "dampingFraction": 1e-9}, "frameRate": 1e6},
        "both-springs": {"container": {"width": 0, "height": 0}, "drawerWidth": 500,
                         "spring": {"response": 1, "dampingFraction": 1, "duration": 1, "bounce": 0},
                         "safeAreaInsets": {"top": -1, "leading": 1e308, "bottom": 0, "trailing": 0}},
    },
    "batch": {
        "every-feature": {"requests": [
            {"path": "/v1/outline/expansion", "body": {"nodes": TREE, "selection": "a2"}},
            {"path": "/v1/outline/rows", "body": {"nodes": FLAT, "parentKey": "parent", "search": {"query": "x"}}},
            {"path": "/v1/flow/layout", "body": {"containerWidth": 100, "items": [{"width": 40, "height": 20}] * 3}},
            {"path": "/v1/sections/toggle", "body": {"sections": [{"id": 1}, {"id": 2}], "toggle": 2}},
            {"path": "/v1/drawer/state", "body": {"action": "toggle", "container": {"width": 390, "height": 844}}},
            {"path": "/v1/text/measure", "body": {"font": {"family": "DejaVu Sans", "size": 16}, "texts": ["chip"]}},
            {"path": "/v1/text/layout", "body": {"font": {"family": "DejaVu Sans", "size": 16}, "width": 60,
                                                "texts": ["a paragraph of words"]}},
        ]},
        "entry-problems": {"requests": [
            {"path": "/v1/flow/layout", "body": {"containerWidth": -1, "items": "x"}},
            {"path": "/v1/sections/toggle", "body": []},
            {"path": "/v1/drawer/state", "body": None},
        ]},
        "malformed-batch": {"requests": [
            {"path": "/v1/batch", "body": {"requests": []}}, {"path": "/v1/unknown", "body": {}},
            {"path": "/healthz", "body": {}}, {"body": {}}, {"path": "/v1/flow/layout"}, 7, None,
        ]},
        "empty-requests": {"requests": []},
        "too-many": {"requests": [{"path": "/v1/sections/toggle", "body": {"sections": [{"id": 1}]}}] * 101},
        "cost-entries": {"requests": [
            {"path": "/v1/drawer/state", "body": {"action": "toggle", "container": {"width": 390, "height": 844},
                                                 "frameRate": 240, "spring": {"response": 0.5, "dampingFraction": 0.01}}},
            {"path": "/v1/outline/rows", "body": {"nodes": [{"id": 1, "label": "\ufb00" * 64 + "\u00e9"}],
                                                 "search": {"query": "\ufb00 \ufb00\ufb00 \ufb00\ufb00\ufb00", "mode": "words"}}},
            {"path": "/v1/text/measure", "body": {"font": {"family": "DejaVu Sans", "size": 16},
                                                 "texts": ["a" + "\u0301\u0323" * 20]}},
        ]},
    },
}


def examples(spec, path):
    media = spec["paths"][path]["post"]["requestBody"]["content"]["application/json"]
    if "example" in media:
        return {"example": media["example"]}
    if "examples" in media:
        return {f"example-{name}": e["value"] for name, e in media["examples"].items()}
    name = media["schema"]["$ref"].split("/")[-1]
    return {f"example-{i}": e for i, e in enumerate(spec["components"]["schemas"][name].get("examples", []))}


def dictionary(spec):
    words = set()

    def walk(node):
        if isinstance(node, dict):
            for name, value in (node.get("properties") or {}).items():
                words.add(json.dumps(name))
            for value in node.get("enum") or []:
                if isinstance(value, str):
                    words.add(json.dumps(value))
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(spec["components"]["schemas"])
    tokens = ["{", "}", "[", "]", ":", ",", "null", "true", "false", "-0", "1e9", "1e-9", "0.5", '""', '"\\u0000"']
    # What makes a request cost more than its size: combining marks and long clusters (shaping), scalars that
    # fold to several (search), nested terms, slow springs at high frame rates, many actions.
    cost = ["\u0301", "\u0323", "\u20d0", "\u0301\u0323\u0301\u0323\u0301\u0323\u0301\u0323", "\u200d", "\ufe0f",
            "\u00df", "\ufb00", "\ufb03", "\u0130", "\u1f82", "\uac00", "\u0e01", "\U0001f600", "\U0001f469\u200d\U0001f4bb",
            "\ufb00 \ufb00\ufb00 \ufb00\ufb00\ufb00", "f f ff fff ffff", "a aa aaa aaaa",
            "0.01", "0.001", "240", "1e-300", "59.9", "\"expandAll\"", "\"collapseAll\"", "\"words\"", "\"balanced\""]
    lines = [f"# {len(words)} property names and enum values from openapi.yaml, then JSON tokens, then cost-makers."]
    lines += [json.dumps(word) for word in sorted(words)] + [json.dumps(token) for token in tokens]
    # libFuzzer's dictionary takes printable ASCII: every other byte of a token's UTF-8 as \\xNN.
    lines += ['"' + "".join(chr(b) if 32 <= b < 127 and b not in (34, 92) else f"\\x{b:02X}" for b in token.encode()) + '"'
              for token in cost]
    (ROOT / "fuzz" / "trellis.dict").write_text("\n".join(lines) + "\n")


def main():
    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text())
    dictionary(spec)
    for endpoint, path in ENDPOINTS.items():
        folder = CORPUS / endpoint
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        seeds = {name: json.dumps(value, ensure_ascii=False).encode() for name, value in examples(spec, path).items()}
        if not seeds:
            raise SystemExit(f"openapi.yaml has no request example for {path}")
        seeds.update({name: value if isinstance(value, bytes) else json.dumps(value, ensure_ascii=False).encode()
                      for name, value in CASES[endpoint].items()})
        seeds.update(COMMON)
        for name, body in seeds.items():
            (folder / f"{name}.json").write_bytes(body)
        print(f"{folder.relative_to(ROOT)}: {len(seeds)} seeds")


if __name__ == "__main__":
    main()
