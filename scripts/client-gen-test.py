#!/usr/bin/env python3
"""make client-gen-test: a Python client generated from openapi.yaml by a generator nobody here
wrote (openapi-python-client, pinned in the Makefile), then used against a live server.

    scripts/client-gen-test.py --binary .build/release/trellis [--out .build/client-gen]

1. `openapi-python-client generate` into OUT/trellis_client. Its one allowed warning is the one for
   GET /openapi.yaml, whose `application/yaml` body (RFC 9512) the generator does not know; any
   other warning or error fails.
2. No generated model may be a numbered duplicate (`...Type1`, `...Type2Type1`): every enum, object
   and oneOf variant is a named schema, and nullable members are `anyOf: [$ref, null]`.
3. The binary runs on an ephemeral loopback port, and every operation is called through the
   generated client: the examples of openapi.yaml, null given for optional members, and a 422
   read as the ValidationProblem model.
"""

from __future__ import annotations

import argparse
import importlib
import hashlib
import io
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the work tree (the generated client's is under .build)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from trellis_harness import Trellis, fatal, ok  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGE = "trellis_client"
# The one warning the generator gives for openapi.yaml: the YAML body of GET /openapi.yaml.
ALLOWED_HEADER = "WARNING parsing GET /openapi.yaml within service."
ALLOWED_DETAIL = re.compile(
    r"^Cannot parse response for status code .* \(Unsupported content_type application/yaml\), "
    r"response will be omitted from generated client$")
BANNER = "Warning(s) encountered while generating. Client was generated, but some pieces may be missing"
FOOTER = "If you believe this was a mistake or this tool is missing a feature you need"
NUMBERED = re.compile(r"Type\d+")


# -- 1. generate --


def generate(out: pathlib.Path) -> pathlib.Path:
    package_dir = out / PACKAGE
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    env = dict(os.environ, NO_COLOR="1", TERM="dumb")
    result = subprocess.run(
        [sys.executable, "-m", "openapi_python_client", "generate", "--path", str(ROOT / "openapi.yaml"),
         "--output-path", str(package_dir), "--meta", "none"],
        capture_output=True, text=True, env=env, timeout=120)
    if result.returncode != 0:
        fatal(f"openapi-python-client exited {result.returncode}:\n{result.stdout}\n{result.stderr}")
    check_warnings(result.stderr)
    return package_dir


def check_warnings(stderr: str) -> None:
    """The generator prints each problem as a header, a detail and the offending part as JSON."""
    lines = [line for line in stderr.splitlines() if line.strip()]
    if lines and lines[0] == BANNER:
        lines = lines[1:]
    if lines and lines[-1].startswith(FOOTER):
        lines = lines[:-1]
    if not lines:
        fatal("no warning for GET /openapi.yaml; if the generator learned application/yaml, drop the filter")
    if lines[0] != ALLOWED_HEADER or len(lines) < 3 or not ALLOWED_DETAIL.match(lines[1]):
        fatal(f"unexpected generator output:\n{stderr}")
    try:
        part = json.loads("\n".join(lines[2:]))
    except json.JSONDecodeError:
        fatal(f"more than the one allowed warning:\n{stderr}")
    if list(part.get("content", {})) != ["application/yaml"]:
        fatal(f"the allowed warning is about something else:\n{stderr}")
    ok("generated with no warning but the one for /openapi.yaml's application/yaml body")


# -- 2. names --


def check_names(package_dir: pathlib.Path) -> None:
    models = importlib.import_module(f"{PACKAGE}.models")
    names = list(models.__all__)
    numbered = [name for name in names if NUMBERED.search(name)]
    files = [p.name for p in (package_dir / "models").glob("*.py") if re.search(r"_type_\d+", p.name)]
    if numbered or files:
        fatal(f"numbered duplicate models: {numbered + files}")
    ok(f"{len(names)} models, none a numbered duplicate")


# -- 3. calls --


def expect(condition: bool, what: str, got=None) -> None:
    if not condition:
        fatal(f"{what}" + (f": got {got!r}" if got is not None else ""))


OUTLINE_TREE = [
    {"id": "root", "title": "Root", "children": [
        {"id": "docs", "children": [{"id": "readme"}, {"id": "guides", "children": [{"id": "intro"}]}]},
        {"id": "src", "children": [{"id": "main"}]}]},
    {"id": "other"},
]
CHIPS = [("swift", 62), ("swiftui", 84), ("uikit", 66), ("xcode", 68), ("apple", 66), ("ios", 50), ("ipad", 56)]


def call_everything(base: str, package_dir: pathlib.Path) -> None:
    from trellis_client import Client
    from trellis_client.api.batch import batch
    from trellis_client.api.drawer import drawer_state
    from trellis_client.api.flow import flow_layout
    from trellis_client.api.outline import outline_expansion, outline_rows
    from trellis_client.api.sections import sections_toggle
    from trellis_client.api.text import fonts, text_layout, text_measure
    from trellis_client.api.fonts import font_metadata, font_stored, store_font, upload_font
    from trellis_client.types import File
    from trellis_client.api.list_ import list_layout
    from trellis_client.api.service import (healthz, index, javascript_client, metrics, openapi_document,
                                            playground, readyz)
    from trellis_client import models as m

    client = Client(base_url=base, timeout=30.0, raise_on_unexpected_status=True)
    called = set()

    def done(module) -> None:
        called.add(module.__name__.rsplit(".", 1)[1])

    # -- service --
    got = index.sync(client=client)
    expect(isinstance(got, m.ServiceIndex) and got.service == "trellis", "GET / is the ServiceIndex", got)
    posts = [e.path for e in got.endpoints if e.method == m.HTTPMethod.POST]
    expect(posts[-1] == "/v1/fonts" and "/v1/fonts/{id}" in [e.path for e in got.endpoints if e.method == m.HTTPMethod.PUT],
           "the index lists the font uploads", got.endpoints)
    posts = posts[:-1]
    expect(posts == ["/v1/outline/expansion", "/v1/outline/rows", "/v1/flow/layout", "/v1/sections/toggle",
                     "/v1/drawer/state", "/v1/text/measure", "/v1/text/layout", "/v1/list/layout", "/v1/batch"], "the index lists the POST paths", posts)
    done(index)
    got = healthz.sync(client=client)
    expect(isinstance(got, m.HealthStatus) and got.status == "ok", "GET /healthz", got)
    done(healthz)
    got = readyz.sync(client=client)
    expect(isinstance(got, m.ReadinessStatus) and got.status == "ready", "GET /readyz", got)
    done(readyz)
    got = metrics.sync(client=client)
    expect(isinstance(got, str) and "trellis_requests_total" in got, "GET /metrics is the exposition text")
    done(metrics)
    # The generator omits the YAML body's 200, so it is an unexpected status; the response has the bytes.
    response = openapi_document.sync_detailed(client=Client(base_url=base, timeout=30.0))
    expect(response.status_code == 200 and response.content == (ROOT / "openapi.yaml").read_bytes(),
           "GET /openapi.yaml answers openapi.yaml's bytes", response.status_code)
    done(openapi_document)
    got = playground.sync(client=client)
    expect(isinstance(got, str) and "<html" in got.lower(), "GET /playground is the page")
    done(playground)
    got = javascript_client.sync(client=client)
    expect(isinstance(got, str) and "createClient" in got, "GET /clients/trellis.mjs is the module")
    done(javascript_client)
    ok("the service operations")

    # -- outline --
    nodes = [m.OutlineNode.from_dict(node) for node in OUTLINE_TREE]
    got = outline_expansion.sync(client=client, body=m.OutlineExpansionRequest(nodes=nodes, selection="readme"))
    expect(isinstance(got, m.OutlineExpansionResponse) and got.expand == ["root", "docs"]
           and got.paths[0].path == ["root", "docs", "readme"] and got.paths[0].found, "outlineExpansion", got)
    done(outline_expansion)
    # Null for optional members counts as absent.
    request = m.OutlineRowsRequest(nodes=nodes, selection="readme", offset=1, limit=3, id_key=None,
                                   parent_key=None, expanded=None, include_no_selection=None)
    got = outline_rows.sync(client=client, body=request)
    expect(isinstance(got, m.OutlineRowsResponse) and [row.id for row in got.rows] == ["docs", "readme", "guides"]
           and got.total_rows == 6 and got.selected_row == 2 and got.no_selection.selected is False,
           "outlineRows", got)
    expect(got.rows[0].parent == "root", "outlineRows: a row's parent", got.rows[0].parent)
    done(outline_rows)

    # -- flow --
    items = [m.FlowItem(id=name, width=width, height=36, break_before=None) for name, width in CHIPS]
    got = flow_layout.sync(client=client, body=m.FlowLayoutRequest(
        container_width=300, items=items, horizontal_spacing=4, vertical_spacing=4))
    expect(isinstance(got, m.FlowLayoutResponse) and [row.count for row in got.rows] == [3, 4]
           and got.size.height == 88 and got.items[1].x == 74, "flowLayout: the seed's chips", got)
    got = flow_layout.sync(client=client, body=m.FlowLayoutRequest(
        container_width=300, items=items, alignment=m.FlowAlignment.CENTER, row_alignment=None,
        direction=m.FlowDirection.RTL, line_breaking=m.FlowLineBreaking.BALANCED, max_rows=None,
        overflow_indicator=None, pixel_scale=None))
    expect(isinstance(got, m.FlowLayoutResponse) and len(got.items) == len(CHIPS), "flowLayout: enums and nulls", got)
    # A 422 comes back as the ValidationProblem model, each problem with its pointer.
    got = flow_layout.sync(client=client, body=m.FlowLayoutRequest(container_width=-1, items=items))
    expect(isinstance(got, m.ValidationProblem) and got.status == 422
           and [e.pointer for e in got.errors] == ["/containerWidth"], "flowLayout: the 422's problem", got)
    done(flow_layout)

    # -- sections --
    got = sections_toggle.sync(client=client, body=m.SectionsToggleRequest(
        sections=[m.SectionsSection(id=1, items=["a"]), m.SectionsSection(id=2, items=["b", "c"])],
        mode=m.SectionsMode.SINGLE, collapsible=False, expanded=[1], toggle=None,
        actions=[m.SectionsAllAction(type_=m.SectionsAllActionType.COLLAPSE_ALL),
                 m.SectionsSectionAction(type_=m.SectionsSectionActionType.EXPAND, section=2)]))
    expect(isinstance(got, m.SectionsToggleResponse) and got.expanded == [2] and got.changed == [1, 2]
           and [s.icon for s in got.sections] == [m.SectionsIcon.CHEVRON_DOWN, m.SectionsIcon.CHEVRON_UP]
           and got.sections[1].header_disabled, "sectionsToggle: the accordion example", got)
    got = sections_toggle.sync(client=client, body=m.SectionsToggleRequest(
        sections=[m.SectionsSection(id="a")], toggle="missing"))
    expect(isinstance(got, m.ValidationProblem) and [e.pointer for e in got.errors] == ["/toggle"],
           "sectionsToggle: an unknown id is a 422", got)
    done(sections_toggle)

    # -- drawer --
    got = drawer_state.sync(client=client, body=m.DrawerStateRequest(
        is_presented=False, action=m.DrawerAction.TOGGLE, container=m.DrawerContainer(width=390, height=844),
        drawer_width=200, edge=m.DrawerEdge.LEADING, layout_direction=m.DrawerLayoutDirection.LTR,
        safe_area_insets=m.DrawerSafeAreaInsets(top=47, leading=0, bottom=34, trailing=None),
        mask_opacity=0.2, spring=m.DrawerSpringResponse(response=0.55, damping_fraction=0.825),
        frame_rate=60, from_=None))
    expect(isinstance(got, m.DrawerStateResponse) and got.is_presented and got.changed
           and got.panel.content_frame.height == 763 and got.transition.css.duration == "758ms"
           and len(got.transition.keyframes) == 47, "drawerState: the seed's example", got)
    got = drawer_state.sync(client=client, body=m.DrawerStateRequest(
        container=m.DrawerContainer(width=390, height=844), is_presented=True, action=m.DrawerAction.TAP_MASK,
        edge=m.DrawerEdge.TRAILING, layout_direction=m.DrawerLayoutDirection.RTL, safe_area_insets=None,
        spring=m.DrawerSpringDuration(duration=0.5, bounce=0.2)))
    expect(isinstance(got, m.DrawerStateResponse) and not got.is_presented and got.panel.frame.x == -200
           and abs(got.transition.spring.damping_fraction - 0.8) < 1e-12, "drawerState: tapMask, rtl, iOS 17 spring", got)
    done(drawer_state)

    # -- text --
    got = fonts.sync(client=client)
    expect(isinstance(got, m.FontsResponse) and any(f.family == "IPAGothic" and f.style == m.FontFaceStyle.NORMAL
                                                     for f in got.fonts), "fonts", got)
    done(fonts)
    got = text_measure.sync(client=client, body=m.TextMeasureRequest(
        font=m.TextFont(family="DejaVu Sans, IPAGothic", size=17, weight=None, style=m.TextFontStyle.NORMAL),
        texts=["Swift", "明太子パスタ"]))
    expect(isinstance(got, m.TextMeasureResponse) and got.font.line_height == 20 and got.texts[0].width == 41.78125,
           "textMeasure", got)
    got = text_measure.sync(client=client, body=m.TextMeasureRequest(
        font=m.TextFont(family="Helvetica", size=17), texts=["Swift"]))
    expect(isinstance(got, m.ValidationProblem) and [e.pointer for e in got.errors] == ["/font/family"],
           "textMeasure: the 422's problem", got)
    done(text_measure)
    got = text_layout.sync(client=client, body=m.TextLayoutRequest(
        font=m.TextFont(family="DejaVu Sans", size=16), texts=["Long labels must wrap, not overflow the chip."],
        width=160, max_lines=2, text_overflow=m.TextOverflow.ELLIPSIS))
    expect(isinstance(got, m.TextLayoutResponse) and [line.start for line in got.texts[0].lines] == [0, 17]
           and got.texts[0].ellipsis.end == 34 and got.texts[0].line_count == 3, "textLayout: a clamp with an ellipsis", got)
    done(text_layout)
    # -- list: a small chat at two widths, kept in place at its second message --
    bubble = {"top": 8, "bottom": 8, "leading": 12, "trailing": 12}
    got = list_layout.sync(client=client, body=m.ListLayoutRequest.from_dict({
        "font": {"family": "DejaVu Sans, Noto Color Emoji", "size": 15}, "widths": [280, 560], "gap": 8, "paragraphGap": 4,
        "rows": [{"key": "m1", "texts": ["Are we still on for lunch tomorrow? \U0001F35C"], "padding": bubble},
                 {"key": "m2", "texts": ["Yes! 12:30 at the usual place, I booked the table by the window."], "padding": bubble,
                  "extraHeight": 22},
                 {"key": "day", "texts": ["Tuesday"], "minHeight": 32},
                 {"key": "m3", "texts": [{"text": "Bringing the slides for the review too, they are long but the summary is on the "
                                                  "first page.", "maxLines": 2, "textOverflow": "ellipsis"}, "Sent from my phone"],
                  "padding": bubble}],
        "scroll": {"offset": 40, "viewportHeight": 80}, "anchor": {"key": "m2", "offset": 6}}))
    expect(isinstance(got, m.ListLayoutResponse) and got.layouts[0].heights == [52, 74, 32, 74]
           and got.layouts[0].offsets == [0, 60, 142, 182] and got.layouts[0].truncated == [False, False, False, True]
           and got.layouts[0].window.start == 1 and got.layouts[1].anchor.scroll_offset == 48, "listLayout: the chat", got)
    done(list_layout)
    # A flow of labels: the items' sizes are measured.
    labels = [m.FlowItem(id=name, text=name.capitalize()) for name, _ in CHIPS]
    got = flow_layout.sync(client=client, body=m.FlowLayoutRequest(
        container_width=300, items=labels, font=m.TextFont(family="sans-serif", size=17),
        label_padding=m.FlowLabelPadding(top=8, leading=16, bottom=8, trailing=16)))
    expect(isinstance(got, m.FlowLayoutResponse) and got.items[0].width == 41.78125 + 32 and got.items[0].height == 36,
           "flowLayout: labels", got)

    # -- fonts: an upload without and with its id, its metadata, a request in it --
    font = (ROOT / "Tests" / "TrellisAPITests" / "Fonts" / "Fixtures" / "inter-latin.woff2").read_bytes()
    font_id = "sha256-" + hashlib.sha256(font).hexdigest()
    got = font_stored.sync_detailed(font_id, client=client)
    expect(got.status_code == 404, "fontStored: not yet", got.status_code)
    done(font_stored)
    got = upload_font.sync(client=client, body=File(payload=io.BytesIO(font), mime_type="application/octet-stream"))
    expect(isinstance(got, m.FontMetadata) and got.id == font_id and got.format_ == m.FontMetadataFormat.WOFF2
           and [axis.tag for axis in got.faces[0].axes] == ["wght", "slnt"], "uploadFont: the metadata", got)
    done(upload_font)
    got = store_font.sync(font_id, client=client, body=File(payload=io.BytesIO(font), mime_type="application/octet-stream"))
    expect(isinstance(got, m.FontMetadata) and got.size == len(font), "storeFont: stored already", got)
    done(store_font)
    got = font_metadata.sync(font_id, client=client)
    expect(isinstance(got, m.FontMetadata) and got.faces[0].family == "Inter", "fontMetadata", got)
    done(font_metadata)
    expect(font_stored.sync_detailed(font_id, client=client).status_code == 200, "fontStored: now")
    got = text_measure.sync(client=client, body=m.TextMeasureRequest.from_dict({
        "font": {"family": "Inter", "size": 16, "weight": 450}, "texts": ["Swift"],
        "fontFaces": [{"family": "Inter", "src": font_id, "weight": "100 900"}]}))
    expect(isinstance(got, m.TextMeasureResponse) and got.texts[0].width > 30, "textMeasure in an uploaded font", got)

    # -- batch: mixed entries, each answered as alone (typed by its path), a 422 entry with its pointer --
    request = m.BatchRequest.from_dict({"requests": [
        {"path": "/v1/text/measure", "body": {"font": {"family": "DejaVu Sans, IPAGothic", "size": 17}, "texts": ["Swift"]}},
        {"path": "/v1/flow/layout", "body": {"containerWidth": -1, "items": [{"width": 10, "height": 10}]}},
        {"path": "/v1/sections/toggle", "body": {"sections": [{"id": "a"}, {"id": "b"}], "toggle": "b"}},
        {"path": "/v1/outline/rows", "body": {"nodes": OUTLINE_TREE, "selection": "readme", "offset": 1, "limit": 3}},
    ]})
    expect([type(entry.body).__name__ for entry in request.requests] == [
        "TextMeasureRequest", "FlowLayoutRequest", "SectionsToggleRequest", "OutlineRowsRequest"],
        "batch: each entry's body typed by its path", request.requests)
    got = batch.sync(client=client, body=request)
    expect(isinstance(got, m.BatchResponse) and [entry.status for entry in got.responses] == [200, 422, 200, 200],
           "batch: statuses in order", got)
    bodies = [entry.body for entry in got.responses]
    expect(isinstance(bodies[0], m.TextMeasureResponse) and bodies[0].texts[0].width == 41.78125,
           "batch: the text entry as alone", bodies[0])
    expect(isinstance(bodies[1], m.ValidationProblem) and [e.pointer for e in bodies[1].errors] == ["/containerWidth"],
           "batch: the flow entry's 422 points into its body", bodies[1])
    expect(isinstance(bodies[2], m.SectionsToggleResponse) and bodies[2].expanded == ["b"], "batch: the sections entry", bodies[2])
    expect(isinstance(bodies[3], m.OutlineRowsResponse) and [row.id for row in bodies[3].rows] == ["docs", "readme", "guides"],
           "batch: the rows entry", bodies[3])
    done(batch)

    generated = {p.stem for p in (package_dir / "api").glob("*/*.py") if p.stem != "__init__"}
    expect(called == generated, "every generated operation called", sorted(generated - called))
    ok(f"all {len(called)} operations through the generated client, a 422 read as ValidationProblem")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=str(ROOT / ".build/release/trellis"))
    parser.add_argument("--out", default=str(ROOT / ".build/client-gen"))
    args = parser.parse_args()
    if not os.access(args.binary, os.X_OK):
        fatal(f"{args.binary} is missing; build it first")
    out = pathlib.Path(args.out)
    package_dir = generate(out)
    sys.path.insert(0, str(out))
    check_names(package_dir)
    with Trellis(args.binary, "--threads", "2") as server:
        call_everything(server.base, package_dir)


if __name__ == "__main__":
    main()
