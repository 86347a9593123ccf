#!/usr/bin/env python3
"""The playground in a real browser, run by `make browser-test` (part of `make test`).

Starts the trellis binary on free ports and headless Chromium (Selenium with chromedriver), loads
GET /playground and checks from the DOM that every panel drew the service's answer: each check posts
the panel's own request text to the API directly and compares the answer with what the page shows
(the outline's visible rows, the tags at the returned positions, the sections and their items, the
drawer's final frame, easing and keyframes), then clicks, drags and types as a person would and
compares again. Errors must show as problem details with their pointers highlighted. The page makes
its calls through the JavaScript client it imports from GET /clients/trellis.mjs. Finally, a page
served by a plain http.server on another port (another origin) calls the API: it works where
--cors-origins allows that origin and fails where it doesn't; and the playground served by one
trellis calls another one given as its base URL.

A panel whose endpoint this build doesn't have yet is skipped with a message (the page must still
show the 404 as a problem). Needs the selenium package and chromedriver (make browser-deps installs
both); bounded by --timeout.

Usage: python3 scripts/playground/browser_test.py [--binary .build/debug/trellis] [--chromium PATH]
       [--chromedriver PATH]
"""

import argparse
import json
import pathlib
import shutil
import signal
import sys
import tempfile
import time
import traceback

sys.dont_write_bytecode = True  # no __pycache__ in the work tree
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import driver  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
PAGE_FILE = ROOT / "Sources" / "TrellisAPI" / "Resources" / "playground.html"
PROBE_FILE = pathlib.Path(__file__).resolve().parent / "cors-probe.html"
CLIENT_FILE = ROOT / "clients" / "js" / "trellis.mjs"

PANEL_ENDPOINTS = {
    "outline": ["/v1/outline/rows", "/v1/outline/expansion"],
    "flow": ["/v1/flow/layout"],
    "text": ["/v1/text/layout"],
    "sections": ["/v1/sections/toggle"],
    "drawer": ["/v1/drawer/state"],
}


class Failure(AssertionError):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


def near(a, b, tolerance=0.05):
    return abs(float(a) - float(b)) <= tolerance


class Report:
    def __init__(self):
        self.passed = self.failed = self.skipped = 0
        self.started = time.monotonic()

    def run(self, name, function, *args):
        began = time.monotonic()
        try:
            function(*args)
        except Skip as skip:
            self.skipped += 1
            print(f"SKIP {name}: {skip}", flush=True)
        except Exception as error:  # noqa: BLE001 - every failure is reported, the run goes on
            self.failed += 1
            print(f"FAIL {name}: {error}", flush=True)
            if not isinstance(error, (Failure, driver.BrowserError)):
                traceback.print_exc()
        else:
            self.passed += 1
            print(f"ok   {name} ({time.monotonic() - began:.1f} s)", flush=True)


class Skip(Exception):
    pass


# -------------------------------------------------------------------------------------------------
# Reading the page
# -------------------------------------------------------------------------------------------------

def settled(page, panel, answers_before=0, timeout=15):
    """Waits until the panel has drawn an answer after `answers_before` and has nothing in flight."""
    page.wait(f"""(() => {{ const p = document.getElementById('{panel}');
        return Number(p.dataset.answers || 0) > {answers_before} && !p.dataset.busy && p.dataset.state !== 'loading'; }})()""",
              timeout=timeout, what=f"the {panel} panel to draw an answer")
    return page.evaluate(f"({{state: document.getElementById('{panel}').dataset.state, answers: Number(document.getElementById('{panel}').dataset.answers)}})")


def answers(page, panel):
    return page.evaluate(f"Number(document.getElementById('{panel}').dataset.answers || 0)")


def request_text(page, panel):
    return page.evaluate(f"document.querySelector('#{panel} textarea.request').value")


def set_request(page, panel, text, send=True):
    """Types a new request (as a paste would) and presses Send."""
    before = answers(page, panel)
    page.evaluate(f"""(() => {{ const t = document.querySelector('#{panel} textarea.request');
        t.value = {json.dumps(text)}; t.dispatchEvent(new Event('input', {{bubbles: true}})); }})()""")
    if send:
        page.click(f"#{panel} .side .small-button.primary")
    return settled(page, panel, before)


def set_control(page, panel, name, value, event):
    before = answers(page, panel)
    page.evaluate(f"""(() => {{ const c = document.querySelector('#{panel} [data-control="{name}"]');
        if (c.type === 'checkbox') c.checked = {json.dumps(bool(value))}; else c.value = {json.dumps(str(value))};
        c.dispatchEvent(new Event('{event}', {{bubbles: true}})); }})()""")
    return settled(page, panel, before)


def problem_box(page, panel):
    return page.evaluate(f"""(() => {{ const box = document.querySelector('#{panel} .problem');
        return {{hidden: box.hidden, text: box.textContent,
                 pointers: [...box.querySelectorAll('li[data-pointer]')].map(li => li.dataset.pointer),
                 marked: [...document.querySelectorAll('#{panel} .backdrop mark')].map(m => m.dataset.pointer)}}; }})()""")


def panel_missing(server, panel):
    return [path for path in PANEL_ENDPOINTS[panel] if not server.has_endpoint(path)]


def require_endpoints(page, server, panel):
    missing = panel_missing(server, panel)
    if missing:
        # The page must still say so: the 404 as problem details, never a blank panel.
        state = page.evaluate(f"document.getElementById('{panel}').dataset.state")
        box = problem_box(page, panel)
        check(state == "problem" and not box["hidden"] and "404" in box["text"],
              f"{panel}: the endpoint is missing but the panel shows state {state!r}, problem {box['text']!r}")
        raise Skip(f"this build has no POST {', '.join(missing)} yet; "
                   f"the panel shows the 404 problem instead")


