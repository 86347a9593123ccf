#!/usr/bin/env python3
"""The playground in a real browser, run by `make browser-test` (part of `make test`): unittest test cases.

Starts the trellis binary on free ports and headless Chromium (Selenium with chromedriver) once for
the run. Each panel test loads GET /playground afresh and checks from the DOM that the panel drew the
service's answer: it posts the panel's own request text to the API directly and compares the answer
with what the page shows (the outline's visible rows, the tags at the returned positions, each label's
measured box, each paragraph's lines, each virtual list row drawn (its offset, and the browser's own height of it), the sections and their items, the drawer's final frame, easing
and keyframes), then clicks, drags and types as a person would and compares again; afterwards the page
must have fetched nothing but the service and thrown nothing. Errors must show as problem details with
their pointers highlighted. The page makes its calls through the JavaScript client it imports from
GET /clients/trellis.mjs.

The features come from the service's registry: GET / lists its POST endpoints, the page shows a panel
for each (and hides one whose endpoint the service lacks), and here every feature must have exactly one
panel, and every panel a test_<panel>_panel below. "Whole screen" sends every panel's request as one
batch. Finally, a page served by a plain http.server on another port (another origin) calls the API:
it works where --cors-origins allows that origin and fails where it doesn't; and the playground served
by one trellis calls another one given as its base URL.

Needs the selenium package and chromedriver (make browser-deps installs both); each test is bounded
by --timeout. A skipped test fails the run.

Usage: python3 scripts/playground/browser_test.py [--binary .build/debug/trellis] [--chromium PATH]
       [--chromedriver PATH] [--timeout S] [unittest options, e.g. -k measure]
"""

import argparse
import base64
import hashlib
import json
import pathlib
import shutil
import signal
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True  # no __pycache__ in the work tree
HERE = pathlib.Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]
import driver  # noqa: E402
from trellis_harness import ROOT, DEBUG_BINARY, Trellis, require  # noqa: E402

ROOT = pathlib.Path(ROOT)
PAGE_FILE = ROOT / "Sources" / "TrellisAPI" / "Resources" / "playground.html"
PROBE_FILE = HERE / "cors-probe.html"
CLIENT_FILE = ROOT / "clients" / "js" / "trellis.mjs"
BATCH_PATH = "/v1/batch"
# Uploads: a font file, not a feature's JSON request (the Paragraphs panel's font file goes through the client).
FONTS_PATH = "/v1/fonts"

# Set by main(): --binary, --chromium, --chromedriver, --timeout.
OPTIONS = argparse.Namespace(binary=DEBUG_BINARY, chromium=None, chromedriver=None, timeout=120)


def near(a, b, tolerance=0.05):
    return abs(float(a) - float(b)) <= tolerance


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




PANELS_DOM = """[...document.querySelectorAll('main > section.panel')].map(p => ({
    id: p.id, title: p.querySelector('h2').textContent, endpoints: p.dataset.endpoints.split(' '), hidden: p.hidden}))"""


def page_panels(page):
    """The page's panels in order: id, title, the POST paths each calls (its own request's first), hidden."""
    return page.evaluate(PANELS_DOM)


def shown_panels(page):
    return [panel for panel in page_panels(page) if not panel["hidden"]]


def features(server):
    """The feature registry's paths: the POST endpoints GET / lists, but the batch."""
    return [e["path"] for e in server.index()["endpoints"] if e["method"] == "POST" and e["path"] not in (BATCH_PATH, FONTS_PATH)]


def load_playground(page, server):
    """Loads GET /playground afresh and waits until GET / answered and every panel shown drew an answer."""
    page.navigate(f"{server.base}/playground")
    page.wait("document.getElementById('api-status').dataset.state === 'ok'", what="GET / to answer")
    for panel in shown_panels(page):
        settled(page, panel["id"])


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
    require(status == 200, f"outline: the API answered {status} to the page's request")
    shown = page.evaluate(OUTLINE_DOM)
    expected = [{k: row[k] for k in ("id", "index", "depth", "expanded", "selected")} for row in rows["rows"]]
    got = [{k: row[k] for k in ("id", "index", "depth", "expanded", "selected")} for row in shown]
    require(got == expected, f"outline: rows shown {got} differ from the API's {expected}")
    for row in shown:
        require((row["check"] == "✓") == row["selected"], f"outline: checkmark wrong on {row}")
    no_selection = page.evaluate("(() => { const r = document.querySelector('#outline .orow.no-selection'); return r && r.dataset.selected === 'true'; })()")
    if "noSelection" in rows:
        require(no_selection == rows["noSelection"]["selected"], "outline: the No Selection row's checkmark differs from the API")
    return json.loads(body), rows, shown


OUTLINE_SIZES = """(() => { const s = document.querySelector('#outline .outline-scroll');
    if (!s) return null;
    const top = s.querySelector('.outline-list').getBoundingClientRect().top;
    return {scrollTop: s.scrollTop, viewport: s.clientHeight,
            rows: [...s.querySelectorAll('.orow[data-index]')].map(r => ({id: JSON.parse(r.dataset.id),
              top: r.getBoundingClientRect().top - top, height: r.getBoundingClientRect().height,
              mismatch: r.dataset.mismatch === 'true'}))}; })()"""


def compare_outline_sizes(page, server):
    """With rowHeights: the browser's own height and top of each row drawn equal to the service's (labels wrapped as
    it wraps them), in a viewport of viewportHeight scrolled to the answer's selectedScrollOffset."""
    body = request_text(page, "outline")
    status, _, rows = server.post("/v1/outline/rows", body)
    require(status == 200, f"outline: the API answered {status} to the page's request")
    shown = page.evaluate(OUTLINE_SIZES)
    require(shown is not None, "outline: rowHeights sent but no scrolling viewport drawn")
    require(shown["viewport"] == json.loads(body)["rowHeights"]["viewportHeight"], f"outline: viewport {shown['viewport']} px")
    require(len(shown["rows"]) == len(rows["rows"]), f"outline: {len(shown['rows'])} rows drawn of {len(rows['rows'])}")
    for row, drawn in zip(rows["rows"], shown["rows"]):
        require(drawn["id"] == row["id"] and near(drawn["height"], row["height"], 0.001) and near(drawn["top"], row["offset"], 0.001)
                and not drawn["mismatch"], f"outline: row {row['id']!r} drawn {drawn['height']} high at {drawn['top']}, "
                f"the API says {row['height']} at {row['offset']}")
    require(rows["selectedScrollOffset"] is not None and near(shown["scrollTop"], rows["selectedScrollOffset"], 0.5),
            f"outline: scrolled to {shown['scrollTop']}, the API says {rows['selectedScrollOffset']}")
    selected = next(row for row in rows["rows"] if row["selected"])
    require(shown["scrollTop"] - 0.5 <= selected["offset"] and
            selected["offset"] + selected["height"] <= shown["scrollTop"] + shown["viewport"] + 0.5,
            f"outline: the selected row ({selected['offset']}, {selected['height']} high) is not in view at {shown['scrollTop']}")
    return rows, shown


