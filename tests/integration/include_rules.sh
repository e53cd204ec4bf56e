#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The layer diagram is a test (issue 24): docs/architecture.md lists, between
# its include-rules markers, each folder of lib/pith/ and the folders it may
# include ("check -> pdf resolver registry signed_json base"). This reads
# every #include "pith/<folder>/..." under lib/pith/ and fails on
# - an arrow the list does not allow (file and line named);
# - an allowed arrow no file uses (the picture would draw what is not there);
# - a folder of lib/pith/ the list does not place, or one it names that is gone;
# - a cycle in the list (a layer may include only the layers below it).
# No build needed: it reads the sources.
set -euo pipefail
source "$(dirname "$0")/../support/scratch_env.sh"  # $work, $src, $bin, $data; offline, reproducible
python3 - "$src" <<'PY'
import pathlib, re, sys

src = pathlib.Path(sys.argv[1])
doc = (src / "docs/architecture.md").read_text(encoding="utf-8")
m = re.search(r"<!-- include-rules: begin -->\n(.*?)<!-- include-rules: end -->", doc, re.S)
if not m:
    sys.exit("include_rules: docs/architecture.md has no include-rules block")
allowed = {}
for line in m.group(1).splitlines():
    line = line.strip()
    if not line or line.startswith("```"):
        continue
    left, arrow, right = line.partition("->")
    if not arrow:
        sys.exit(f"include_rules: not 'folder -> folders': {line!r}")
    allowed[left.strip()] = set(right.split())

failures = []
lib = src / "lib/pith"
folders = {p.name for p in lib.iterdir() if p.is_dir()}
for f in sorted(folders - allowed.keys()):
    failures.append(f"lib/pith/{f}/ is not in the diagram (docs/architecture.md, include-rules)")
for f in sorted(allowed.keys() - folders):
    failures.append(f"the diagram names {f}/, which lib/pith/ does not have")
for f, targets in allowed.items():
    for t in sorted(targets - allowed.keys()):
        failures.append(f"the diagram's arrow {f} -> {t} names no layer")

used = set()
include = re.compile(r'^\s*#\s*include\s+"pith/([a-z_]+)/')
public = src / "include/pith"  # the public headers: the same layers, the same arrows
for f in sorted({p.name for p in public.iterdir() if p.is_dir()} - folders):
    failures.append(f"include/pith/{f}/ is not a layer of lib/pith/")
for path in sorted(lib.glob("*/*")) + sorted(public.glob("*/*")):
    if path.suffix not in (".hpp", ".cpp", ".h", ".cc"):
        continue
    here = path.parent.name
    for number, text in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
        hit = include.match(text)
        if not hit or hit.group(1) == here:
            continue
        there = hit.group(1)
        used.add((here, there))
        if there not in allowed.get(here, set()):
            failures.append(f"{path.relative_to(src)}:{number}: {here} -> {there} is not an allowed arrow")
for f, targets in sorted(allowed.items()):
    for t in sorted(targets):
        if (f, t) not in used:
            failures.append(f"the diagram allows {f} -> {t}, which no file uses: take it out of the picture")

# A layer includes only layers below it: the allowed arrows have no cycle.
state = {}
def visit(f, trail):
    if state.get(f) == "done":
        return
    if state.get(f) == "open":
        failures.append("a cycle in the diagram: " + " -> ".join(trail + [f]))
        return
    state[f] = "open"
    for t in sorted(allowed.get(f, ())):
        visit(t, trail + [f])
    state[f] = "done"
for f in sorted(allowed):
    visit(f, [])

for line in failures:
    print("FAIL: " + line, file=sys.stderr)
arrows = sum(len(t) for t in allowed.values())
print(f"include_rules: {len(allowed)} layers, {arrows} allowed arrows, {len(used)} used, {len(failures)} problem(s)")
sys.exit(1 if failures else 0)
PY