# -------------------------------------------------------------------------------------------------
# Panels
# -------------------------------------------------------------------------------------------------

OUTLINE_DOM = """[...document.querySelectorAll('#outline .orow[data-index]')].map(row => ({
    id: JSON.parse(row.dataset.id), index: Number(row.dataset.index), depth: Number(row.dataset.depth),
    expanded: row.dataset.expanded === 'true', selected: row.dataset.selected === 'true',
    label: row.querySelector('.label').textContent, check: row.querySelector('.check').textContent}))"""


def compare_outline(page, server):
    body = request_text(page, "outline")
    status, _, rows = server.post("/v1/outline/rows", body)
    check(status == 200, f"outline: the API answered {status} to the page's request")
    shown = page.evaluate(OUTLINE_DOM)
    expected = [{k: row[k] for k in ("id", "index", "depth", "expanded", "selected")} for row in rows["rows"]]
    got = [{k: row[k] for k in ("id", "index", "depth", "expanded", "selected")} for row in shown]
    check(got == expected, f"outline: rows shown {got} differ from the API's {expected}")
    for row in shown:
        check((row["check"] == "✓") == row["selected"], f"outline: checkmark wrong on {row}")
    no_selection = page.evaluate("(() => { const r = document.querySelector('#outline .orow.no-selection'); return r && r.dataset.selected === 'true'; })()")
    if "noSelection" in rows:
        check(no_selection == rows["noSelection"]["selected"], "outline: the No Selection row's checkmark differs from the API")
    return json.loads(body), rows, shown


def test_outline(page, server):
    require_endpoints(page, server, "outline")
    check(page.evaluate("document.getElementById('outline').dataset.state") == "ok", "outline: panel not ok")
    request, rows, shown = compare_outline(page, server)
    selected = [row for row in shown if row["selected"]]
    check(len(selected) == 1 and selected[0]["id"] == request["selection"], f"outline: selection not shown: {selected}")
    check(selected[0]["label"] == "FlowLayout.swift", f"outline: label {selected[0]['label']!r}")
    _, _, expansion = server.post("/v1/outline/expansion", json.dumps(request))
    path_text = page.evaluate("document.querySelector('#outline code.path').textContent")
    check(path_text.count("›") == len(expansion["paths"][0]["path"]) - 1, f"outline: path {path_text!r}")

    # Click a root row: it becomes the selection, and the rows are the service's again.
    before = answers(page, "outline")
    page.click("#outline .orow[data-id='\"readme\"'] .label")
    settled(page, "outline", before)
    request, _, shown = compare_outline(page, server)
    check(request["selection"] == "readme", f"outline: clicking README.md sent selection {request.get('selection')!r}")
    check([row["id"] for row in shown if row["selected"]] == ["readme"], "outline: README.md is not checked")

    # Expand a collapsed node with its triangle.
    before = answers(page, "outline")
    page.click("#outline .orow[data-id='\"outline\"'] .disclosure")
    settled(page, "outline", before)
    request, _, shown = compare_outline(page, server)
    check("outline" in request["expanded"], f"outline: expanded sent {request.get('expanded')}")
    check({"rows", "tree"} <= {row["id"] for row in shown}, "outline: the expanded node's children are not shown")

    # The "No Selection" row.
    before = answers(page, "outline")
    page.click("#outline .orow.no-selection")
    settled(page, "outline", before)
    request, rows, _ = compare_outline(page, server)
    check(request["selection"] is None and rows["noSelection"]["selected"], "outline: No Selection not selected")

    # Without the "No Selection" row; then back to the default expansion (the seed's picker on opening).
    set_control(page, "outline", "includeNoSelection", False, "change")
    request, rows, _ = compare_outline(page, server)
    check(request["includeNoSelection"] is False and "noSelection" not in rows
          and not page.evaluate("document.querySelector('#outline .orow.no-selection')"), "outline: No Selection row still shown")
    before = answers(page, "outline")
    page.click("#outline [data-action='default-expansion']")
    settled(page, "outline", before)
    request, rows, _ = compare_outline(page, server)
    check("expanded" not in request, "outline: the default expansion still sends `expanded`")

    # Search: only the matches and the way to them are shown, each returned range highlighted in a <mark>.
    set_control(page, "outline", "search", "re", "input")
    request, rows, shown = compare_outline(page, server)
    check((request.get("search") or {}).get("query") == "re", f"outline: the search field sent {request.get('search')!r}")
    marks = page.evaluate("""[...document.querySelectorAll('#outline .orow[data-index]')].map(row =>
        [...row.querySelectorAll('.label mark')].map(m => m.textContent))""")
    expected = []
    for row, label in zip(rows["rows"], [row["label"] for row in shown]):
        units = label.encode("utf-16-le")
        ranges = (row.get("match") or {}).get("ranges", [])
        expected.append([units[2 * s:2 * e].decode("utf-16-le") for s, e in ranges])
    check(rows["matchCount"] >= 2 and sum(map(len, marks)) >= 2, f"outline: too few highlights for 're': {marks}")
    check(marks == expected, f"outline: highlights {marks} differ from the API's ranges {expected}")
    check(any("RE" in row_marks for row_marks in marks), f"outline: no case-folded highlight (README.md): {marks}")
    check(page.evaluate("document.querySelector('#outline .problem').hidden"), "outline: the search shows a problem")
    set_control(page, "outline", "search", "", "input")
    request, _, _ = compare_outline(page, server)
    check("search" not in request, "outline: clearing the search field still sends `search`")