def outline_panel(page, server):
    require(page.evaluate("document.getElementById('outline').dataset.state") == "ok", "outline: panel not ok")
    request, rows, shown = compare_outline(page, server)
    # The picker opens scrolled to the selection (below the viewport's first rows), a wrapped label's row taller.
    sized, drawn = compare_outline_sizes(page, server)
    require(drawn["scrollTop"] > 0, f"outline: the picker opened at the top ({drawn['scrollTop']}); its selection is further down")
    require(any(row["height"] > request["rowHeights"]["minHeight"] for row in sized["rows"]), "outline: no label wraps")
    selected = [row for row in shown if row["selected"]]
    require(len(selected) == 1 and selected[0]["id"] == request["selection"], f"outline: selection not shown: {selected}")
    require(selected[0]["label"] == "FlowLayout.swift", f"outline: label {selected[0]['label']!r}")
    _, _, expansion = server.post("/v1/outline/expansion", json.dumps(request))
    path_text = page.evaluate("document.querySelector('#outline code.path').textContent")
    require(path_text.count("›") == len(expansion["paths"][0]["path"]) - 1, f"outline: path {path_text!r}")

    # Click a root row: it becomes the selection, and the rows are the service's again.
    before = answers(page, "outline")
    page.click("#outline .orow[data-id='\"readme\"'] .label")
    settled(page, "outline", before)
    request, _, shown = compare_outline(page, server)
    require(request["selection"] == "readme", f"outline: clicking README.md sent selection {request.get('selection')!r}")
    require([row["id"] for row in shown if row["selected"]] == ["readme"], "outline: README.md is not checked")
    # The request says where the picker was scrolled; the new selection was in view there, so the view stays.
    _, drawn = compare_outline_sizes(page, server)
    require(near(drawn["scrollTop"], request["rowHeights"].get("scrollOffset", 0), 0.5),
            f"outline: clicked when scrolled to {request['rowHeights'].get('scrollOffset')}, now at {drawn['scrollTop']}")

    # Expand a collapsed node with its triangle.
    before = answers(page, "outline")
    page.click("#outline .orow[data-id='\"outline\"'] .disclosure")
    settled(page, "outline", before)
    request, _, shown = compare_outline(page, server)
    require("outline" in request["expanded"], f"outline: expanded sent {request.get('expanded')}")
    require({"rows", "tree"} <= {row["id"] for row in shown}, "outline: the expanded node's children are not shown")

    # The "No Selection" row.
    before = answers(page, "outline")
    page.click("#outline .orow.no-selection")
    settled(page, "outline", before)
    request, rows, _ = compare_outline(page, server)
    require(request["selection"] is None and rows["noSelection"]["selected"], "outline: No Selection not selected")

    # Without the "No Selection" row; then back to the default expansion (the seed's picker on opening).
    set_control(page, "outline", "includeNoSelection", False, "change")
    request, rows, _ = compare_outline(page, server)
    require(request["includeNoSelection"] is False and "noSelection" not in rows
            and not page.evaluate("document.querySelector('#outline .orow.no-selection')"), "outline: No Selection row still shown")
    before = answers(page, "outline")
    page.click("#outline [data-action='default-expansion']")
    settled(page, "outline", before)
    request, rows, _ = compare_outline(page, server)
    require("expanded" not in request, "outline: the default expansion still sends `expanded`")

    # Search: only the matches and the way to them are shown, each returned range highlighted in a <mark>.
    set_control(page, "outline", "search", "re", "input")
    request, rows, shown = compare_outline(page, server)
    require((request.get("search") or {}).get("query") == "re", f"outline: the search field sent {request.get('search')!r}")
    marks = page.evaluate("""[...document.querySelectorAll('#outline .orow[data-index]')].map(row =>
        [...row.querySelectorAll('.label mark')].map(m => m.textContent))""")
    expected = []
    for row, label in zip(rows["rows"], [row["label"] for row in shown]):
        units = label.encode("utf-16-le")
        ranges = (row.get("match") or {}).get("ranges", [])
        expected.append([units[2 * s:2 * e].decode("utf-16-le") for s, e in ranges])
    require(rows["matchCount"] >= 2 and sum(map(len, marks)) >= 2, f"outline: too few highlights for 're': {marks}")
    require(marks == expected, f"outline: highlights {marks} differ from the API's ranges {expected}")
    require(any("RE" in row_marks for row_marks in marks), f"outline: no case-folded highlight (README.md): {marks}")
    require(page.evaluate("document.querySelector('#outline .problem').hidden"), "outline: the search shows a problem")
    set_control(page, "outline", "search", "", "input")
    request, _, _ = compare_outline(page, server)
    require("search" not in request, "outline: clearing the search field still sends `search`")


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
    require(status == 200, f"flow: the API answered {status} to the page's request")
    shown = page.evaluate(FLOW_DOM)
    require(len(shown["tags"]) == len(layout["items"]), f"flow: {len(shown['tags'])} tags drawn, the API placed {len(layout['items'])}")
    for tag, item in zip(shown["tags"], layout["items"]):
        require(tag["index"] == item["index"], f"flow: tag order {tag} vs {item}")
        for key in ("x", "y", "width", "height"):
            require(near(tag[key], item[key]), f"flow: tag {item['index']} {key} is {tag[key]} on the page, {item[key]} from the API")
        given = request["items"][item["index"]]
        label = str(given["text"] if given.get("text") is not None else given.get("id"))
        # A label narrowed to its maxWidth shows the service's lines, the ellipsis's cut.
        require(tag["text"] == ("\n".join(drawn_lines(label, item)) if "lines" in item else label),
                f"flow: tag label {tag['text']!r} for {item}")
    require(near(shown["box"]["width"], layout["size"]["width"]) and near(shown["box"]["height"], layout["size"]["height"]),
            f"flow: container drawn {shown['box']}, size {layout['size']}")
    chip = layout.get("overflowIndicator")
    require((shown["chip"] is None) == (chip is None), f"flow: chip drawn {shown['chip']} vs {chip}")
    if chip:
        require(shown["chip"]["text"] == f"+{chip['count']}", f"flow: chip text {shown['chip']['text']!r}, count {chip['count']}")
        for key in ("x", "y", "width", "height"):
            require(near(shown["chip"][key], chip[key]), f"flow: chip {key} {shown['chip'][key]} vs {chip[key]}")
    return request, layout


def drawn_lines(text, layout):
    """What a laid-out text shows: each line's text (UTF-16 offsets), cut at the ellipsis and followed by it, without
    its hanging spaces and line break, and the hyphen of a line broken at a soft hyphen."""
    units = text.encode("utf-16-le")
    piece = lambda a, b: units[2 * a:2 * b].decode("utf-16-le")
    ellipsis = layout.get("ellipsis")
    return [piece(line["start"], ellipsis["end"]) + ellipsis["text"] if ellipsis and ellipsis["line"] == k
            else piece(line["start"], line["end"]).rstrip("\r\n").rstrip(" \u3000") + line.get("hyphen", "")
            for k, line in enumerate(layout["lines"])]


