#!/usr/bin/env bash
# `make demo`: build the sample paper with latexmk and the sample latexmkrc
# (pith-stamp paper.tex before, pith-stamp paper.pdf after), offline, from
# the registry mirror in samples/registry; then check the PDF offline.
set -euo pipefail
: "${PITH_BIN:?set PITH_BIN to the directory holding pith-stamp and pith-check}"
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/pith-demo.XXXXXX")
cp -r "$here/paper.tex" "$here/latexmkrc" "$here/registry" "$work/"
cd "$work"
echo "== building $work/paper.pdf"
PATH="$PITH_BIN:$PATH" latexmk -r latexmkrc -interaction=nonstopmode -quiet paper.tex
echo "== pith.sty: $(wc -c < pith.sty) bytes (upload it with the paper)"
echo "== pith-check --offline paper.pdf"
"$PITH_BIN/pith-check" --offline paper.pdf