FLOW_DOM = """(() => { const box = document.querySelector('#flow .flow-box'); const b = box.getBoundingClientRect();
    const rect = el => { const r = el.getBoundingClientRect();
        return {x: r.left - b.left - box.clientLeft, y: r.top - b.top - box.clientTop, width: r.width, height: r.height}; };
    return {box: {width: b.width, height: b.height},
        tags: [...box.querySelectorAll('.tag[data-index]')].map(t => ({index: Number(t.dataset.index), text: t.textContent, ...rect(t)})),
        chip: (c => c && {text: c.textContent, ...rect(c)})(box.querySelector('.tag.chip'))}; })()"""


def compare_flow(page, server):
    body = request_text(page, "flow")
    request = json.loads(body)
    status, _, layout = server.post("/v1/flow/layout", body)
    check(status == 200, f"flow: the API answered {status} to the page's request")
    shown = page.evaluate(FLOW_DOM)
    check(len(shown["tags"]) == len(layout["items"]), f"flow: {len(shown['tags'])} tags drawn, the API placed {len(layout['items'])}")
    for tag, item in zip(shown["tags"], layout["items"]):
        check(tag["index"] == item["index"], f"flow: tag order {tag} vs {item}")
        for key in ("x", "y", "width", "height"):
            check(near(tag[key], item[key]), f"flow: tag {item['index']} {key} is {tag[key]} on the page, {item[key]} from the API")
        given = request["items"][item["index"]]
        label = str(given["text"] if given.get("text") is not None else given.get("id"))
        # A label narrowed to its maxWidth shows the service's lines, the ellipsis's cut.
        check(tag["text"] == ("\n".join(drawn_lines(label, item)) if "lines" in item else label),
              f"flow: tag label {tag['text']!r} for {item}")
    check(near(shown["box"]["width"], layout["size"]["width"]) and near(shown["box"]["height"], layout["size"]["height"]),
          f"flow: container drawn {shown['box']}, size {layout['size']}")
    chip = layout.get("overflowIndicator")
    check((shown["chip"] is None) == (chip is None), f"flow: chip drawn {shown['chip']} vs {chip}")
    if chip:
        check(shown["chip"]["text"] == f"+{chip['count']}", f"flow: chip text {shown['chip']['text']!r}, count {chip['count']}")
        for key in ("x", "y", "width", "height"):
            check(near(shown["chip"][key], chip[key]), f"flow: chip {key} {shown['chip'][key]} vs {chip[key]}")
    return request, layout


def drawn_lines(text, layout):
    """What a laid-out text shows: each line's text (UTF-16 offsets), cut at the ellipsis and followed by it."""
    units = text.encode("utf-16-le")
    piece = lambda a, b: units[2 * a:2 * b].decode("utf-16-le")
    ellipsis = layout.get("ellipsis")
    return [piece(line["start"], ellipsis["end"]) + ellipsis["text"] if ellipsis and ellipsis["line"] == k
            else piece(line["start"], line["end"]).rstrip(" \u3000") for k, line in enumerate(layout["lines"])]


def test_flow(page, server):
    require_endpoints(page, server, "flow")
    check(page.evaluate("document.getElementById('flow').dataset.state") == "ok", "flow: panel not ok")
    request, layout = compare_flow(page, server)
    check(request["containerWidth"] == 300 and len(layout["rows"]) >= 2, "flow: the seed's example should wrap in 300 px")
    rows_at_300 = len(layout["rows"])

    # Drag the width slider narrower: more rows, tags where the API puts them.
    set_control(page, "flow", "containerWidth", 150, "input")
    request, layout = compare_flow(page, server)
    check(request["containerWidth"] == 150 and len(layout["rows"]) > rows_at_300, "flow: narrower container did not re-wrap")
    for name, value in (("alignment", "center"), ("direction", "rtl"), ("rowAlignment", "bottom"), ("lineBreaking", "balanced")):
        set_control(page, "flow", name, value, "change")
        request, _ = compare_flow(page, server)
        check(request[name] == value, f"flow: the {name} control sent {request.get(name)!r}")
    set_control(page, "flow", "spacing", 8, "input")
    compare_flow(page, server)

    # maxRows with the "+N" chip.
    set_control(page, "flow", "maxRows", 1, "input")
    set_control(page, "flow", "chip", True, "change")
    request, layout = compare_flow(page, server)
    check(request["maxRows"] == 1 and layout["hiddenCount"] > 0, f"flow: maxRows 1 hid {layout['hiddenCount']}")

    # Widths measured from the labels' text in the page's font.
    before = answers(page, "flow")
    page.click("#flow [data-action='fit-labels']")
    settled(page, "flow", before)
    request, _ = compare_flow(page, server)
    check(request["items"][1]["width"] > request["items"][5]["width"], "flow: SwiftUI is not measured wider than iOS")

    # Labels: the request sends text and a font, no widths; the tags are the sizes Trellis measured.
    set_control(page, "flow", "maxRows", "", "input")
    set_control(page, "flow", "containerWidth", 300, "input")
    set_control(page, "flow", "labels", True, "change")
    request, layout = compare_flow(page, server)
    check(all("text" in item and "width" not in item and "height" not in item for item in request["items"])
          and request.get("font", {}).get("family"), f"flow: labels mode sent {request}")
    measured = server.post("/v1/text/measure", json.dumps({"font": request["font"], "texts": [request["items"][0]["text"]]}))[2]
    padding = request["labelPadding"]
    check(layout["items"] and near(layout["items"][0]["width"],
                                   measured["texts"][0]["width"] + padding["leading"] + padding["trailing"]),
          f"flow: the first label is {layout['items'][0]['width'] if layout['items'] else None} wide, measured {measured}")
    set_control(page, "flow", "maxRows", 1, "input")
    set_control(page, "flow", "chip", True, "change")
    request, layout = compare_flow(page, server)
    check(request.get("overflowIndicator") == {"text": "+{n}"} and layout.get("overflowIndicator"),
          f"flow: the labelled chip: sent {request.get('overflowIndicator')}, got {layout.get('overflowIndicator')}")
    # A maximum chip width: SwiftUI is cut with an ellipsis, then wrapped onto two lines.
    set_control(page, "flow", "maxRows", "", "input")
    set_control(page, "flow", "maxWidth", 70, "input")
    request, layout = compare_flow(page, server)
    check(all(item.get("maxWidth") == 70 for item in request["items"]), f"flow: max chip width sent {request['items']}")
    cut = [item for item in layout["items"] if item.get("truncated")]
    check(cut and all(item["width"] == 70 and item.get("ellipsis") for item in cut), f"flow: no chip cut at 70 px: {layout['items']}")
    set_control(page, "flow", "chipLines", 2, "input")
    request, layout = compare_flow(page, server)
    check(all(item.get("maxLines") == 2 for item in request["items"]), f"flow: chip lines sent {request['items']}")
    set_control(page, "flow", "maxWidth", 0, "input")
    request, _ = compare_flow(page, server)
    check(all("maxWidth" not in item and "maxLines" not in item for item in request["items"]), f"flow: max width off sent {request['items']}")
    set_control(page, "flow", "labels", False, "change")
    request, _ = compare_flow(page, server)
    check(all("width" in item and "text" not in item for item in request["items"]) and "font" not in request,
          f"flow: sizes mode sent {request}")