def flow_panel(page, server):
    require(page.evaluate("document.getElementById('flow').dataset.state") == "ok", "flow: panel not ok")
    request, layout = compare_flow(page, server)
    require(request["containerWidth"] == 300 and len(layout["rows"]) >= 2, "flow: the seed's example should wrap in 300 px")
    rows_at_300 = len(layout["rows"])

    # Drag the width slider narrower: more rows, tags where the API puts them.
    set_control(page, "flow", "containerWidth", 150, "input")
    request, layout = compare_flow(page, server)
    require(request["containerWidth"] == 150 and len(layout["rows"]) > rows_at_300, "flow: narrower container did not re-wrap")
    for name, value in (("alignment", "center"), ("direction", "rtl"), ("rowAlignment", "bottom"), ("lineBreaking", "balanced")):
        set_control(page, "flow", name, value, "change")
        request, _ = compare_flow(page, server)
        require(request[name] == value, f"flow: the {name} control sent {request.get(name)!r}")
    set_control(page, "flow", "spacing", 8, "input")
    compare_flow(page, server)

    # maxRows with the "+N" chip.
    set_control(page, "flow", "maxRows", 1, "input")
    set_control(page, "flow", "chip", True, "change")
    request, layout = compare_flow(page, server)
    require(request["maxRows"] == 1 and layout["hiddenCount"] > 0, f"flow: maxRows 1 hid {layout['hiddenCount']}")

    # Widths measured from the labels' text in the page's font.
    before = answers(page, "flow")
    page.click("#flow [data-action='fit-labels']")
    settled(page, "flow", before)
    request, _ = compare_flow(page, server)
    require(request["items"][1]["width"] > request["items"][5]["width"], "flow: SwiftUI is not measured wider than iOS")

    # Labels: the request sends text and a font, no widths; the tags are the sizes Trellis measured.
    set_control(page, "flow", "maxRows", "", "input")
    set_control(page, "flow", "containerWidth", 300, "input")
    set_control(page, "flow", "labels", True, "change")
    request, layout = compare_flow(page, server)
    require(all("text" in item and "width" not in item and "height" not in item for item in request["items"])
            and request.get("font", {}).get("family"), f"flow: labels mode sent {request}")
    measured = server.post("/v1/text/measure", json.dumps({"font": request["font"], "texts": [request["items"][0]["text"]]}))[2]
    padding = request["labelPadding"]
    require(layout["items"] and near(layout["items"][0]["width"],
                                   measured["texts"][0]["width"] + padding["leading"] + padding["trailing"]),
            f"flow: the first label is {layout['items'][0]['width'] if layout['items'] else None} wide, measured {measured}")
    set_control(page, "flow", "maxRows", 1, "input")
    set_control(page, "flow", "chip", True, "change")
    request, layout = compare_flow(page, server)
    require(request.get("overflowIndicator") == {"text": "+{n}"} and layout.get("overflowIndicator"),
            f"flow: the labelled chip: sent {request.get('overflowIndicator')}, got {layout.get('overflowIndicator')}")
    # A maximum chip width: SwiftUI is cut with an ellipsis, then wrapped onto two lines.
    set_control(page, "flow", "maxRows", "", "input")
    set_control(page, "flow", "maxWidth", 70, "input")
    request, layout = compare_flow(page, server)
    require(all(item.get("maxWidth") == 70 for item in request["items"]), f"flow: max chip width sent {request['items']}")
    cut = [item for item in layout["items"] if item.get("truncated")]
    require(cut and all(item["width"] == 70 and item.get("ellipsis") for item in cut), f"flow: no chip cut at 70 px: {layout['items']}")
    set_control(page, "flow", "chipLines", 2, "input")
    request, layout = compare_flow(page, server)
    require(all(item.get("maxLines") == 2 for item in request["items"]), f"flow: chip lines sent {request['items']}")
    set_control(page, "flow", "maxWidth", 0, "input")
    request, _ = compare_flow(page, server)
    require(all("maxWidth" not in item and "maxLines" not in item for item in request["items"]), f"flow: max width off sent {request['items']}")
    set_control(page, "flow", "labels", False, "change")
    request, _ = compare_flow(page, server)
    require(all("width" in item and "text" not in item for item in request["items"]) and "font" not in request,
            f"flow: sizes mode sent {request}")


MEASURE_DOM = """[...document.querySelectorAll('#measure .measure-box')].map(box => { const r = box.getBoundingClientRect();
    return {index: Number(box.dataset.index), width: r.width, height: r.height, text: box.querySelector('.measure-text').textContent,
            numbers: box.parentNode.querySelector('.measure-numbers').textContent}; })"""


def family_control(page):
    return page.evaluate("""(s => ({value: s.value, options: [...s.options].map(o => o.value)}))(
        document.querySelector('#measure [data-control="family"]'))""")


def compare_measure(page, server):
    """Each label is a box of the width and line height the API measured, with its text and its numbers beside it."""
    body = request_text(page, "measure")
    request = json.loads(body)
    status, _, answer = server.post("/v1/text/measure", body)
    require(status == 200, f"measure: the API answered {status} to the page's request: {answer}")
    shown = page.evaluate(MEASURE_DOM)
    require(len(shown) == len(answer["texts"]) == len(request["texts"]),
            f"measure: {len(shown)} boxes drawn for {len(request['texts'])} labels, {len(answer['texts'])} measured")
    for box, text, measured in zip(shown, request["texts"], answer["texts"]):
        require(near(box["width"], measured["width"], 0.01) and near(box["height"], measured["height"], 0.01),
                f"measure: {text!r} drawn {box['width']} × {box['height']}, measured {measured}")
        require(box["text"] == text, f"measure: box {box['index']} shows {box['text']!r}, not {text!r}")
        require(box["numbers"] == f"{measured['width']} × {measured['height']} px",
                f"measure: {text!r} is labelled {box['numbers']!r}, measured {measured}")
    info = page.evaluate("document.querySelector('#measure .info').textContent")
    require(f"= line height {answer['font']['lineHeight']}" in info, f"measure: the font's line is {info!r}, the API's {answer['font']}")
    return request, answer


def measure_panel(page, server):
    require(page.evaluate("document.getElementById('measure').dataset.state") == "ok", "measure: panel not ok")
    request, answer = compare_measure(page, server)
    # The family select offers the families GET /v1/fonts lists, in its order, each once.
    page.wait("document.getElementById('measure').dataset.families", what="GET /v1/fonts to fill the family select")
    listing = json.loads(server.get("/v1/fonts")[2])["fonts"]
    families = list(dict.fromkeys(face["family"] for face in listing))
    control = family_control(page)
    require(control["options"] == families, f"measure: the family select offers {control['options']}, GET /v1/fonts {families}")
    require(control["value"] == "DejaVu Sans", f"measure: the primary family shown is {control['value']!r}")

    # Typed labels, one per line (an empty line is an empty label, 0 wide).
    set_control(page, "measure", "labels", "Hello\nWorld wide web\n", "input")
    request, answer = compare_measure(page, server)
    require(request["texts"] == ["Hello", "World wide web", ""], f"measure: typing sent {request['texts']}")
    require(answer["texts"][2]["width"] == 0, f"measure: the empty label measured {answer['texts'][2]}")
    # Twice the size: the same labels about twice as wide.
    set_control(page, "measure", "size", 34, "input")
    request, wide = compare_measure(page, server)
    require(request["font"]["size"] == 34 and near(wide["texts"][1]["width"], 2 * answer["texts"][1]["width"], 1.0)
            and wide["font"]["lineHeight"] > answer["font"]["lineHeight"], f"measure: at 34 px {wide}, at 17 px {answer}")
    # Another primary family: the rest of the list stays as the fallback.
    other = "DejaVu Serif" if "DejaVu Serif" in families else families[1]
    set_control(page, "measure", "family", other, "change")
    request, serif = compare_measure(page, server)
    require(request["font"]["family"] == f"{other}, IPAGothic, Garuda, Noto Color Emoji",
            f"measure: choosing {other} sent {request['font']['family']!r}")
    require(serif["texts"][1]["width"] != wide["texts"][1]["width"], f"measure: {other} measures like DejaVu Sans: {serif}")

    # A label no listed family can show: the 422 points at it in the request.
    set_control(page, "measure", "family", "IPAGothic", "change")
    before = answers(page, "measure")
    page.evaluate("""(() => { const c = document.querySelector('#measure [data-control="labels"]');
        c.value = 'OK\\nשלום'; c.dispatchEvent(new Event('input', {bubbles: true})); })()""")
    result = settled(page, "measure", before)
    body = request_text(page, "measure")
    status, _, problem = server.post("/v1/text/measure", body)
    box = problem_box(page, "measure")
    require(status == 422 and result["state"] == "problem" and box["pointers"] == ["/texts/1"] == box["marked"]
            and problem["errors"][0]["detail"] in box["text"],
            f"measure: a label IPAGothic lacks: {status} {problem}, the page shows {result['state']}: {box}")
    set_control(page, "measure", "labels", "OK\nIPA ゴシック", "input")
    compare_measure(page, server)
    require(problem_box(page, "measure")["hidden"], "measure: the problem box stayed after a good answer")


TEXT_DOM = """[...document.querySelectorAll('#text .text-box')].map(box => ({
    width: box.getBoundingClientRect().width, height: box.getBoundingClientRect().height,
    lines: [...box.querySelectorAll('.text-line')].map(line => ({start: Number(line.dataset.start),
        end: Number(line.dataset.end), top: Number(line.dataset.top), text: line.textContent}))}))"""


