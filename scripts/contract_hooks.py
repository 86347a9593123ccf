"""Schemathesis hooks for `make contract-test` (loaded through SCHEMATHESIS_HOOKS).

openapi.yaml states a few rules in prose that JSON Schema cannot express, because they relate
one value to another: an id in `toggle` must name a section, ids must be unique, a flat
outline's parents must exist without cycles, a custom `idKey` names the member every node
must have, a drawer's transition must settle within 60 s and fit 6,000 keyframes and easing samples, an outline search's query must keep a
scalar after folding and cannot come with a selection, a list layout request's `list` must name a list the server keeps. A schema-valid example that breaks one of
them is rightly answered 422, which positive_data_acceptance would report as a failure.

So `map_case` rewrites *positive* examples, and only them, to keep those rules, changing as
little as it can (an unknown id becomes an existing one, a duplicate id a fresh one, a drawer's
lengths and spring are clamped into a range where the limits cannot trigger, its start dropped). Negative examples
are sent exactly as generated: the server must reject every one of them.
"""

from __future__ import annotations

import ast
import copy
import hashlib
import math
import os
import pathlib
import sys
import threading
import unicodedata

import schemathesis

if sys.version_info < (3, 12):
    # CPython 3.11's ast.parse keeps its recursion depth in shared state, so two threads parsing at once can fail
    # with "SystemError: AST constructor recursion depth mismatch" (python/cpython#106905). Hypothesis parses a
    # module's source to describe a lambda, which both workers do when they first generate path parameters: one
    # parse at a time.
    _parse, _parse_lock = ast.parse, threading.Lock()

    def _serialized_parse(*args, **kwargs):
        with _parse_lock:
            return _parse(*args, **kwargs)

    ast.parse = _serialized_parse

MAX_ID = 2**53


def _is_id(value) -> bool:
    """A string, or an integer (2 or 2.0) with magnitude at most 2^53, as the server reads ids."""
    if isinstance(value, str):
        return True
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return math.isfinite(value) and float(value).is_integer() and abs(value) <= MAX_ID


def _id_key(value):
    """Ids compare as the server compares them: "1" and 1 differ, 1 and 1.0 do not."""
    return ("s", value) if isinstance(value, str) else ("i", int(value))


class _FreshIds:
    """Ids no example uses, for duplicates and missing ids."""

    def __init__(self, prefix: str):
        self.prefix = prefix
        self.count = 0

    def take(self, used: set) -> str:
        while True:
            self.count += 1
            candidate = f"{self.prefix}{self.count}"
            if ("s", candidate) not in used:
                used.add(("s", candidate))
                return candidate


def _unique_id(node: dict, key: str, used: set, fresh: _FreshIds):
    """Gives `node` a valid id under `key` that no earlier node has; returns it."""
    value = node.get(key)
    if _is_id(value) and _id_key(value) not in used:
        used.add(_id_key(value))
        return value
    node[key] = fresh.take(used)
    return node[key]


# -- outline: unique ids under idKey, keys that differ, parents that exist and form no cycle --