TEXT_DOM = """[...document.querySelectorAll('#text .text-box')].map(box => ({
    width: box.getBoundingClientRect().width, height: box.getBoundingClientRect().height,
    lines: [...box.querySelectorAll('.text-line')].map(line => ({start: Number(line.dataset.start),
        end: Number(line.dataset.end), top: Number(line.dataset.top), text: line.textContent}))}))"""


def compare_text(page, server):
    body = request_text(page, "text")
    request = json.loads(body)
    status, _, answer = server.post("/v1/text/layout", body)
    check(status == 200, f"text: the API answered {status} to the page's request")
    shown = page.evaluate(TEXT_DOM)
    check(len(shown) == len(answer["texts"]), f"text: {len(shown)} paragraphs drawn, {len(answer['texts'])} answered")
    for box, text, layout in zip(shown, request["texts"], answer["texts"]):
        check(near(box["width"], request["width"]) and near(box["height"], layout["height"]),
              f"text: box {box['width']} × {box['height']}, the request's width {request['width']}, height {layout['height']}")
        check([(line["start"], line["end"], line["top"]) for line in box["lines"]]
              == [(line["start"], line["end"], line["top"]) for line in layout["lines"]],
              f"text: lines drawn {box['lines']} vs {layout['lines']}")
        check([line["text"] for line in box["lines"]] == drawn_lines(text, layout), f"text: line texts {box['lines']}")
    return request, answer


def test_text(page, server):
    require_endpoints(page, server, "text")
    check(page.evaluate("document.getElementById('text').dataset.state") == "ok", "text: panel not ok")
    request, answer = compare_text(page, server)
    lines_at_240 = sum(len(layout["lines"]) for layout in answer["texts"])
    check(any("ellipsis" in layout for layout in answer["texts"]), "text: the example should clamp a paragraph with an ellipsis")
    # Drag the width narrower: more lines, drawn where the API puts them.
    set_control(page, "text", "width", 120, "input")
    request, answer = compare_text(page, server)
    check(request["width"] == 120 and sum(len(t["lines"]) for t in answer["texts"]) > lines_at_240, "text: narrower box did not re-wrap")
    for name, value in (("wordBreak", "break-all"), ("overflowWrap", "anywhere"), ("whiteSpace", "pre-wrap")):
        set_control(page, "text", name, value, "change")
        request, _ = compare_text(page, server)
        check(request[name] == value, f"text: the {name} control sent {request.get(name)!r}")
    set_control(page, "text", "maxLines", "", "input")
    set_control(page, "text", "ellipsis", False, "change")
    request, answer = compare_text(page, server)
    check("maxLines" not in request and "textOverflow" not in request and not any(t["truncated"] for t in answer["texts"]),
          f"text: clamp off sent {request}")
    set_control(page, "text", "whiteSpace", "nowrap", "change")
    set_control(page, "text", "ellipsis", True, "change")
    request, answer = compare_text(page, server)
    check(all(len(t["lines"]) == 1 for t in answer["texts"]) and any("ellipsis" in t for t in answer["texts"]),
          f"text: nowrap with an ellipsis answered {answer}")


SECTIONS_DOM = """[...document.querySelectorAll('#sections .sec')].map(s => ({
    id: JSON.parse(s.dataset.id), expanded: s.querySelector('.sec-header').getAttribute('aria-expanded') === 'true',
    disabled: s.querySelector('.sec-header').getAttribute('aria-disabled') === 'true',
    icon: s.querySelector('svg.chevron').dataset.icon, divider: !s.querySelector('.sec-divider').hidden,
    items: s.querySelector('.sec-items').hidden ? [] : [...s.querySelectorAll('.sec-items li')].map(li => li.textContent),
    title: s.querySelector('.sec-title').textContent}))"""


def compare_sections(page, server):
    body = request_text(page, "sections")
    status, _, state = server.post("/v1/sections/toggle", body)
    check(status == 200, f"sections: the API answered {status} to the page's request")
    shown = page.evaluate(SECTIONS_DOM)
    expected = [{"id": s["id"], "expanded": s["expanded"], "disabled": s["headerDisabled"], "icon": s["icon"],
                 "divider": s["showDivider"], "items": [str(i) for i in s["items"]], "title": str(s["id"])}
                for s in state["sections"]]
    check(shown == expected, f"sections: page shows {shown}, the API says {expected}")
    return json.loads(body), state