def compare_text(page, server):
    body = request_text(page, "text")
    request = json.loads(body)
    status, _, answer = server.post("/v1/text/layout", body)
    require(status == 200, f"text: the API answered {status} to the page's request")
    shown = page.evaluate(TEXT_DOM)
    require(len(shown) == len(answer["texts"]), f"text: {len(shown)} paragraphs drawn, {len(answer['texts'])} answered")
    for box, text, layout in zip(shown, request["texts"], answer["texts"]):
        require(near(box["width"], request["width"]) and near(box["height"], layout["height"]),
                f"text: box {box['width']} × {box['height']}, the request's width {request['width']}, height {layout['height']}")
        require([(line["start"], line["end"], line["top"]) for line in box["lines"]]
                == [(line["start"], line["end"], line["top"]) for line in layout["lines"]],
                f"text: lines drawn {box['lines']} vs {layout['lines']}")
        require([line["text"] for line in box["lines"]] == drawn_lines(text, layout), f"text: line texts {box['lines']}")
    return request, answer


def text_panel(page, server):
    require(page.evaluate("document.getElementById('text').dataset.state") == "ok", "text: panel not ok")
    request, answer = compare_text(page, server)
    lines_at_240 = sum(len(layout["lines"]) for layout in answer["texts"])
    require(any("ellipsis" in layout for layout in answer["texts"]), "text: the example should clamp a paragraph with an ellipsis")
    # Drag the width narrower: more lines, drawn where the API puts them.
    set_control(page, "text", "width", 120, "input")
    request, answer = compare_text(page, server)
    require(request["width"] == 120 and sum(len(t["lines"]) for t in answer["texts"]) > lines_at_240, "text: narrower box did not re-wrap")
    for name, value in (("wordBreak", "break-all"), ("overflowWrap", "anywhere"), ("whiteSpace", "pre-wrap")):
        set_control(page, "text", name, value, "change")
        request, _ = compare_text(page, server)
        require(request[name] == value, f"text: the {name} control sent {request.get(name)!r}")
    set_control(page, "text", "maxLines", "", "input")
    set_control(page, "text", "ellipsis", False, "change")
    request, answer = compare_text(page, server)
    require("maxLines" not in request and "textOverflow" not in request and not any(t["truncated"] for t in answer["texts"]),
            f"text: clamp off sent {request}")
    # The typed message keeps its line breaks: each ends a line that says so, drawn where the API puts it.
    require(any(line.get("forcedBreak") for t in answer["texts"] for line in t["lines"]), f"text: pre-wrap kept no line feed: {answer}")
    set_control(page, "text", "lineHeight", "2", "change")
    request, answer = compare_text(page, server)
    size = request["font"]["size"]
    require(request.get("lineHeight") == "2" and all(line["height"] == 2 * size for t in answer["texts"] for line in t["lines"]),
            f"text: line-height 2 sent {request.get('lineHeight')!r}, answered {answer}")
    set_control(page, "text", "lineHeight", "", "change")
    # An alignment and an indent: each line drawn at its x from the start edge.
    set_control(page, "text", "textAlign", "center", "change")
    set_control(page, "text", "textIndent", "10%", "change")
    request, answer = compare_text(page, server)
    xs = page.evaluate("""[...document.querySelectorAll('#text .text-box')].map(box => [...box.querySelectorAll('.text-line')].map(line => {
        const b = box.getBoundingClientRect(), r = line.getBoundingClientRect();
        return getComputedStyle(box).direction === 'rtl' ? b.right - r.right : r.left - b.left; }))""")
    require(request.get("textAlign") == "center" and request.get("textIndent") == "10%"
            and all(abs(x - line.get("x", 0)) < 0.02 for drawn, t in zip(xs, answer["texts"]) for x, line in zip(drawn, t["lines"]))
            and any(line.get("x") for t in answer["texts"] for line in t["lines"]), f"text: lines drawn at {xs}, answered {answer}")
    set_control(page, "text", "textAlign", "start", "change")
    set_control(page, "text", "textIndent", "", "change")
    set_control(page, "text", "letterSpacing", "0.05em", "change")
    set_control(page, "text", "wordSpacing", "4", "change")
    request, _ = compare_text(page, server)
    require(request.get("letterSpacing") == "0.05em" and request.get("wordSpacing") == 4,
            f"text: the spacing controls sent {request.get('letterSpacing')!r}, {request.get('wordSpacing')!r}")
    set_control(page, "text", "hyphens", "none", "change")
    request, _ = compare_text(page, server)
    require(request.get("hyphens") == "none", f"text: the hyphens control sent {request.get('hyphens')!r}")
    set_control(page, "text", "hyphens", "manual", "change")
    set_control(page, "text", "letterSpacing", "", "change")
    set_control(page, "text", "wordSpacing", "", "change")
    set_control(page, "text", "tabSize", 4, "input")
    request, _ = compare_text(page, server)
    require(request.get("tabSize") == 4, f"text: the tabSize control sent {request.get('tabSize')!r}")
    for value in ("pre-line", "break-spaces"):
        set_control(page, "text", "whiteSpace", value, "change")
        request, answer = compare_text(page, server)
        require(request["whiteSpace"] == value and any(line.get("forcedBreak") for t in answer["texts"] for line in t["lines"]),
                f"text: {value} answered {answer}")
    set_control(page, "text", "whiteSpace", "nowrap", "change")
    set_control(page, "text", "ellipsis", True, "change")
    request, answer = compare_text(page, server)
    require(all(len(t["lines"]) == 1 for t in answer["texts"]) and any("ellipsis" in t for t in answer["texts"]),
            f"text: nowrap with an ellipsis answered {answer}")


FONT_FILE = ROOT / "Tests" / "TrellisAPITests" / "Fonts" / "Fixtures" / "inter-latin.woff2"

# Each line of the first paragraph as the page's Chromium draws it, in the box's font: its width without the spaces
# that hang at its end (a span of the line's text, measured alone).
DROPPED_WIDTHS = """[...document.querySelectorAll('#text .text-box')][0] && (() => {
    const box = document.querySelector('#text .text-box');
    return [...box.querySelectorAll('.text-line')].map(line => {
        const probe = document.createElement('span');
        probe.style.font = getComputedStyle(box).font;
        probe.style.whiteSpace = 'pre';
        probe.textContent = line.textContent.replace(/[ \u3000]+$/, '');
        document.body.append(probe);
        const width = probe.getBoundingClientRect().width;
        probe.remove();
        return {width, api: Number(line.dataset.width), text: line.textContent};
    }); })()"""


def text_in_a_dropped_font(page, server):
    """A font file dropped on the Paragraphs panel: the client hashes it, the service asks for it (422, font not
    stored), the client uploads it and sends the request again; the page declares it in fontFaces and draws the
    lines in the same bytes, where Chromium's own widths are the service's."""
    data = FONT_FILE.read_bytes()
    id = "sha256-" + hashlib.sha256(data).hexdigest()
    require(server.request("HEAD", f"/v1/fonts/{id}")[0] == 404, "dropped font: the service stores it before the test")
    # The latin paragraph alone, so that every line is in the dropped font.
    set_request(page, "text", json.dumps({"font": {"family": "DejaVu Sans", "size": 16}, "width": 240,
                                          "texts": ["Long labels must wrap, not overflow the chip they live in: "
                                                    "a well-known request for tag lists."]}))
    before = answers(page, "text")
    page.evaluate(f"""(() => {{ const bytes = Uint8Array.from(atob({json.dumps(base64.b64encode(data).decode())}), c => c.charCodeAt(0));
        const transfer = new DataTransfer();
        transfer.items.add(new File([bytes], 'inter-latin.woff2', {{type: 'font/woff2'}}));
        document.getElementById('text').dispatchEvent(new DragEvent('drop', {{bubbles: true, cancelable: true, dataTransfer: transfer}})); }})()""")
    result = settled(page, "text", before)
    request, answer = compare_text(page, server)
    require(result["state"] == "ok" and request.get("fontFaces") == [{"family": "Dropped font", "src": id, "weight": "1 1000"}]
            and request["font"]["family"].startswith("Dropped font, DejaVu Sans"),
            f"dropped font: the panel ({result['state']}) sent {request}")
    require(server.request("HEAD", f"/v1/fonts/{id}")[0] == 200, "dropped font: the client did not upload it")
    shown = page.evaluate(f"document.querySelector('#text output[data-for=\"fontFile\"]').textContent")
    require(shown.startswith("inter-latin.woff2: " + id[:19]), f"dropped font: the panel says {shown!r}")
    for weight in (400, 450, 700):
        set_control(page, "text", "weight", weight, "input")
        request, answer = compare_text(page, server)
        require(request["font"]["weight"] == weight, f"dropped font: the weight control sent {request['font']}")
        lines = page.evaluate(DROPPED_WIDTHS)
        require(lines and all(abs(line["width"] - line["api"]) <= 1 / 64 for line in lines),
                f"dropped font at weight {weight}: Chromium draws the lines {lines}")


