"""Each feature's sample requests: Sources/TrellisAPI/<Feature>/samples.json, read and expanded.

The fuzz seeds (scripts/fuzz-seeds.py) and bench/cost.py read them here; the fuzz target and the Swift tests
read the same files through Tests/TrellisSamples, which implements the same language (the answer corpus test
checks that both expand every sample to the seed's bytes).

A samples file is {"paths": [...], "shared": {...}, "let": {...}, "samples": [...]}: `shared` names are seen by
every file's recipes (the text layout's holds the words of the scripts ICU breaks by dictionary), `let` names by
this file's. Each sample has
  name    unique among its path's samples: the fuzz seed's file name (fuzz/corpus/<endpoint>/<name>.json)
  path    one path or a list of them (default: the file's only path)
  kind    "normal" (what a client normally sends), "edge" (other forms, limits, problems) or "cost" (crafted
          to cost more than its size: compared with a normal one of its group)
  title   what bench/cost.py prints (default: the name)
  about   why the sample is there (a comment)
  group   bench/cost.py's row group: a normal sample is its group's yardstick, a cost sample is compared with it
  fuzzer  true on the one normal sample per path that the fuzz target measures its cost check against; "answer" on
          at most one more normal sample per path, whose answer is larger at the same size: the fuzz target measures
          with it what a normal answer costs per byte (for an endpoint whose answer can grow without its body)
  body    the request, literally; or raw: its bytes as text (not JSON); or recipe: a template (below)
  let     names defined in order before the recipe is expanded (after the shared names and the file's `let`)
  fonts   font files of Debian's fonts-noto-core the request needs besides the default fonts (bench/cost.py runs it
          on a server given them, and leaves it out where they are not installed)

A recipe is expanded for a size (the body bytes to aim at: counts are written in terms of `size`) and a
salt (every text and number a cache could key on differs between salts). In a template, a string that
starts with "=" is an expression; {"$for": NAME, "count": T, "item": T} is a list of `count` items with
NAME = 0, 1, ... (with "join": SEP, the items are strings joined into one); anything else is itself, its
members and elements expanded. Expressions are Python's syntax, restricted: numbers, 'strings' (no
backslashes: use chr), None, True, False, [lists], names, + - * / // % & | << >>, unary - and not,
comparisons (one operator), and, or, `a if c else b`, x[i], and calls of the functions in FUNCTIONS.
Names: size, salt, paths (the feature paths but the batch's, sorted), the lets, the $for variables.
"""
from __future__ import annotations

import ast
import json
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
FEATURES = ROOT / "Sources" / "TrellisAPI"
BATCH_PATH = "/v1/batch"
# The fuzz seeds and the answer corpus expand recipes at this size; the fuzz target's normal requests are this
# size and LARGE (about its longest input).
SMALL = 256
LARGE = 16_000
KINDS = ("normal", "edge", "cost")
FIELDS = {"name", "path", "kind", "title", "about", "group", "fuzzer", "fonts", "let", "body", "raw", "recipe"}

# -- the functions a recipe may call (Tests/TrellisSamples implements each the same way) --