def test_sections(page, server):
    require_endpoints(page, server, "sections")
    check(page.evaluate("document.getElementById('sections').dataset.state") == "ok", "sections: panel not ok")
    request, state = compare_sections(page, server)
    check(state["expanded"] == ["食べ物", "飲み物"], f"sections: the seed's example answered {state['expanded']}")

    # Click the 食べ物 header: it closes, its items go, the chevron turns down and the divider shows.
    before = answers(page, "sections")
    page.click("#sections .sec[data-id='\"食べ物\"'] .sec-header")
    settled(page, "sections", before)
    request, state = compare_sections(page, server)
    check(request["toggle"] == "食べ物" and request["expanded"] == ["食べ物", "飲み物"],
          f"sections: the click sent toggle {request.get('toggle')!r} with expanded {request.get('expanded')}")
    food = page.evaluate(SECTIONS_DOM)[0]
    check(food == {"id": "食べ物", "expanded": False, "disabled": False, "icon": "chevron.down", "divider": True,
                   "items": [], "title": "食べ物"}, f"sections: 食べ物 after the click: {food}")

    # Single mode that can't be collapsed: the open header is aria-disabled.
    set_control(page, "sections", "mode", "single", "change")
    compare_sections(page, server)
    set_control(page, "sections", "collapsible", False, "change")
    request, state = compare_sections(page, server)
    check(request["mode"] == "single" and request["collapsible"] is False, "sections: mode controls not sent")
    check(any(s["headerDisabled"] for s in state["sections"]), "sections: no disabled header in single, non-collapsible mode")

    # Back to multiple mode: expand all, then collapse all, sent as actions.
    set_control(page, "sections", "mode", "multiple", "change")
    for action, expected in (("expandAll", ["食べ物", "飲み物"]), ("collapseAll", [])):
        before = answers(page, "sections")
        page.click(f"#sections [data-action='{action}']")
        settled(page, "sections", before)
        request, state = compare_sections(page, server)
        check(request["actions"] == [{"type": action}] and state["expanded"] == expected, f"sections: {action} gave {state['expanded']}")


def test_whole_screen(page, server):
    """The whole-screen button: the four panels' requests one by one and as one batch, whose entries answer as they did."""
    if not server.has_endpoint("/v1/batch"):
        raise Skip("this build has no POST /v1/batch yet")
    page.click("#whole-screen-send")
    page.wait("document.querySelector('#whole-screen table') !== null", timeout=15, what="the whole screen's timings")
    rows = page.evaluate("""[...document.querySelectorAll('#whole-screen tr[data-panel]')].map(tr =>
        [...tr.children].map(td => td.textContent))""")
    check([row[0] for row in rows] == ["outline", "flow", "sections", "drawer"], f"whole screen: rows {rows}")
    for name, single_ms, single_status, batched in rows:
        check(single_ms.endswith(" ms") and single_status == batched,
              f"whole screen: {name} answered {single_status} alone but {batched} in the batch")
    summary = page.evaluate("document.querySelector('#whole-screen .status').textContent")
    check("one batch:" in summary and page.evaluate("document.querySelector('#whole-screen .status').dataset.state") == "ok",
          f"whole screen: {summary!r}")
    texts = [request_text(page, panel) for panel in ("outline", "flow", "sections", "drawer")]
    status, _, batch = server.post("/v1/batch", json.dumps({"requests": [
        {"path": path, "body": json.loads(text)} for path, text in
        zip(["/v1/outline/rows", "/v1/flow/layout", "/v1/sections/toggle", "/v1/drawer/state"], texts)]}))
    check(status == 200 and [str(e["status"]) for e in batch["responses"]] == [row[2] for row in rows],
          f"whole screen: the API answers the batch {status} {[e['status'] for e in batch.get('responses', [])]}")


def computed_x(page, selector):
    return page.evaluate(f"new DOMMatrixReadOnly(getComputedStyle(document.querySelector({json.dumps(selector)})).transform).m41")


def wait_drawer_still(page):
    page.wait("!document.getElementById('drawer').dataset.animating", timeout=10, what="the drawer's transition to end")