LIST_DOM = """(() => { const s = document.querySelector('#list .vlist');
    return {scrollTop: s.scrollTop, start: Number(s.dataset.start), end: Number(s.dataset.end),
            content: parseFloat(s.querySelector('.vlist-content').style.height),
            rows: [...s.querySelectorAll('.vrow')].map(r => ({index: Number(r.dataset.index), key: JSON.parse(r.dataset.key),
              top: parseFloat(r.style.top), drawn: r.getBoundingClientRect().height, viewTop: r.getBoundingClientRect().top - s.getBoundingClientRect().top,
              mismatch: r.dataset.mismatch === 'true'}))}; })()"""


def compare_list(page, server):
    """The page's rows against the API's answer to the page's request: each row drawn at its offset, the browser's own
    height of each equal to the service's, only the rows the viewport shows (and two more on each side) in the page."""
    body = request_text(page, "list")
    status, _, answer = server.post("/v1/list/layout", body)
    require(status == 200, f"list: the API answered {status} to the page's request")
    layout = answer["layouts"][0]
    shown = page.evaluate(LIST_DOM)
    require(near(shown["content"], layout["total"], 0.001), f"list: content {shown['content']} px high, the API says {layout['total']}")
    indices = [row["index"] for row in shown["rows"]]
    require(indices == list(range(shown["start"], shown["end"])) and 0 < len(indices) < len(layout["heights"]),
            f"list: rows drawn {indices} of {len(layout['heights'])}")
    for row in shown["rows"]:
        i = row["index"]
        require(row["top"] == layout["offsets"][i] and near(row["drawn"], layout["heights"][i], 0.001) and not row["mismatch"],
                f"list: row {i} drawn {row['drawn']} high at {row['top']}, the API says {layout['heights'][i]} at {layout['offsets'][i]}")
    # The rows drawn cover the viewport: the first starts at or above its top, the last ends at or below its bottom.
    top, bottom = shown["scrollTop"], shown["scrollTop"] + 320
    first, last = shown["rows"][0]["index"], shown["rows"][-1]["index"]
    require(layout["offsets"][first] <= max(top, 0) and (last == len(layout["heights"]) - 1 or
                                                          layout["offsets"][last] + layout["heights"][last] >= bottom),
            f"list: rows {first}-{last} do not cover {top}-{bottom}")
    return json.loads(body), layout, shown


def list_panel(page, server):
    require(page.evaluate("document.getElementById('list').dataset.state") == "ok", "list: panel not ok")
    request, layout, shown = compare_list(page, server)
    require(len(layout["heights"]) == len(request["rows"]) >= 70, f"list: the example has {len(layout['heights'])} rows")
    # Scroll into the middle: the window follows, drawn from the same answer.
    page.evaluate("(() => { const s = document.querySelector('#list .vlist'); s.scrollTop = 1234.5; s.dispatchEvent(new Event('scroll')); })()")
    request, layout, shown = compare_list(page, server)
    require(shown["start"] > 0, f"list: scrolled to {shown['scrollTop']} but drew from row {shown['start']}")
    # The row at the viewport's top and how far above the viewport its top is, before the width changes.
    top_row = next(row for row in shown["rows"] if row["viewTop"] + row["drawn"] > 0)
    # Narrower: taller rows; the request names that row as its anchor and the answer keeps it where it was.
    set_control(page, "list", "width", 200, "input")
    request, narrow, after = compare_list(page, server)
    require(request["width"] == 200 and request["anchor"]["key"] == top_row["key"], f"list: the width sent {request.get('width')} "
            f"with anchor {request.get('anchor')}, the top row was {top_row['key']}")
    require(narrow["total"] > layout["total"] and narrow["anchor"]["index"] == top_row["index"],
            f"list: at 200 px total {narrow['total']} (was {layout['total']}), anchor {narrow.get('anchor')}")
    kept = next((row for row in after["rows"] if row["index"] == top_row["index"]), None)
    require(kept is not None and near(kept["viewTop"], top_row["viewTop"], 0.5),
            f"list: the anchored row moved on screen from {top_row['viewTop']} to {kept and kept['viewTop']}")
    require(near(after["scrollTop"], narrow["anchor"]["scrollOffset"], 0.5), f"list: scrolled to {after['scrollTop']}, "
            f"the API says {narrow['anchor']['scrollOffset']}")


SECTIONS_DOM = """[...document.querySelectorAll('#sections .sec')].map(s => ({
    id: JSON.parse(s.dataset.id), expanded: s.querySelector('.sec-header').getAttribute('aria-expanded') === 'true',
    disabled: s.querySelector('.sec-header').getAttribute('aria-disabled') === 'true',
    icon: s.querySelector('svg.chevron').dataset.icon, divider: !s.querySelector('.sec-divider').hidden,
    items: s.querySelector('.sec-items').hidden ? [] : [...s.querySelectorAll('.sec-items li')].map(li => li.textContent),
    title: s.querySelector('.sec-title').textContent}))"""


def compare_sections(page, server):
    body = request_text(page, "sections")
    status, _, state = server.post("/v1/sections/toggle", body)
    require(status == 200, f"sections: the API answered {status} to the page's request")
    shown = page.evaluate(SECTIONS_DOM)
    expected = [{"id": s["id"], "expanded": s["expanded"], "disabled": s["headerDisabled"], "icon": s["icon"],
                 "divider": s["showDivider"], "items": [str(i) for i in s["items"]], "title": str(s["id"])}
                for s in state["sections"]]
    require(shown == expected, f"sections: page shows {shown}, the API says {expected}")
    return json.loads(body), state


def sections_panel(page, server):
    require(page.evaluate("document.getElementById('sections').dataset.state") == "ok", "sections: panel not ok")
    request, state = compare_sections(page, server)
    require(state["expanded"] == ["食べ物", "飲み物"], f"sections: the seed's example answered {state['expanded']}")

    # Click the 食べ物 header: it closes, its items go, the chevron turns down and the divider shows.
    before = answers(page, "sections")
    page.click("#sections .sec[data-id='\"食べ物\"'] .sec-header")
    settled(page, "sections", before)
    request, state = compare_sections(page, server)
    require(request["toggle"] == "食べ物" and request["expanded"] == ["食べ物", "飲み物"],
            f"sections: the click sent toggle {request.get('toggle')!r} with expanded {request.get('expanded')}")
    food = page.evaluate(SECTIONS_DOM)[0]
    require(food == {"id": "食べ物", "expanded": False, "disabled": False, "icon": "chevron.down", "divider": True,
                   "items": [], "title": "食べ物"}, f"sections: 食べ物 after the click: {food}")

    # Single mode that can't be collapsed: the open header is aria-disabled.
    set_control(page, "sections", "mode", "single", "change")
    compare_sections(page, server)
    set_control(page, "sections", "collapsible", False, "change")
    request, state = compare_sections(page, server)
    require(request["mode"] == "single" and request["collapsible"] is False, "sections: mode controls not sent")
    require(any(s["headerDisabled"] for s in state["sections"]), "sections: no disabled header in single, non-collapsible mode")

    # Back to multiple mode: expand all, then collapse all, sent as actions.
    set_control(page, "sections", "mode", "multiple", "change")
    for action, expected in (("expandAll", ["食べ物", "飲み物"]), ("collapseAll", [])):
        before = answers(page, "sections")
        page.click(f"#sections [data-action='{action}']")
        settled(page, "sections", before)
        request, state = compare_sections(page, server)
        require(request["actions"] == [{"type": action}] and state["expanded"] == expected, f"sections: {action} gave {state['expanded']}")


