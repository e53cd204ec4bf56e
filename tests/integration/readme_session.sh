#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The README's "A session" block, run as it stands: every `$ ` command is run
# (in order, in one directory, with bash), and every output line the README
# shows must appear in what the command printed, in order, with "…" matching
# anything. The paper is samples/paper.tex built with latex/pith.sty and no
# other step; the record comes from the sample's file:// mirror.
set -euo pipefail

bin=${PITH_BIN:?PITH_BIN must be set}
src=${PITH_SOURCE_DIR:?PITH_SOURCE_DIR must be set}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

export SOURCE_DATE_EPOCH=1700000000 NO_COLOR=1
export PATH="$bin:$PATH" TEXINPUTS="$src/latex//:" PITH_RESOLVER="file://$src/samples/registry"
export XDG_CACHE_HOME="$work/cache" XDG_CONFIG_HOME="$work/config"

cd "$work"
cp "$src/samples/paper.tex" .
for _ in 1 2; do pdflatex -interaction=batchmode paper.tex >/dev/null 2>&1 || true; done
[[ -s paper.pdf ]] || { echo "FAIL: samples/paper.tex did not build" >&2; exit 1; }
pdflatex -interaction=batchmode -jobname=plain '\documentclass{article}\begin{document}\title{Plain}\maketitle Text.\end{document}' >/dev/null 2>&1 || true
[[ -s plain.pdf ]] || { echo "FAIL: plain.pdf did not build" >&2; exit 1; }

/usr/bin/python3 - "$src/README.md" <<'EOF'
import re, subprocess, sys
text = open(sys.argv[1], encoding="utf-8").read()
block = text.split("## A session", 1)[1].split("```console", 1)[1].split("```", 1)[0]
steps = []  # (command, [expected lines])
for line in block.strip("\n").splitlines():
    if line.startswith("$ "):
        steps.append((line[2:], []))
    elif steps:
        steps[-1][1].append(line)
if len(steps) < 4:
    sys.exit(f"FAIL: the README's session has {len(steps)} commands; expected at least 4")

def matches(pattern, line):
    return re.fullmatch(".*".join(re.escape(p) for p in pattern.split("…")), line) is not None

failures = 0
for command, expected in steps:
    run = subprocess.run(["bash", "-c", command.split("  #")[0]], capture_output=True, text=True)
    got = (run.stdout + run.stderr).splitlines()
    at = 0
    for want in expected:
        if want.strip() == "…":
            continue
        while at < len(got) and not matches(want, got[at]):
            at += 1
        if at == len(got):
            print(f"FAIL: `{command}`: README line not printed (in order): {want}\n--- got:\n" + "\n".join(got), file=sys.stderr)
            failures += 1
            break
        at += 1
    print(f"ok: $ {command}")
sys.exit(1 if failures else 0)
EOF
echo "readme_session: the README's session runs as shown"
