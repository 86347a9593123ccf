#!/usr/bin/env python3
"""Writes the fuzzers' seed corpus, fuzz/corpus/<endpoint>/: each operation's examples from
openapi.yaml, every sample of its feature (Sources/TrellisAPI/<Feature>/samples.json: normal requests,
edge cases, crafted cost cases; recipes expanded at trellis_samples.SMALL bytes with salt 0, and left
out past 16 KiB, the fuzzer's longest input), and malformed JSON (below). `make fuzz` reads these and
keeps what it discovers in .build/fuzz-work/corpus/<endpoint>/, so this folder only changes when this
script or the samples do.
Also writes fuzz/trellis.dict, libFuzzer's dictionary: every property name and enum value in
openapi.yaml's schemas, as JSON strings, plus JSON's own tokens.

Usage: python3 scripts/fuzz-seeds.py   (needs PyYAML)
"""
import json
import pathlib
import shutil

import yaml

from trellis_samples import BATCH_PATH, SMALL, Samples

ROOT = pathlib.Path(__file__).resolve().parent.parent
CORPUS = ROOT / "fuzz" / "corpus"
# libFuzzer's -max_len in scripts/fuzz.sh: a longer seed would be cut.
LONGEST = 16 << 10

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


def short_name(path):
    """The corpus folder of a path, as the fuzz target names it: /v1/flow/layout -> flow-layout."""
    return "-".join(path.split("/")[2:])


def main():
    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text())
    dictionary(spec)
    samples = Samples(ROOT)
    for path in samples.paths + [BATCH_PATH]:
        folder = CORPUS / short_name(path)
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        seeds = {name: json.dumps(value, ensure_ascii=False).encode() for name, value in examples(spec, path).items()}
        if not seeds:
            raise SystemExit(f"openapi.yaml has no request example for {path}")
        for sample in samples.of(path):
            if sample.name in seeds or sample.name in COMMON:
                raise SystemExit(f"{sample.folder}/samples.json: {path} has another seed named {sample.name}")
            body = samples.body(sample, SMALL, 0, compact=False)
            if len(body) <= LONGEST:
                seeds[sample.name] = body
        seeds.update(COMMON)
        for name, body in seeds.items():
            (folder / f"{name}.json").write_bytes(body)
        print(f"{folder.relative_to(ROOT)}: {len(seeds)} seeds")


if __name__ == "__main__":
    main()