def whole_screen(page, server):
    """The whole-screen button: every panel's request one by one and as one batch, whose entries answer as they did."""
    shown = shown_panels(page)
    page.click("#whole-screen-send")
    page.wait("document.querySelector('#whole-screen table') !== null", timeout=15, what="the whole screen's timings")
    rows = page.evaluate("""[...document.querySelectorAll('#whole-screen tr[data-panel]')].map(tr =>
        [...tr.children].map(td => td.textContent))""")
    require([row[0] for row in rows] == [panel["id"] for panel in shown], f"whole screen: rows {rows}, panels {shown}")
    for name, single_ms, single_status, batched in rows:
        require(single_ms.endswith(" ms") and single_status == batched,
                f"whole screen: {name} answered {single_status} alone but {batched} in the batch")
    summary = page.evaluate("document.querySelector('#whole-screen .status').textContent")
    require(f"{len(shown)} single calls" in summary and "one batch:" in summary
            and page.evaluate("document.querySelector('#whole-screen .status').dataset.state") == "ok",
            f"whole screen: {summary!r}")
    status, _, batch = server.post(BATCH_PATH, json.dumps({"requests": [
        {"path": panel["endpoints"][0], "body": json.loads(request_text(page, panel["id"]))} for panel in shown]}))
    require(status == 200 and [str(e["status"]) for e in batch["responses"]] == [row[2] for row in rows],
            f"whole screen: the API answers the batch {status} {[e['status'] for e in batch.get('responses', [])]}")
    return rows


COMPUTED_X = "new DOMMatrixReadOnly(getComputedStyle(document.querySelector({})).transform).m41"


def computed_x(page, selector):
    return page.evaluate(COMPUTED_X.format(json.dumps(selector)))


def wait_panel_at(page, x):
    """The page's fallback timer may end "animating" before a starved compositor has run the transition to its end:
    waits (up to 10 s) for the panel to come to rest at x; the caller's check reports where it stopped otherwise."""
    try:
        page.wait(f"Math.abs({COMPUTED_X.format(json.dumps('#drawer .dpanel'))} - ({x})) <= 0.05", timeout=10,
                  what="the drawer panel to come to rest")
    except driver.BrowserError:
        pass


def wait_drawer_still(page):
    page.wait("!document.getElementById('drawer').dataset.animating", timeout=10, what="the drawer's transition to end")


def drawer_panel(page, server):
    require(page.evaluate("document.getElementById('drawer').dataset.state") == "ok", "drawer: panel not ok")
    wait_drawer_still(page)
    example = page.evaluate("drawer.options.example")
    status, _, state = server.post("/v1/drawer/state", example)
    require(status == 200 and state["isPresented"] and state.get("transition"), f"drawer: the example answered {status} {state}")
    transition = state["transition"]
    frame = state["panel"]["frame"]
    wait_panel_at(page, transition["panel"]["toX"])
    shown = page.evaluate("""(() => { const p = document.querySelector('#drawer .dpanel'), m = document.querySelector('#drawer .mask');
        const ps = getComputedStyle(p), ms = getComputedStyle(m);
        return {timing: ps.transitionTimingFunction, duration: ps.transitionDuration, width: p.offsetWidth, height: p.offsetHeight,
                top: p.offsetTop, opacity: Number(ms.opacity), maskTiming: ms.transitionTimingFunction,
                presented: document.getElementById('drawer').dataset.presented,
                keyframes: Number(document.querySelector('#drawer .spring-plot').dataset.keyframes),
                points: document.querySelector('#drawer .spring-curve').getAttribute('points').trim().split(/\\s+/).length}; })()""")
    require(near(computed_x(page, "#drawer .dpanel"), transition["panel"]["toX"]) and near(transition["panel"]["toX"], frame["x"]),
            f"drawer: panel at x {computed_x(page, '#drawer .dpanel')}, the API says {frame['x']}")
    require(near(shown["width"], frame["width"], 1) and near(shown["height"], frame["height"], 1) and near(shown["top"], frame["y"], 1),
            f"drawer: panel drawn {shown}, frame {frame}")
    require(shown["timing"].startswith("linear(") and shown["maskTiming"].startswith("linear("),
            f"drawer: the transition does not use the linear() easing: {shown['timing'][:60]}")
    duration_ms = float(transition["css"]["duration"].removesuffix("ms"))
    require(near(float(shown["duration"].removesuffix("s")) * 1000, duration_ms, 0.5), f"drawer: duration {shown['duration']} vs {duration_ms} ms")
    require(near(shown["opacity"], state["mask"]["opacity"], 0.001), f"drawer: mask opacity {shown['opacity']}")
    require(shown["presented"] == "true", "drawer: not presented")
    require(shown["keyframes"] == len(transition["keyframes"]) == shown["points"], f"drawer: plot has {shown['points']} points, {len(transition['keyframes'])} keyframes")
    require(json.loads(request_text(page, "drawer"))["isPresented"] is True, "drawer: the editor did not keep the new state")

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
    require(not state["isPresented"] and page.evaluate("document.getElementById('drawer').dataset.presented") == "false",
            "drawer: tapping the mask did not close it")
    wait_panel_at(page, state["panel"]["frame"]["x"])
    require(near(computed_x(page, "#drawer .dpanel"), state["panel"]["frame"]["x"]),
            f"drawer: closed panel at {computed_x(page, '#drawer .dpanel')}, the API says {state['panel']['frame']['x']}")
    require(page.evaluate("getComputedStyle(document.querySelector('#drawer .mask')).opacity") == "0", "drawer: mask still shown")

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
        require(bodies and "from" in bodies[-1], f"drawer: a toggle mid-animation sent {bodies[-1] if bodies else 'nothing'}")
        moving = bodies[-1]["from"]
        require(-frame["width"] <= moving["x"] <= frame["x"] + frame["width"], f"drawer: from.x {moving['x']} outside the travel")
        # The transition keeps its full travel (fromX → toX); the first keyframe and the easing's first
        # stop put the panel where it was: x = fromX + p(0) · (toX − fromX).
        transition = page.evaluate("drawerStage.lastTransition")
        start = transition["keyframes"][0]["progress"]
        travel = transition["panel"]["toX"] - transition["panel"]["fromX"]
        require(near(transition["panel"]["fromX"] + start * travel, moving["x"], 0.01),
              f"drawer: the retargeted transition starts at progress {start}, not at x {moving['x']}")
        first_stop = float(transition["css"]["easing"].removeprefix("linear(").split(",")[0].split()[0])
        require(near(first_stop, start, 1e-3), f"drawer: the easing starts at {first_stop}, the keyframes at {start}")
    else:
        print("     (drawer: the machine was too slow to toggle mid-animation; `from` not checked this run)")
    wait_drawer_still(page)

    # The trailing edge: re-rendered without an action, the panel sits where the API puts it.
    set_control(page, "drawer", "edge", "trailing", "change")
    wait_drawer_still(page)
    sent = json.loads(request_text(page, "drawer"))
    render_only = {key: value for key, value in sent.items() if key not in ("action", "from")}
    _, _, state = server.post("/v1/drawer/state", render_only)
    require(sent["edge"] == "trailing" and "transition" not in state, f"drawer: edge control sent {sent.get('edge')!r}")
    wait_panel_at(page, state["panel"]["frame"]["x"])
    require(near(computed_x(page, "#drawer .dpanel"), state["panel"]["frame"]["x"]),
            f"drawer: trailing panel at {computed_x(page, '#drawer .dpanel')}, the API says {state['panel']['frame']['x']}")