SYLLABLES = ["ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "ze", "po", "qu", "an", "el", "or"]
# Every Unicode scalar from U+00A0 to U+2FFFF but the surrogates, in order.
SCALARS_FIRST, SCALARS_END = 0xA0, 0x30000
SCALARS_COUNT = SCALARS_END - SCALARS_FIRST - 0x800


def _words(salt):
    def words(n, seed):
        """n different short words of 2 to 4 syllables and a number, from a 64-bit LCG seeded by seed and the salt."""
        out, x = [], seed + salt * 1_000_003
        for i in range(n):
            x = _lcg(x)
            k = 2 + (x >> 60) % 3
            out.append("".join(SYLLABLES[(x >> (8 * j)) % len(SYLLABLES)] for j in range(k)) + str((i + salt) % 97))
        return out
    return words


def bits(k, n, one, zero):
    """n characters: `one` where bit j of k is set, else `zero` (j from 0)."""
    return "".join(one if (k >> j) & 1 else zero for j in range(n))


def pad(s, width):
    """s followed by spaces up to `width` scalars."""
    return s.ljust(width)


def zpad(n, width):
    """n ≥ 0 in decimal, zeros in front up to `width` digits."""
    if n < 0:
        raise ValueError("zpad takes n ≥ 0")
    return str(n).zfill(width)


def prefix(s, n):
    """The first n scalars of s."""
    return s[:n]


def scalar_run(k, n):
    """n scalars in a row from position k of the cycle of every scalar U+00A0 to U+2FFFF but the surrogates."""
    out = []
    for j in range(n):
        c = SCALARS_FIRST + (k + j) % SCALARS_COUNT
        out.append(chr(c + 0x800 if c >= 0xD800 else c))
    return "".join(out)


def join(items, sep):
    return sep.join(items)


def _lcg(x):
    return (x * 6364136223846793005 + 1442695040888963407) % (1 << 64)


def _prose(salt):
    def prose(vocabulary, scalars, seed):
        """Words of `vocabulary` without spaces between them, a space after every sixth (as between phrases), cut to
        `scalars` scalars and stripped; from the LCG seeded by seed and the salt."""
        out, x, length = [], seed + salt * 1_000_003, 0
        while length < scalars:
            x = _lcg(x)
            out.append(vocabulary[(x >> 33) % len(vocabulary)] + (" " if len(out) % 6 == 5 else ""))
            length += len(out[-1])
        return "".join(out)[:scalars].strip()
    return prose


def _letters(salt):
    def letters(first, count, scalars, seed):
        """`scalars` scalars picked at random among the `count` from `first`, from the LCG seeded by seed and the salt."""
        out, x = [], seed + salt * 1_000_003
        for _ in range(scalars):
            x = _lcg(x)
            out.append(chr(first + (x >> 33) % count))
        return "".join(out)
    return letters


FUNCTIONS = ("min", "max", "len", "str", "chr", "join", "words", "bits", "pad", "zpad", "prefix", "scalar_run", "prose",
             "letters", "normal")

# -- expressions --

_NODES = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare, ast.IfExp, ast.Call, ast.Name, ast.Load,
          ast.Constant, ast.List, ast.Subscript,
          ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.BitAnd, ast.BitOr, ast.LShift, ast.RShift,
          ast.USub, ast.Not, ast.And, ast.Or, ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE)
_compiled: dict[str, object] = {}


def _compile(source: str):
    code = _compiled.get(source)
    if code is not None:
        return code
    if "\\" in source:
        raise ValueError(f"no backslashes in an expression (use chr): {source!r}")
    tree = ast.parse(source.strip(), mode="eval")
    for node in ast.walk(tree):
        if not isinstance(node, _NODES):
            raise ValueError(f"{type(node).__name__} is not in the samples' expressions: {source!r}")
        if isinstance(node, ast.Compare) and len(node.ops) != 1:
            raise ValueError(f"one comparison operator at a time: {source!r}")
        if isinstance(node, ast.Call) and (not isinstance(node.func, ast.Name) or node.func.id not in FUNCTIONS
                                           or node.keywords):
            raise ValueError(f"calls are to {', '.join(FUNCTIONS)} with positional arguments: {source!r}")
        if isinstance(node, ast.Constant) and not (node.value is None or isinstance(node.value, (bool, int, float, str))):
            raise ValueError(f"constant {node.value!r}: {source!r}")
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
            raise ValueError(f"no slices (use prefix): {source!r}")
    code = compile(tree, "<sample>", "eval")
    _compiled[source] = code
    return code


def _template(t):
    """A function of the environment (a dict, changed in place by $for) that expands template t."""
    if isinstance(t, str) and t.startswith("="):
        code = _compile(t[1:])
        return lambda env: eval(code, env["__functions__"], env)  # noqa: S307 (the whitelist above)
    if isinstance(t, dict) and "$for" in t:
        if set(t) - {"$for", "count", "item", "join"}:
            raise ValueError(f"a $for has count, item and join: {sorted(t)}")
        name, count, item, sep = t["$for"], _template(t["count"]), _template(t["item"]), t.get("join")

        def each(env):
            had, saved, items = name in env, env.get(name), []
            n = count(env)
            if not isinstance(n, int) or isinstance(n, bool) or n < 0:
                raise ValueError(f"a $for's count is an integer ≥ 0, not {n!r}")
            for i in range(n):
                env[name] = i
                items.append(item(env))
            if had:
                env[name] = saved
            else:
                env.pop(name, None)
            return items if sep is None else sep.join(items)
        return each
    if isinstance(t, dict):
        members = [(key, _template(value)) for key, value in t.items()]
        return lambda env: {key: value(env) for key, value in members}
    if isinstance(t, list):
        elements = [_template(value) for value in t]
        return lambda env: [value(env) for value in elements]
    return lambda env: t


