#!/usr/bin/env bash
# `make demo`: everything offline, from the registry mirror in samples/registry.
#  1. verify the shipped sample bundle (record, receipt, events, bundle
#     signature, state recomputed) against the pinned registry key;
#  2. build the sample paper with latexmk and samples/latexmkrc
#     (pith-stamp paper.tex before, pith-stamp paper.pdf after);
#  3. check the resulting PDF offline;
#  4. make the arXiv upload and check what arXiv will build from it.
# PITH_BIN = directory of the built tools.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
PITH_BIN=${PITH_BIN:-$here/../build/tools}

echo "== 1. pith-check --offline samples/registry/JFLLIOJUI2M3KX3FLLGP4N2V65.bundle.json"
"$PITH_BIN/pith-check" --offline "$here/registry/JFLLIOJUI2M3KX3FLLGP4N2V65.bundle.json"
echo

work=$(mktemp -d "${TMPDIR:-/tmp}/pith-demo.XXXXXX")
cp -r "$here/paper.tex" "$here/latexmkrc" "$here/registry" "$work/"
cd "$work"
echo "== 2. latexmk paper.tex   (in $work; latexmk reads ./latexmkrc, which pins pdfLaTeX)"
PATH="$PITH_BIN:$PATH" latexmk -interaction=nonstopmode -quiet paper.tex
echo "   generated pith.sty: $(wc -c < pith.sty) bytes (upload it with the paper)"
echo
echo "== 3. pith-check --offline paper.pdf"
"$PITH_BIN/pith-check" --offline paper.pdf
echo
echo "== 4. pith-stamp --arxiv paper.tex"
"$PITH_BIN/pith-stamp" --arxiv paper.tex