def problems(page, server):
    """A 422 shows title, detail and every pointer, highlighted in the request; a 400 too; Reset recovers."""
    bad = '{"sections": [{"id": "a"}, {"id": "a"}, {"id": "b", "items": 3}],\n "expanded": ["zz"], "toggle": "a", "mode": "both"}'
    status, headers, problem = server.post("/v1/sections/toggle", bad)
    require(status == 422, f"problems: the API answered {status}")
    result = set_request(page, "sections", bad)
    require(result["state"] == "problem", f"problems: the panel state is {result['state']}")
    box = problem_box(page, "sections")
    pointers = [error["pointer"] for error in problem["errors"]]
    require(not box["hidden"] and "422" in box["text"] and problem["detail"] in box["text"], f"problems: box {box['text']!r}")
    require(box["pointers"] == pointers, f"problems: pointers listed {box['pointers']}, the API's {pointers}")
    require(set(box["marked"]) == set(pointers), f"problems: highlighted {box['marked']}, expected {pointers}")
    for error in problem["errors"]:
        require(error["detail"] in box["text"], f"problems: {error['detail']!r} not shown")
    require(page.evaluate("document.querySelector('#sections .view').classList.contains('stale')"), "problems: old rendering not marked stale")

    result = set_request(page, "sections", '{"sections": [')
    box = problem_box(page, "sections")
    require(result["state"] == "problem" and "400" in box["text"], f"problems: malformed JSON shows {box['text']!r}")

    before = answers(page, "sections")
    page.click("#sections .side .small-button:not(.primary)")  # Reset
    require(settled(page, "sections", before)["state"] == "ok", "problems: Reset did not bring the example back")
    require(problem_box(page, "sections")["hidden"], "problems: the problem box stayed after a good answer")

    bad_flow = '{"containerWidth": -1, "items": [{"width": 10, "height": 10}, {"width": "wide", "height": 1}]}'
    status, _, problem = server.post("/v1/flow/layout", bad_flow)
    set_request(page, "flow", bad_flow)
    box = problem_box(page, "flow")
    pointers = [error["pointer"] for error in problem.get("errors", [])]
    require(status == 422 and box["pointers"] == pointers and set(box["marked"]) == set(pointers),
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


def cors_probe(browser, site, allowing):
    allowed = probe(browser, f"http://127.0.0.1:{site.port}/cors-probe.html?api={allowing.base}")
    require(allowed["get"]["ok"] and allowed["get"]["status"] == 200 and allowed["get"]["body"] == {"status": "ok"},
            f"cors: GET from an allowed origin: {allowed['get']}")
    require(allowed["get"]["requestId"], "cors: X-Request-Id is not exposed to the page")
    require(allowed["post"]["ok"] and allowed["post"]["body"]["expanded"] == ["a", "b"],
            f"cors: preflighted POST from an allowed origin: {allowed['post']}")

    refused = probe(browser, f"http://localhost:{site.port}/cors-probe.html?api={allowing.base}")
    require(not refused["get"]["ok"] and "TypeError" in refused["get"]["error"], f"cors: GET from a disallowed origin got {refused['get']}")
    require(not refused["post"]["ok"] and "TypeError" in refused["post"]["error"], f"cors: POST from a disallowed origin got {refused['post']}")
    # The refusal is CORS's, not a dead server: the same requests without a browser are answered.
    status, _, _ = allowing.get("/healthz")
    require(status == 200, "cors: the restricted server is not up")
    status, headers, _ = allowing.post("/v1/sections/toggle", {"sections": []}, origin=f"http://localhost:{site.port}")
    require(status == 200 and "Access-Control-Allow-Origin" not in headers, f"cors: disallowed origin got {headers}")


def playground_elsewhere(browser, site, open_server, allowing):
    """The playground itself, served from another origin, against the API given in ?api=."""
    page = browser.page()
    page.navigate(f"http://127.0.0.1:{site.port}/playground.html?api={open_server.base}")
    page.wait("document.getElementById('api-status').dataset.state === 'ok'", what="GET / to answer")
    for panel in shown_panels(page):
        result = settled(page, panel["id"])
        require(result["state"] == "ok", f"elsewhere: {panel['id']} is {result['state']} from another origin (--cors-origins *)")
    compare_sections(page, open_server)
    require(not page.exceptions, f"elsewhere: uncaught exceptions {page.exceptions}")

    page = browser.page()
    page.navigate(f"http://127.0.0.1:{site.port}/playground.html?api={allowing.base}")
    require(settled(page, "sections")["state"] == "ok", "elsewhere: sections failed from an allowed origin")
    compare_sections(page, allowing)

    page = browser.page()
    page.navigate(f"http://localhost:{site.port}/playground.html?api={allowing.base}")
    # Without the index every panel is shown and sent, and says what went wrong.
    panels = page_panels(page)
    require(not any(panel["hidden"] for panel in panels), f"elsewhere: panels hidden without the index: {panels}")
    for panel in [panel["id"] for panel in panels]:
        result = settled(page, panel)
        box = problem_box(page, panel)
        require(result["state"] == "network-error" and "--cors-origins" in box["text"],
              f"elsewhere: {panel} from a disallowed origin shows {result['state']}: {box['text']!r}")
    page.wait("document.getElementById('api-status').dataset.state === 'error'", what="the API status to report the failure")


# -------------------------------------------------------------------------------------------------

def served(server):
    status, headers, body = server.get("/playground")
    require(status == 200 and headers.get("Content-Type") == "text/html; charset=utf-8", f"GET /playground: {status} {headers}")
    require(body == PAGE_FILE.read_bytes(), "GET /playground is not the page in Sources/TrellisAPI/Resources")
    _, _, index = server.get("/")
    index = json.loads(index)
    require(index.get("playground") == "/playground" and {"method": "GET", "path": "/playground"} in index["endpoints"],
            f"GET / does not link the playground: {index}")


def same_origin_load(page, server):
    require(page.evaluate("document.getElementById('api-base').value") == server.base, "the API base URL is not the page's origin")
    # Every call goes through the JavaScript client, imported from the service (the policy allows 'self').
    loaded = [url for method, url, _ in page.requests if method == "GET" and url.endswith("/clients/trellis.mjs")]
    require(loaded == [f"{server.base}/clients/trellis.mjs"], f"the client module was loaded from {loaded}")
    require(page.evaluate("api.client && api.client.baseUrl") == server.base, "the panels do not call through the client")


def served_client(server):
    status, headers, body = server.get("/clients/trellis.mjs")
    require(status == 200 and headers.get("Content-Type") == "text/javascript; charset=utf-8", f"GET /clients/trellis.mjs: {status} {headers}")
    require(body == CLIENT_FILE.read_bytes(), "GET /clients/trellis.mjs is not clients/js/trellis.mjs")


def served_elsewhere(browser, page_server, api_server):
    """The playground served by one Trellis, given another one as its base URL (?api=): its policy
    (connect-src 'self') refuses the calls, and each panel says so and where to go instead."""
    page = browser.page()
    page.navigate(f"{page_server.base}/playground?api={api_server.base}")
    for panel in [panel["id"] for panel in page_panels(page)]:
        result = settled(page, panel)
        box = problem_box(page, panel)
        require(result["state"] == "network-error" and "connect-src 'self'" in box["text"]
              and f"{api_server.base}/playground" in box["text"],
              f"served elsewhere: {panel} shows {result['state']}: {box['text']!r}")
    loaded = [url for method, url, _ in page.requests if method == "GET" and url.endswith("/clients/trellis.mjs")]
    require(loaded == [f"{page_server.base}/clients/trellis.mjs"], f"served elsewhere: the client module came from {loaded}")
    posts = [url for method, url, _ in page.requests if method == "POST"]
    require(not posts, f"served elsewhere: the policy let POSTs through to {posts}")
    # Chromium logs each refusal as an error of the page: they are the proof, and the only ones allowed.
    refusals = [e for e in page.exceptions if "violates the document's Content Security Policy" in e]
    others = [e for e in page.exceptions if e not in refusals]
    require(refusals and all(api_server.base in e and "Refused to connect" in e for e in refusals) and not others,
            f"served elsewhere: the refusals {refusals}, other exceptions {others}")


def nothing_else_loaded(page, server):
    """Offline: every request went to the service itself (no CDN, no fonts, no favicon elsewhere)."""
    foreign = [url for _, url, _ in page.requests if not url.startswith(server.base + "/") and not url.startswith("data:")]
    require(not foreign, f"the page fetched from elsewhere: {foreign}")
    require(not page.exceptions, f"uncaught exceptions in the page: {page.exceptions}")
    require(not page.console_errors, f"console errors: {page.console_errors}")


def registry(page, server, tested):
    """Every feature of the registry has exactly one panel, every panel a test; an index that differs hides
    the panels it lacks and names the features no panel calls."""
    panels = page_panels(page)
    called = [path for panel in panels for path in panel["endpoints"]]
    listed = features(server)
    require(sorted(called) == sorted(listed), f"registry: the panels call {called}, GET / lists the features {listed}")
    require(not any(panel["hidden"] for panel in panels), f"registry: panels hidden: {panels}")
    require(page.evaluate("document.getElementById('registry').hidden"), "registry: the page says something is missing")
    nav = page.evaluate("[...document.querySelectorAll('#panel-nav a[href^=\"#\"]')].map(a => [a.hash.slice(1), a.textContent])")
    require(nav == [[panel["id"], panel["title"]] for panel in panels], f"registry: the links {nav}, the panels {panels}")
    untested = [panel["id"] for panel in panels if panel["id"] not in tested]
    require(not untested, f"registry: panels without a test_<panel>_panel here: {untested}")

    # An older service without the last panel's feature, and one more feature than the page knows.
    gone = panels[-1]
    index = server.index()
    index["endpoints"] = [e for e in index["endpoints"] if e["path"] != gone["endpoints"][0]]
    index["endpoints"].append({"method": "POST", "path": "/v1/new/feature"})
    page.evaluate(f"applyIndex({json.dumps(index)})")
    shown = shown_panels(page)
    note = page.evaluate("(r => ({hidden: r.hidden, text: r.textContent}))(document.getElementById('registry'))")
    require([panel["id"] for panel in shown] == [panel["id"] for panel in panels[:-1]], f"registry: shown {shown} without {gone}")
    require(not note["hidden"] and f"{gone['title']} is hidden" in note["text"] and "POST /v1/new/feature" in note["text"],
            f"registry: the note says {note}")
    rows = whole_screen(page, server)
    require(len(rows) == len(panels) - 1, f"registry: the whole screen sent {rows}")


class Fixtures:
    """The servers, the other origin and the browser every test shares."""

    def __init__(self):
        self.servers, self.browser, self.site = [], None, None
        self.folder = tempfile.mkdtemp(prefix="trellis-origin-")
        try:
            shutil.copy(PAGE_FILE, pathlib.Path(self.folder) / "playground.html")
            shutil.copy(PROBE_FILE, pathlib.Path(self.folder) / "cors-probe.html")
            self.site = driver.StaticSite(self.folder)
            self.open_server = self.server()  # --cors-origins * (the default)
            self.allowing = self.server("--cors-origins", f"http://127.0.0.1:{self.site.port}")
            self.browser = driver.Browser(OPTIONS.chromium, OPTIONS.chromedriver)
            self.page = self.browser.page()
        except BaseException:
            self.close()
            raise

    def server(self, *arguments):
        server = Trellis(OPTIONS.binary, "--threads", 2, *arguments)
        self.servers.append(server)
        return server

    def close(self):
        if self.browser:
            self.browser.close()
        for server in self.servers:
            server.stop()
        if self.site:
            self.site.stop()
        shutil.rmtree(self.folder, ignore_errors=True)


FIXTURES = None


def setUpModule():
    global FIXTURES
    FIXTURES = Fixtures()


def tearDownModule():
    if FIXTURES:
        FIXTURES.close()


class Timed(unittest.TestCase):
    """Each test within --timeout seconds (every wait in it has its own deadline too)."""

    def setUp(self):
        def out_of_time(*_):
            raise TimeoutError(f"{self.id()} ran longer than {OPTIONS.timeout} s")
        signal.signal(signal.SIGALRM, out_of_time)
        signal.alarm(OPTIONS.timeout)
        self.addCleanup(signal.alarm, 0)


class Served(Timed):
    def test_the_page_is_served_and_the_index_links_it(self):
        served(FIXTURES.open_server)

    def test_the_javascript_client_is_served(self):
        served_client(FIXTURES.open_server)


class Playground(Timed):
    """Each test on the playground loaded afresh from the service (same origin); afterwards the page must have
    fetched nothing but the service and thrown nothing."""

    def setUp(self):
        super().setUp()
        self.page, self.server = FIXTURES.page, FIXTURES.open_server
        load_playground(self.page, self.server)

    def tearDown(self):
        nothing_else_loaded(self.page, self.server)

    def test_every_feature_of_the_registry_has_one_panel_with_a_test(self):
        tested = [name.removeprefix("test_").removesuffix("_panel") for name in dir(self)
                  if name.startswith("test_") and name.endswith("_panel")]
        registry(self.page, self.server, tested)

    def test_the_panels_call_through_the_client(self):
        same_origin_load(self.page, self.server)

    def test_outline_panel(self):
        outline_panel(self.page, self.server)

    def test_flow_panel(self):
        flow_panel(self.page, self.server)

    def test_measure_panel(self):
        measure_panel(self.page, self.server)

    def test_text_panel(self):
        text_panel(self.page, self.server)

    def test_text_in_a_dropped_font(self):
        text_in_a_dropped_font(self.page, self.server)

    def test_list_panel(self):
        list_panel(self.page, self.server)

    def test_sections_panel(self):
        sections_panel(self.page, self.server)

    def test_drawer_panel(self):
        drawer_panel(self.page, self.server)

    def test_whole_screen_sends_every_panel_as_one_batch(self):
        whole_screen(self.page, self.server)

    def test_problems_show_their_pointers(self):
        problems(self.page, self.server)


class OtherOrigins(Timed):
    def test_cors_allowed_origin_succeeds_disallowed_fails(self):
        cors_probe(FIXTURES.browser, FIXTURES.site, FIXTURES.allowing)

    def test_the_playground_from_another_origin(self):
        playground_elsewhere(FIXTURES.browser, FIXTURES.site, FIXTURES.open_server, FIXTURES.allowing)

    def test_the_served_playground_calls_only_its_own_origin(self):
        served_elsewhere(FIXTURES.browser, FIXTURES.allowing, FIXTURES.open_server)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], add_help=False)
    parser.add_argument("--binary", default=DEBUG_BINARY)
    parser.add_argument("--chromium", default=None)
    parser.add_argument("--chromedriver", default=None)
    parser.add_argument("--timeout", type=int, default=120, help="seconds for each test")
    args, rest = parser.parse_known_args()
    vars(OPTIONS).update(vars(args))
    result = unittest.main(argv=[sys.argv[0], *rest], verbosity=2, exit=False).result
    if result.skipped:
        print(f"browser-test: {len(result.skipped)} skipped: a skipped test fails the run")
    return 0 if result.wasSuccessful() and not result.skipped else 1


if __name__ == "__main__":
    sys.exit(main())