class Sample:
    def __init__(self, folder: str, lets: list, data: dict, default_paths: list):
        self.folder = folder
        unknown = set(data) - FIELDS
        if unknown:
            raise ValueError(f"{folder}/samples.json: {data.get('name')} has {sorted(unknown)}, not among {sorted(FIELDS)}")
        self.name = data["name"]
        path = data.get("path", default_paths[0] if len(default_paths) == 1 else None)
        if path is None:
            raise ValueError(f"{folder}/samples.json: {self.name} needs its path")
        self.paths = path if isinstance(path, list) else [path]
        self.kind = data["kind"]
        if self.kind not in KINDS:
            raise ValueError(f"{folder}/samples.json: {self.name}: kind is one of {KINDS}")
        self.title = data.get("title", self.name)
        self.group = data.get("group")
        fuzzer = data.get("fuzzer", False)
        if fuzzer not in (False, True, "answer"):
            raise ValueError(f"{folder}/samples.json: {self.name}: fuzzer is true or \"answer\"")
        self.fuzzer = fuzzer is True
        self.fuzzer_answer = fuzzer == "answer"
        forms = [form for form in ("body", "raw", "recipe") if form in data]
        if len(forms) != 1:
            raise ValueError(f"{folder}/samples.json: {self.name} has one of body, raw and recipe")
        self.form = forms[0]
        self.content = data[self.form]
        self.fonts = list(data.get("fonts", []))
        lets = list(lets) + list(data.get("let", {}).items())
        self._lets = [(name, _template(value)) for name, value in lets] if self.form == "recipe" else []
        self._recipe = _template(self.content) if self.form == "recipe" else None

    def __repr__(self):
        return f"<sample {self.folder}/{self.name}>"


class Samples:
    """Every feature's samples."""

    def __init__(self, root: pathlib.Path = ROOT):
        self.samples: list[Sample] = []
        all_paths = set()
        files = [(file.parent.name, json.loads(file.read_text()))
                 for file in sorted((root / "Sources" / "TrellisAPI").glob("*/samples.json"))]
        shared = {}
        for folder, data in files:
            for name, value in data.get("shared", {}).items():
                if name in shared:
                    raise ValueError(f"{folder}/samples.json shares {name}, which another file shares")
                shared[name] = value
        for folder, data in files:
            paths = data["paths"]
            all_paths.update(paths)
            lets = list(shared.items()) + list(data.get("let", {}).items())
            for item in data["samples"]:
                self.samples.append(Sample(folder, lets, item, paths))
        self.paths = sorted(all_paths - {BATCH_PATH})
        seen = set()
        for sample in self.samples:
            for path in sample.paths:
                if (path, sample.name) in seen:
                    raise ValueError(f"two samples of {path} are named {sample.name}")
                seen.add((path, sample.name))

    def of(self, path: str) -> list[Sample]:
        return [s for s in self.samples if path in s.paths]

    def fuzzer_normal(self, path: str) -> Sample:
        found = [s for s in self.samples if path in s.paths and s.kind == "normal" and s.fuzzer]
        if len(found) != 1:
            raise KeyError(f"{path} has {len(found)} normal samples marked fuzzer (one is needed)")
        return found[0]

    def value(self, sample: Sample, size: int, salt: int):
        """The request as a JSON value (a body, or a recipe expanded for size and salt)."""
        if sample.form == "body":
            return sample.content
        if sample.form == "raw":
            raise ValueError(f"{sample} is raw bytes, not JSON")
        env = {"__functions__": self._functions(salt), "size": size, "salt": salt, "paths": list(self.paths)}
        for name, value in sample._lets:
            env[name] = value(env)
        return sample._recipe(env)

    def body(self, sample: Sample, size: int, salt: int, compact: bool = True) -> bytes:
        """The request's bytes: compact JSON (what cost.py sends), or as the fuzz seeds write it (", " and ": ")."""
        if sample.form == "raw":
            return sample.content.encode()
        separators = (",", ":") if compact else (", ", ": ")
        return json.dumps(self.value(sample, size, salt), ensure_ascii=False, separators=separators).encode()

    def _functions(self, salt):
        return {"__builtins__": {}, "min": min, "max": max, "len": len, "str": _str, "chr": chr, "join": join,
                "words": _words(salt), "bits": bits, "pad": pad, "zpad": zpad, "prefix": prefix,
                "scalar_run": scalar_run, "prose": _prose(salt), "letters": _letters(salt), "normal": lambda path, size: self.value(self.fuzzer_normal(path), size, salt)}


def _str(x):
    if not isinstance(x, (int, str)) or isinstance(x, bool):
        raise ValueError(f"str takes an integer or a string, not {x!r}")
    return str(x)