def test_drawer(page, server):
    require_endpoints(page, server, "drawer")
    check(page.evaluate("document.getElementById('drawer').dataset.state") == "ok", "drawer: panel not ok")
    wait_drawer_still(page)
    example = page.evaluate("drawer.options.example")
    status, _, state = server.post("/v1/drawer/state", example)
    check(status == 200 and state["isPresented"] and state.get("transition"), f"drawer: the example answered {status} {state}")
    transition = state["transition"]
    frame = state["panel"]["frame"]
    shown = page.evaluate("""(() => { const p = document.querySelector('#drawer .dpanel'), m = document.querySelector('#drawer .mask');
        const ps = getComputedStyle(p), ms = getComputedStyle(m);
        return {timing: ps.transitionTimingFunction, duration: ps.transitionDuration, width: p.offsetWidth, height: p.offsetHeight,
                top: p.offsetTop, opacity: Number(ms.opacity), maskTiming: ms.transitionTimingFunction,
                presented: document.getElementById('drawer').dataset.presented,
                keyframes: Number(document.querySelector('#drawer .spring-plot').dataset.keyframes),
                points: document.querySelector('#drawer .spring-curve').getAttribute('points').trim().split(/\\s+/).length}; })()""")
    check(near(computed_x(page, "#drawer .dpanel"), transition["panel"]["toX"]) and near(transition["panel"]["toX"], frame["x"]),
          f"drawer: panel at x {computed_x(page, '#drawer .dpanel')}, the API says {frame['x']}")
    check(near(shown["width"], frame["width"], 1) and near(shown["height"], frame["height"], 1) and near(shown["top"], frame["y"], 1),
          f"drawer: panel drawn {shown}, frame {frame}")
    check(shown["timing"].startswith("linear(") and shown["maskTiming"].startswith("linear("),
          f"drawer: the transition does not use the linear() easing: {shown['timing'][:60]}")
    duration_ms = float(transition["css"]["duration"].removesuffix("ms"))
    check(near(float(shown["duration"].removesuffix("s")) * 1000, duration_ms, 0.5), f"drawer: duration {shown['duration']} vs {duration_ms} ms")
    check(near(shown["opacity"], state["mask"]["opacity"], 0.001), f"drawer: mask opacity {shown['opacity']}")
    check(shown["presented"] == "true", "drawer: not presented")
    check(shown["keyframes"] == len(transition["keyframes"]) == shown["points"], f"drawer: plot has {shown['points']} points, {len(transition['keyframes'])} keyframes")
    check(json.loads(request_text(page, "drawer"))["isPresented"] is True, "drawer: the editor did not keep the new state")

    # Tap the mask beside the panel: the drawer closes to where the API puts it.
    point = page.evaluate("""(() => { document.querySelector('#drawer .phone').scrollIntoView({block: 'center'});
        const m = document.querySelector('#drawer .mask').getBoundingClientRect();
        const p = document.querySelector('#drawer .dpanel').getBoundingClientRect();
        const gapRight = m.right - p.right, gapLeft = p.left - m.left;
        const x = gapRight > gapLeft ? p.right + gapRight / 2 : m.left + gapLeft / 2;
        return {x, y: m.top + m.height * 0.7}; })()""")
    before = answers(page, "drawer")
    page.click_at(point["x"], point["y"])
    settled(page, "drawer", before)
    wait_drawer_still(page)
    closed = dict(example, isPresented=True, action="tapMask")
    _, _, state = server.post("/v1/drawer/state", closed)
    check(not state["isPresented"] and page.evaluate("document.getElementById('drawer').dataset.presented") == "false",
          "drawer: tapping the mask did not close it")
    check(near(computed_x(page, "#drawer .dpanel"), state["panel"]["frame"]["x"]),
          f"drawer: closed panel at {computed_x(page, '#drawer .dpanel')}, the API says {state['panel']['frame']['x']}")
    check(page.evaluate("getComputedStyle(document.querySelector('#drawer .mask')).opacity") == "0", "drawer: mask still shown")

    # Open, then toggle again while it moves: the second request carries `from` (a retargeted spring).
    before = answers(page, "drawer")
    page.click("#drawer [data-action='toggle']")
    settled(page, "drawer", before)
    if page.evaluate("drawerFrom() !== null"):
        sent = len(page.requests)
        before = answers(page, "drawer")
        page.click("#drawer [data-action='toggle']")
        settled(page, "drawer", before)
        bodies = [json.loads(body) for method, url, body in page.requests[sent:] if url.endswith("/v1/drawer/state") and body]
        check(bodies and "from" in bodies[-1], f"drawer: a toggle mid-animation sent {bodies[-1] if bodies else 'nothing'}")
        moving = bodies[-1]["from"]
        check(-frame["width"] <= moving["x"] <= frame["x"] + frame["width"], f"drawer: from.x {moving['x']} outside the travel")
        # The transition keeps its full travel (fromX → toX); the first keyframe and the easing's first
        # stop put the panel where it was: x = fromX + p(0) · (toX − fromX).
        transition = page.evaluate("drawerStage.lastTransition")
        start = transition["keyframes"][0]["progress"]
        travel = transition["panel"]["toX"] - transition["panel"]["fromX"]
        check(near(transition["panel"]["fromX"] + start * travel, moving["x"], 0.01),
              f"drawer: the retargeted transition starts at progress {start}, not at x {moving['x']}")
        first_stop = float(transition["css"]["easing"].removeprefix("linear(").split(",")[0].split()[0])
        check(near(first_stop, start, 1e-3), f"drawer: the easing starts at {first_stop}, the keyframes at {start}")
    else:
        print("     (drawer: the machine was too slow to toggle mid-animation; `from` not checked this run)")
    wait_drawer_still(page)

    # The trailing edge: re-rendered without an action, the panel sits where the API puts it.
    set_control(page, "drawer", "edge", "trailing", "change")
    wait_drawer_still(page)
    sent = json.loads(request_text(page, "drawer"))
    render_only = {key: value for key, value in sent.items() if key not in ("action", "from")}
    _, _, state = server.post("/v1/drawer/state", render_only)
    check(sent["edge"] == "trailing" and "transition" not in state, f"drawer: edge control sent {sent.get('edge')!r}")
    check(near(computed_x(page, "#drawer .dpanel"), state["panel"]["frame"]["x"]),
          f"drawer: trailing panel at {computed_x(page, '#drawer .dpanel')}, the API says {state['panel']['frame']['x']}")


