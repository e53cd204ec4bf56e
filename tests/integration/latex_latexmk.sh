#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The sample with latexmk and samples/latexmkrc, offline from the sample's
# registry mirror: pith-stamp paper.tex writes pith.sty before the build,
# the PDF carries the signed record from pith.sty alone, pith-stamp
# paper.pdf after the build leaves it as it is, and a rebuild leaves pith.sty
# byte-identical. Then the arXiv case: only paper.tex + pith.sty, compiled
# with no shell escape, carries the same signed record and verifies offline.
set -euo pipefail
: "${PITH_BIN:?}" "${PITH_SOURCE_DIR:?}"
fail() { echo "FAIL: $*" >&2; exit 1; }
for tool in pith-stamp pith-check; do [[ -x "$PITH_BIN/$tool" ]] || fail "$PITH_BIN/$tool not built"; done

work=$(mktemp -d "${TMPDIR:-/tmp}/pith-latexmk.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp -r "$PITH_SOURCE_DIR/samples/paper.tex" "$PITH_SOURCE_DIR/samples/latexmkrc" "$PITH_SOURCE_DIR/samples/registry" "$work/"
cd "$work"
bundle=registry/pith/JFLLIOJUI2M3KX3FLLGP4N2V65/bundle.json

PATH="$PITH_BIN:$PATH" latexmk -r latexmkrc -interaction=nonstopmode -quiet paper.tex > latexmk.out 2>&1 \
  || { cat latexmk.out; fail "latexmk failed"; }
[[ -f pith.sty && -f paper.pdf ]] || fail "no pith.sty or paper.pdf"
grep -q 'verified data, written by pith-stamp' pith.sty || fail "pith.sty has no verified data"
grep -q 'pith.sty carries the signed record of' paper.log || fail "the log does not say the record is baked in"

# What the PDF holds, read by independent tools.
[[ "$(pdfinfo -custom paper.pdf | sed -n 's/^PithNumber: *//p')" == pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65 ]] \
  || fail "Info /PithNumber"
pdfdetach -savefile pith-bundle.json -o detached.json paper.pdf > /dev/null
cmp -s detached.json "$bundle" || fail "embedded pith-bundle.json differs from the registry bundle"
[[ "$(exiftool -q -q -b -XMP-pith:KeyId paper.pdf)" == pith-v1-2026-05 ]] || fail "XMP pith:keyId"
qpdf --check paper.pdf > /dev/null || fail "qpdf --check"

# Re-running pith-stamp on the sources (from the same mirror as the rc) changes nothing.
sum_before=$(sha256sum pith.sty)
"$PITH_BIN/pith-stamp" paper.tex --resolver "file://$PWD/registry" > /dev/null
[[ "$(sha256sum pith.sty)" == "$sum_before" ]] || fail "pith.sty changed on a re-run"

"$PITH_BIN/pith-check" --offline paper.pdf > check.out 2>&1 || { cat check.out; fail "pith-check --offline paper.pdf"; }
grep -q 'pdf.title.match' check.out || { cat check.out; fail "the title binding was not checked"; }

# arXiv: the sources alone (paper.tex + pith.sty), no shell escape, fresh dir.
mkdir arxiv && cp paper.tex pith.sty arxiv/ && cd arxiv
for run in 1 2; do
  pdflatex -no-shell-escape -interaction=nonstopmode -halt-on-error paper.tex > /dev/null \
    || fail "arXiv-style build failed"
done
# Same signed record as the latexmk build, from the sources alone.
pdfdetach -savefile pith-bundle.json -o detached.json paper.pdf > /dev/null
cmp -s detached.json "../$bundle" || fail "arXiv-style build: embedded bundle differs"
[[ "$(exiftool -q -q -b -XMP-pith:CanonicalSha256 paper.pdf)" == 4956b439344699b55f655accfe3755f76675906c3782b2b848781fbe13e87432 ]] \
  || fail "arXiv-style build: XMP pith:canonicalSha256"
"$PITH_BIN/pith-check" --offline paper.pdf > check.out 2>&1 || { cat check.out; fail "pith-check --offline on the arXiv-style build"; }
echo "ok: latexmk sample stamped, built and verified; the arXiv-style build verifies offline"
