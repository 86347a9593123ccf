#!/usr/bin/env python3
"""`make docs-test`: the documents a user reads first stay true to each other and to the service.

- Every relative link in README.md, CONTRIBUTING.md, ARCHITECTURE.md, BENCHMARKS.md and docs/*.md leads to a
  file that exists, and every #anchor to a heading in it (GitHub's anchor rules).
- README.md stays what a newcomer reads first: at most 300 lines, and its endpoint table names every path
  openapi.yaml documents.
- README.md shows how to run the service, one test and the benchmarks.
"""
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
os.chdir(ROOT)
failures = []


def anchor(title):
    title = title.strip().lower()
    title = re.sub(r"[^\w\- ]", "", title)
    return title.replace(" ", "-")


files = ["README.md", "CONTRIBUTING.md", "ARCHITECTURE.md", "BENCHMARKS.md"] + sorted(glob.glob("docs/*.md"))
anchors = {}
for path in files:
    text = open(path).read()
    text = re.sub(r"(?ms)^```.*?^```", "", text)  # headings inside code blocks are not headings
    anchors[path] = {anchor(m.group(1)) for m in re.finditer(r"(?m)^#{1,6} (.+)$", text)}
for path in files:
    for m in re.finditer(r"\]\(([^)\s]+)\)", open(path).read()):
        target = m.group(1)
        if re.match(r"^(https?:|mailto:)", target):
            continue
        file, _, fragment = target.partition("#")
        resolved = os.path.normpath(os.path.join(os.path.dirname(path), file)) if file else path
        if not os.path.exists(resolved):
            failures.append(f"{path}: link to {target}: no such file")
        elif fragment and resolved.endswith(".md") and fragment not in anchors.get(resolved, set()):
            failures.append(f"{path}: link to {target}: no such heading")

readme = open("README.md").read()
if len(readme.splitlines()) > 300:
    failures.append(f"README.md has {len(readme.splitlines())} lines; keep it under 300 (references go to docs/)")
spec = open("openapi.yaml").read()
paths = re.findall(r"(?m)^  (/[^:\s]*):", spec[spec.index("\npaths:"):])
for p in paths:
    if f"`{p}`" not in readme and f"`GET {p}`" not in readme and f"`POST {p}`" not in readme and f", `{p}`" not in readme \
            and f"`{p}" not in readme:
        failures.append(f"README.md does not name {p} (openapi.yaml documents it)")
for command in ["make run", "make unit-test FILTER=", "make bench", "make test"]:
    if command not in readme:
        failures.append(f"README.md does not show `{command}`")

for failure in failures:
    print(f"FAIL: {failure}")
print(f"docs: {len(files)} documents checked, {len(failures)} problems")
sys.exit(1 if failures else 0)