def _outline(body: dict) -> None:
    # Null means absent; "" is a key like any other.
    id_key = "id" if body.get("idKey") is None else body["idKey"]
    children_key = "children" if body.get("childrenKey") is None else body["childrenKey"]
    parent_key = body.get("parentKey")
    nodes = body.get("nodes")
    if not isinstance(nodes, list):
        return
    used: set = set()
    fresh = _FreshIds("node-")
    if parent_key is not None:
        if parent_key == id_key:
            parent_key = body["parentKey"] = id_key + "-parent"
        ids = []
        for i, node in enumerate(nodes):
            if not isinstance(node, dict):
                node = nodes[i] = {}
            ids.append(_unique_id(node, id_key, used, fresh))
            parent = node.get(parent_key)
            # Parents that come earlier in `nodes` can never close a cycle.
            earlier = {_id_key(v) for v in ids[:i]}
            if parent is not None and not (_is_id(parent) and _id_key(parent) in earlier):
                node[parent_key] = ids[(i - 1) // 2] if i > 0 else None
        return
    if children_key == id_key:
        children_key = body["childrenKey"] = id_key + "-children"
    stack = [nodes]
    while stack:
        siblings = stack.pop()
        for i, node in enumerate(siblings):
            if not isinstance(node, dict):
                node = siblings[i] = {}
            _unique_id(node, id_key, used, fresh)
            children = node.get(children_key)
            if isinstance(children, list):
                stack.append(children)
            elif children is not None:
                node[children_key] = None


# -- outline search: a query that keeps a scalar after folding; no search along with selections --


def _folds_to_something(c: str, search: dict) -> bool:
    folded = unicodedata.normalize("NFD", c)
    if search.get("caseSensitive") is not True:
        folded = unicodedata.normalize("NFD", folded.casefold())
    if search.get("diacriticSensitive") is not True:
        folded = "".join(x for x in folded if unicodedata.category(x) != "Mn")
    return bool(folded) and not c.isspace()


def _outline_search(body: dict) -> None:
    search = body.get("search")
    if isinstance(search, dict) and isinstance(search.get("query"), str) and search["query"]:
        query = search["query"]
        if not any(_folds_to_something(c, search) for c in query):
            search["query"] = query[:255] + "a"
    if isinstance(search, dict) and isinstance(search.get("labelKey"), str) and len(search["labelKey"].encode()) > 256:
        search["labelKey"] = "label"


def _outline_rows(body: dict) -> None:
    _outline(body)
    _outline_search(body)
    _outline_row_heights(body)


def _outline_row_heights(body: dict) -> None:
    # Labels the fonts shape, of at most 4,096 bytes, in a family that is loaded (the spec says so in prose).
    heights = body.get("rowHeights")
    if not isinstance(heights, dict):
        return
    if not isinstance(heights.get("font"), dict):
        heights["font"] = {"family": "DejaVu Sans", "size": 16}
    _font_faces(heights)
    _font(heights["font"])
    if isinstance(heights.get("lineHeight"), (int, float)):
        heights["lineHeight"] = _clamp(heights["lineHeight"], 1, 1_000)
    _line_height(heights, heights.get("font"))
    key = heights.get("labelKey") if isinstance(heights.get("labelKey"), str) else "label"
    stack = [body.get("nodes")]
    children = body.get("childrenKey") if isinstance(body.get("childrenKey"), str) else "children"
    while stack:
        nodes = stack.pop()
        if not isinstance(nodes, list):
            continue
        for node in nodes:
            if isinstance(node, dict):
                if isinstance(node.get(key), str):
                    node[key] = _label(node[key])[:1000]
                stack.append(node.get(children))


def _outline_expansion(body: dict) -> None:
    _outline(body)
    _outline_search(body)
    if body.get("search") is not None and (body.get("selection") is not None or body.get("selections") is not None):
        body["search"] = None


# -- sections: unique section ids; toggle, expanded and actions name sections; single mode --


def _sections(body: dict) -> None:
    sections = body.get("sections")
    if not isinstance(sections, list):
        return
    used: set = set()
    fresh = _FreshIds("section-")
    ids = [_unique_id(section, "id", used, fresh) for section in sections]
    single = body.get("mode") == "single"

    def existing(value, salt: int):
        if _is_id(value) and _id_key(value) in used:
            return value
        return ids[salt % len(ids)] if ids else None

    expanded = body.get("expanded")
    if isinstance(expanded, list):
        expanded = [v for v in (existing(v, i) for i, v in enumerate(expanded)) if v is not None]
        if single and expanded:
            first = _id_key(expanded[0])
            expanded = [v for v in expanded if _id_key(v) == first]
        body["expanded"] = expanded
    if body.get("toggle") is not None:
        body["toggle"] = existing(body["toggle"], 0)
    actions = body.get("actions")
    if isinstance(actions, list):
        kept = []
        for i, action in enumerate(actions):
            kind = action.get("type")
            if kind in ("toggle", "expand", "collapse"):
                action["section"] = existing(action.get("section"), i)
                if action["section"] is None:
                    continue
            elif kind == "expandAll" and single:
                continue
            kept.append(action)
        body["actions"] = kept


# -- drawer: lengths, spring and start within the range where the documented limits hold --


def _clamp(value, low: float, high: float):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return value
    return min(max(value, low), high)


def _clamp_members(obj, limits: dict) -> None:
    if isinstance(obj, dict):
        for name, (low, high) in limits.items():
            if obj.get(name) is not None:
                obj[name] = _clamp(obj[name], low, high)


def _drawer(body: dict) -> None:
    # Lengths far apart in magnitude make the panel's travel or its sums unrepresentable.
    _clamp_members(body.get("container"), {"width": (0, 10_000), "height": (0, 10_000)})
    _clamp_members(body, {"drawerWidth": (10, 10_000)})
    side = (0, 1_000)
    _clamp_members(body.get("safeAreaInsets"), {"top": side, "leading": side, "bottom": side, "trailing": side})
    # A spring whose transition needs at most 2,500 keyframes and easing samples (the documented limit) at any
    # frame rate: the range docs/drawer.md promises (response up to 1.5 s, dampingFraction 0.2 to 2.5, bounce 0.8 to -0.6);
    # every point of a 13 × 13 grid over this box, in both forms, is answered 200 at 1, 30, 60, 120 and 240 frames/s.
    _clamp_members(body.get("spring"), {
        "response": (0.05, 1.5), "dampingFraction": (0.2, 2.5), "duration": (0.05, 1.5), "bounce": (-0.6, 0.8),
    })
    # No start: how much work a start mid-flight asks for depends on where it is against the panel's travel (its
    # edge, direction, insets and width), so a generated one is often rightly past the limit; DrawerEndpointTests
    # covers starts.
    if "from" in body:
        body["from"] = None


def _label(text):
    """A label every default font list below shapes: printable ASCII kept, anything else becomes 'x'."""
    if not isinstance(text, str):
        return text
    return "".join(c if " " <= c <= "~" else "x" for c in text)


def _font(font) -> None:
    # Family names must name loaded families: a fixed list with a fallback. The element's settings are CSS text the
    # schema cannot constrain: valid ones.
    if isinstance(font, dict) and isinstance(font.get("family"), str):
        font["family"] = "DejaVu Sans, IPAGothic"
    if isinstance(font, dict):
        for key, valid in (("featureSettings", '"liga" 0'), ("variationSettings", '"wght" 500'), ("stretch", "100%")):
            if font.get(key) is not None:
                font[key] = valid


def _font_faces(body: dict) -> None:
    # A rule's src must name a stored font, and the contract run's server stores none: positive examples declare none.
    body.pop("fontFaces", None)


def _spacing(body: dict) -> None:
    # Letter and word spacing keep their form and unit, small enough that a spaced cluster or word never needs a line
    # of its own (so no answer passes its size bound), an em so at any font size.
    for key, px_limit in (("letterSpacing", 5), ("wordSpacing", 20)):
        value = body.get(key)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            body[key] = _clamp(value, -px_limit, px_limit)
        elif isinstance(value, str) and value != "normal":
            unit = "em" if value.lower().endswith("em") else "px"
            try:
                number = float(value[:-2])
            except ValueError:
                number = 0.0
            limit = px_limit / 100 if unit == "em" else px_limit
            number = _clamp(number, -limit, limit) if math.isfinite(number) else 0.0
            body[key] = f"{number!r}{unit}"


def _line_height(obj, font) -> None:
    # A line height in a string keeps its form and unit, within a range that resolves to (0, 10000) px at any size
    # of 1 px or more (at a smaller size a number or percentage could come to 0: it becomes px).
    if isinstance(obj, dict) and isinstance(obj.get("lineHeight"), str) and obj["lineHeight"] != "normal":
        text = obj["lineHeight"]
        unit = "px" if text.lower().endswith("px") else "%" if text.endswith("%") else ""
        size = font.get("size") if isinstance(font, dict) else None
        if unit != "px" and not (isinstance(size, (int, float)) and not isinstance(size, bool) and size >= 1):
            obj["lineHeight"] = "24px"
            return
        try:
            value = float(text[:len(text) - len(unit)])
        except ValueError:
            value = 1.5
        low, high = {"px": (1, 1_000), "%": (50, 500), "": (0.5, 5)}[unit]
        value = _clamp(value, low, high) if math.isfinite(value) else low
        obj["lineHeight"] = f"{value!r}{unit}"


def _text(body: dict) -> None:
    _font_faces(body)
    _font(body.get("font"))
    _spacing(body)
    if isinstance(body.get("texts"), list):
        body["texts"] = [_label(text) for text in body["texts"]]


def _flow(body: dict) -> None:
    # An item is either text or a size; any text needs a font.
    has_text = False
    for item in body.get("items") or []:
        if not isinstance(item, dict):
            continue
        if item.get("text") is not None:
            item.pop("width", None)
            item.pop("height", None)
            item["text"] = _label(item["text"])
            # Few lines per narrowed label, so that no answer passes its size bound.
            if isinstance(item.get("maxLines"), int) and not isinstance(item.get("maxLines"), bool):
                item["maxLines"] = _clamp(item["maxLines"], 1, 3)
            has_text = True
        else:
            item.pop("text", None)
            item.pop("maxWidth", None)
            item.pop("maxLines", None)
            item.setdefault("width", 10)
            item.setdefault("height", 10)
    chip = body.get("overflowIndicator")
    if isinstance(chip, dict) and chip.get("text") is not None:
        chip.pop("width", None)
        chip.pop("height", None)
        chip["text"] = _label(chip["text"])
        has_text = True
    if has_text and not isinstance(body.get("font"), dict):
        body["font"] = {"family": "DejaVu Sans", "size": 16}
    _font_faces(body)
    _font(body.get("font"))
    # The labels' text properties, as a paragraph's.
    _spacing(body)
    _tab_size(body)


def _text_layout(body: dict) -> None:
    # Exactly one of width and widths (the spec says so in prose), and wide enough boxes that no
    # answer passes its size bound (every line is an object).
    _text(body)
    if body.get("width") is None and body.get("widths") is None:
        body["width"] = 300
    body.pop("widths" if body.get("width") is not None else "width", None)
    if isinstance(body.get("width"), (int, float)):
        body["width"] = _clamp(body["width"], 200, 1_000_000)
    if isinstance(body.get("widths"), list):
        body["widths"] = [_clamp(w, 200, 1_000_000) for w in body["widths"]]
    if isinstance(body.get("lineHeight"), (int, float)):
        body["lineHeight"] = _clamp(body["lineHeight"], 1, 1_000)
    _line_height(body, body.get("font"))
    # A text indent in a string keeps its unit, within its unit's range.
    if isinstance(body.get("textIndent"), str):
        text = body["textIndent"]
        unit = "%" if text.endswith("%") else "px"
        try:
            value = float(text[:-1] if unit == "%" else text[:-2])
        except ValueError:
            value = 10.0
        value = _clamp(value, -1_000, 1_000) if math.isfinite(value) else 10.0
        body["textIndent"] = f"{value!r}{unit}"
    _tab_size(body)


def _tab_size(body: dict) -> None:
    # A tab size in a string keeps its form and unit, within the range its unit allows.
    if isinstance(body.get("tabSize"), str):
        text = body["tabSize"]
        px = text.lower().endswith("px")
        try:
            value = float(text[:-2] if px else text)
        except ValueError:
            value = 4.0
        value = _clamp(value, 0, 100_000 if px else 1_000) if math.isfinite(value) else 4.0
        body["tabSize"] = f"{value!r}px" if px else repr(value)


def _list_layout(body: dict) -> None:
    # Exactly one of width and widths, every paragraph a label the fonts shape, and at most 100,000
    # paragraphs in all (the spec says both in prose).
    if body.get("list") is not None:
        _kept_list_layout(body)
        return
    _font_faces(body)
    _font(body.get("font"))
    if body.get("width") is None and body.get("widths") is None:
        body["width"] = 300
    body.pop("widths" if body.get("width") is not None else "width", None)
    if isinstance(body.get("lineHeight"), (int, float)):
        body["lineHeight"] = _clamp(body["lineHeight"], 1, 1_000)
    _line_height(body, body.get("font"))
    for row in body.get("rows") or []:
        if not isinstance(row, dict) or not isinstance(row.get("texts"), list):
            continue
        for i, text in enumerate(row["texts"]):
            if isinstance(text, dict):
                text["text"] = _label(text.get("text"))
                _line_height(text, body.get("font"))
                if isinstance(text.get("lineHeight"), (int, float)):
                    text["lineHeight"] = _clamp(text["lineHeight"], 1, 1_000)
            else:
                row["texts"][i] = _label(text)


def _kept_list_layout(body: dict) -> None:
    # A list the server keeps: the one contract-test.sh kept before the run (a generated name is rightly a 422 of
    # type list-not-kept), at exactly one of width and widths.
    body["list"] = os.environ.get("CONTRACT_LIST_ID", "")
    if body.get("width") is None and body.get("widths") is None:
        body["width"] = 300
    body.pop("widths" if body.get("width") is not None else "width", None)


FIXES = {
    "/v1/text/measure": _text,
    "/v1/list/layout": _list_layout,
    "/v1/text/layout": _text_layout,
    "/v1/flow/layout": _flow,
    "/v1/outline/expansion": _outline_expansion,
    "/v1/outline/rows": _outline_rows,
    "/v1/sections/toggle": _sections,
    "/v1/drawer/state": _drawer,
}


def _batch(body: dict) -> None:
    """Each entry's body keeps its endpoint's rules, as it would alone."""
    for entry in body.get("requests") or []:
        if isinstance(entry, dict) and isinstance(entry.get("body"), dict):
            fix = FIXES.get(entry.get("path"))
            if fix is not None:
                fix(entry["body"])


FIXES["/v1/batch"] = _batch


# A font file every upload of a positive example sends (an upload of bytes that are no font is rightly a 422).
FONT = (pathlib.Path(__file__).resolve().parents[1] / "Tests" / "TrellisAPITests" / "Fonts" / "Fixtures"
        / "inter-latin.woff2").read_bytes()
FONT_ID = "sha256-" + hashlib.sha256(FONT).hexdigest()
UPLOADS = {("PUT", "/v1/fonts/{id}"), ("POST", "/v1/fonts")}


@schemathesis.hook
def map_case(context, case):
    meta = case.meta
    if (case.operation.method.upper(), case.operation.path) in UPLOADS:
        if meta is not None and meta.generation.mode.is_positive:
            case.body = FONT
            case.media_type = "application/octet-stream"
            if case.operation.path == "/v1/fonts/{id}":
                case.path_parameters = {**(case.path_parameters or {}), "id": FONT_ID}
        return case
    fix = FIXES.get(case.operation.path)
    if fix is None or meta is None or not meta.generation.mode.is_positive or not isinstance(case.body, dict):
        return case
    body = copy.deepcopy(case.body)
    fix(body)
    case.body = body
    return case