def test_problems(page, server):
    """A 422 shows title, detail and every pointer, highlighted in the request; a 400 too; Reset recovers."""
    bad = '{"sections": [{"id": "a"}, {"id": "a"}, {"id": "b", "items": 3}],\n "expanded": ["zz"], "toggle": "a", "mode": "both"}'
    status, headers, problem = server.post("/v1/sections/toggle", bad)
    check(status == 422, f"problems: the API answered {status}")
    result = set_request(page, "sections", bad)
    check(result["state"] == "problem", f"problems: the panel state is {result['state']}")
    box = problem_box(page, "sections")
    pointers = [error["pointer"] for error in problem["errors"]]
    check(not box["hidden"] and "422" in box["text"] and problem["detail"] in box["text"], f"problems: box {box['text']!r}")
    check(box["pointers"] == pointers, f"problems: pointers listed {box['pointers']}, the API's {pointers}")
    check(set(box["marked"]) == set(pointers), f"problems: highlighted {box['marked']}, expected {pointers}")
    for error in problem["errors"]:
        check(error["detail"] in box["text"], f"problems: {error['detail']!r} not shown")
    check(page.evaluate("document.querySelector('#sections .view').classList.contains('stale')"), "problems: old rendering not marked stale")

    result = set_request(page, "sections", '{"sections": [')
    box = problem_box(page, "sections")
    check(result["state"] == "problem" and "400" in box["text"], f"problems: malformed JSON shows {box['text']!r}")

    before = answers(page, "sections")
    page.click("#sections .side .small-button:not(.primary)")  # Reset
    check(settled(page, "sections", before)["state"] == "ok", "problems: Reset did not bring the example back")
    check(problem_box(page, "sections")["hidden"], "problems: the problem box stayed after a good answer")

    if not panel_missing(server, "flow"):
        bad_flow = '{"containerWidth": -1, "items": [{"width": 10, "height": 10}, {"width": "wide", "height": 1}]}'
        status, _, problem = server.post("/v1/flow/layout", bad_flow)
        set_request(page, "flow", bad_flow)
        box = problem_box(page, "flow")
        pointers = [error["pointer"] for error in problem.get("errors", [])]
        check(status == 422 and box["pointers"] == pointers and set(box["marked"]) == set(pointers),
              f"problems: flow listed {box['pointers']}, marked {box['marked']}, the API's {pointers}")
        before = answers(page, "flow")
        page.click("#flow .side .small-button:not(.primary)")
        settled(page, "flow", before)


# -------------------------------------------------------------------------------------------------
# Other origins
# -------------------------------------------------------------------------------------------------

def probe(browser, url):
    page = browser.page()
    page.navigate(url)
    page.wait("document.getElementById('result').dataset.done", timeout=15, what=f"{url} to finish")
    return json.loads(page.evaluate("document.getElementById('result').textContent"))


def test_cors_probe(browser, site, allowing):
    allowed = probe(browser, f"http://127.0.0.1:{site.port}/cors-probe.html?api={allowing.base}")
    check(allowed["get"]["ok"] and allowed["get"]["status"] == 200 and allowed["get"]["body"] == {"status": "ok"},
          f"cors: GET from an allowed origin: {allowed['get']}")
    check(allowed["get"]["requestId"], "cors: X-Request-Id is not exposed to the page")
    check(allowed["post"]["ok"] and allowed["post"]["body"]["expanded"] == ["a", "b"],
          f"cors: preflighted POST from an allowed origin: {allowed['post']}")

    refused = probe(browser, f"http://localhost:{site.port}/cors-probe.html?api={allowing.base}")
    check(not refused["get"]["ok"] and "TypeError" in refused["get"]["error"], f"cors: GET from a disallowed origin got {refused['get']}")
    check(not refused["post"]["ok"] and "TypeError" in refused["post"]["error"], f"cors: POST from a disallowed origin got {refused['post']}")
    # The refusal is CORS's, not a dead server: the same requests without a browser are answered.
    status, _, _ = allowing.get("/healthz")
    check(status == 200, "cors: the restricted server is not up")
    status, headers, _ = allowing.post("/v1/sections/toggle", {"sections": []}, origin=f"http://localhost:{site.port}")
    check(status == 200 and "Access-Control-Allow-Origin" not in headers, f"cors: disallowed origin got {headers}")


def test_playground_elsewhere(browser, site, open_server, allowing):
    """The playground itself, served from another origin, against the API given in ?api=."""
    page = browser.page()
    page.navigate(f"http://127.0.0.1:{site.port}/playground.html?api={open_server.base}")
    for panel in PANEL_ENDPOINTS:
        result = settled(page, panel)
        # Without the endpoint the preflight itself is a 404, which a browser reports as a network error.
        expected = ("problem", "network-error") if panel_missing(open_server, panel) else ("ok",)
        check(result["state"] in expected, f"elsewhere: {panel} is {result['state']} from another origin (--cors-origins *)")
    compare_sections(page, open_server)
    check(not page.exceptions, f"elsewhere: uncaught exceptions {page.exceptions}")

    page = browser.page()
    page.navigate(f"http://127.0.0.1:{site.port}/playground.html?api={allowing.base}")
    check(settled(page, "sections")["state"] == "ok", "elsewhere: sections failed from an allowed origin")
    compare_sections(page, allowing)

    page = browser.page()
    page.navigate(f"http://localhost:{site.port}/playground.html?api={allowing.base}")
    for panel in PANEL_ENDPOINTS:
        result = settled(page, panel)
        box = problem_box(page, panel)
        check(result["state"] == "network-error" and "--cors-origins" in box["text"],
              f"elsewhere: {panel} from a disallowed origin shows {result['state']}: {box['text']!r}")
    page.wait("document.getElementById('api-status').dataset.state === 'error'", what="the API status to report the failure")


# -------------------------------------------------------------------------------------------------

def test_served(server):
    status, headers, body = server.get("/playground")
    check(status == 200 and headers.get("Content-Type") == "text/html; charset=utf-8", f"GET /playground: {status} {headers}")
    check(body == PAGE_FILE.read_bytes(), "GET /playground is not the page in Sources/TrellisAPI/Resources")
    _, _, index = server.get("/")
    index = json.loads(index)
    check(index.get("playground") == "/playground" and {"method": "GET", "path": "/playground"} in index["endpoints"],
          f"GET / does not link the playground: {index}")


def test_same_origin_load(page, server):
    page.navigate(f"{server.base}/playground")
    for panel in PANEL_ENDPOINTS:
        settled(page, panel)
    check(page.evaluate("document.getElementById('api-base').value") == server.base, "the API base URL is not the page's origin")
    page.wait("document.getElementById('api-status').dataset.state === 'ok'", what="GET / to answer")
    # Every call goes through the JavaScript client, imported from the service (the policy allows 'self').
    loaded = [url for method, url, _ in page.requests if method == "GET" and url.endswith("/clients/trellis.mjs")]
    check(loaded == [f"{server.base}/clients/trellis.mjs"], f"the client module was loaded from {loaded}")
    check(page.evaluate("api.client && api.client.baseUrl") == server.base, "the panels do not call through the client")


def test_served_client(server):
    status, headers, body = server.get("/clients/trellis.mjs")
    check(status == 200 and headers.get("Content-Type") == "text/javascript; charset=utf-8", f"GET /clients/trellis.mjs: {status} {headers}")
    check(body == CLIENT_FILE.read_bytes(), "GET /clients/trellis.mjs is not clients/js/trellis.mjs")


def test_served_elsewhere(browser, page_server, api_server):
    """The playground served by one Trellis, given another one as its base URL (?api=): its policy
    (connect-src 'self') refuses the calls, and each panel says so and where to go instead."""
    page = browser.page()
    page.navigate(f"{page_server.base}/playground?api={api_server.base}")
    for panel in PANEL_ENDPOINTS:
        result = settled(page, panel)
        box = problem_box(page, panel)
        check(result["state"] == "network-error" and "connect-src 'self'" in box["text"]
              and f"{api_server.base}/playground" in box["text"],
              f"served elsewhere: {panel} shows {result['state']}: {box['text']!r}")
    loaded = [url for method, url, _ in page.requests if method == "GET" and url.endswith("/clients/trellis.mjs")]
    check(loaded == [f"{page_server.base}/clients/trellis.mjs"], f"served elsewhere: the client module came from {loaded}")
    posts = [url for method, url, _ in page.requests if method == "POST"]
    check(not posts, f"served elsewhere: the policy let POSTs through to {posts}")
    # Chromium logs each refusal as an error of the page: they are the proof, and the only ones allowed.
    refusals = [e for e in page.exceptions if "violates the document's Content Security Policy" in e]
    others = [e for e in page.exceptions if e not in refusals]
    check(refusals and all(api_server.base in e and "Refused to connect" in e for e in refusals) and not others,
          f"served elsewhere: the refusals {refusals}, other exceptions {others}")


def test_nothing_else_loaded(page, server):
    """Offline: every request went to the service itself (no CDN, no fonts, no favicon elsewhere)."""
    foreign = [url for _, url, _ in page.requests if not url.startswith(server.base + "/") and not url.startswith("data:")]
    check(not foreign, f"the page fetched from elsewhere: {foreign}")
    check(not page.exceptions, f"uncaught exceptions in the page: {page.exceptions}")
    check(not page.console_errors, f"console errors: {page.console_errors}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=str(ROOT / ".build" / "debug" / "trellis"))
    parser.add_argument("--chromium", default=None)
    parser.add_argument("--chromedriver", default=None)
    parser.add_argument("--timeout", type=int, default=240, help="seconds for the whole run")
    args = parser.parse_args()

    def out_of_time(*_):
        raise TimeoutError(f"the browser test ran longer than {args.timeout} s")
    signal.signal(signal.SIGALRM, out_of_time)
    signal.alarm(args.timeout)

    report = Report()
    servers, browser, site, folder = [], None, None, tempfile.mkdtemp(prefix="trellis-origin-")
    try:
        shutil.copy(PAGE_FILE, pathlib.Path(folder) / "playground.html")
        shutil.copy(PROBE_FILE, pathlib.Path(folder) / "cors-probe.html")
        site = driver.StaticSite(folder)
        open_server = driver.Trellis(args.binary)  # --cors-origins * (the default)
        servers.append(open_server)
        allowing = driver.Trellis(args.binary, "--cors-origins", f"http://127.0.0.1:{site.port}")
        servers.append(allowing)
        browser = driver.Browser(args.chromium, args.chromedriver)
        page = browser.page()

        report.run("GET /playground serves the page and / links it", test_served, open_server)
        report.run("GET /clients/trellis.mjs serves the JavaScript client", test_served_client, open_server)
        report.run("the playground loads and every panel answers", test_same_origin_load, page, open_server)
        report.run("outline panel: visible rows, selection, expansion", test_outline, page, open_server)
        report.run("flow panel: tags at the API's positions, controls", test_flow, page, open_server)
        report.run("text panel: lines at the API's positions, a width to drag, modes", test_text, page, open_server)
        report.run("sections panel: headers, items, toggling, modes", test_sections, page, open_server)
        report.run("drawer panel: frames, linear() spring, mask tap", test_drawer, page, open_server)
        report.run("whole screen: the four panels as one batch, timed beside single calls", test_whole_screen, page, open_server)
        report.run("problem details with highlighted pointers", test_problems, page, open_server)
        report.run("nothing but the service is loaded (offline)", test_nothing_else_loaded, page, open_server)
        report.run("CORS: allowed origin succeeds, disallowed fails", test_cors_probe, browser, site, allowing)
        report.run("the playground from another origin (?api=)", test_playground_elsewhere, browser, site, open_server, allowing)
        report.run("the served playground calls only its own origin (?api= elsewhere is refused)", test_served_elsewhere,
                   browser, allowing, open_server)
    except TimeoutError as error:
        report.failed += 1
        print(f"FAIL {error}", flush=True)
    finally:
        signal.alarm(0)
        if browser:
            browser.close()
        for server in servers:
            server.stop()
        if site:
            site.stop()
        shutil.rmtree(folder, ignore_errors=True)
    print(f"browser-test: {report.passed} passed, {report.failed} failed, {report.skipped} skipped "
          f"({time.monotonic() - report.started:.1f} s)")
    return 1 if report.failed else 0


if __name__ == "__main__":
    sys.exit(main())
