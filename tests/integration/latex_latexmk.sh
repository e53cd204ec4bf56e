#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The sample with latexmk and samples/latexmkrc (pdfLaTeX whatever the
# system rc says, no latexmk warning), offline from the sample's
# registry mirror: pith-stamp paper.tex writes pith.sty before the build,
# the PDF carries the signed record from pith.sty alone, pith-stamp
# paper.pdf after the build leaves it as it is, and a rebuild leaves pith.sty
# byte-identical. Then the arXiv case: only paper.tex + pith.sty, compiled
# with no shell escape, carries the same signed record and verifies offline.
set -euo pipefail
source "$(dirname "$0")/../support/scratch_env.sh"  # $work, $src, $bin, $data; offline, reproducible
need_tools pith-stamp pith-check
cp -r "$PITH_SOURCE_DIR/samples/paper.tex" "$PITH_SOURCE_DIR/samples/latexmkrc" "$PITH_SOURCE_DIR/samples/registry" "$work/"
cd "$work"
bundle=registry/pith/JFLLIOJUI2M3KX3FLLGP4N2V65/bundle.json

# As make demo runs it (latexmk reads ./latexmkrc by itself), on a machine
# whose system and user rc choose LuaLaTeX (Debian's /etc/LatexMk may say
# $pdf_mode = 4): the sample's rc pins pdfLaTeX, and latexmk has nothing to warn about.
echo '$pdf_mode = 4;' > system.rc
mkdir home && echo '$pdf_mode = 4;' > home/.latexmkrc
LATEXMKRCSYS="$PWD/system.rc" HOME="$PWD/home" PATH="$PITH_BIN:$PATH" \
  latexmk -interaction=nonstopmode -quiet paper.tex > latexmk.out 2>&1 \
  || { cat latexmk.out; fail "latexmk failed"; }
[[ -f pith.sty && -f paper.pdf ]] || fail "no pith.sty or paper.pdf"
head -n1 paper.log | grep -q 'pdfTeX' || fail "not built with pdfLaTeX: $(head -n1 paper.log)"
if grep -q 'rc file an extra time' latexmk.out; then cat latexmk.out; fail "latexmk warned about an rc file read twice"; fi
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

# A title changed on purpose: pith-stamp refuses, latexmk stops (12) and says
# how to pass --force through it; PITH_STAMP_OPTIONS=--force builds.
mkdir "$work/force" && cp -r "$PITH_SOURCE_DIR/samples/paper.tex" "$PITH_SOURCE_DIR/samples/latexmkrc" "$PITH_SOURCE_DIR/samples/registry" "$work/force/"
cd "$work/force"
sed -i 's/Layered gradient accumulation/Stacked gradient accumulation/' paper.tex
status=0
PATH="$PITH_BIN:$PATH" latexmk -interaction=nonstopmode -quiet paper.tex > refused.out 2>&1 || status=$?
[[ $status == 12 ]] || { cat refused.out; fail "a refused pith-stamp: latexmk exit $status, expected 12"; }
grep -q "use --force" refused.out || { cat refused.out; fail "pith-stamp's refusal is not shown"; }
grep -q "PITH_STAMP_OPTIONS='--force' latexmk" refused.out || { cat refused.out; fail "the stop message does not say how to pass --force"; }
PITH_STAMP_OPTIONS=--force PATH="$PITH_BIN:$PATH" latexmk -interaction=nonstopmode -quiet paper.tex > forced.out 2>&1 ||
  { cat forced.out; fail "PITH_STAMP_OPTIONS=--force latexmk failed"; }
grep -q "latexmkrc: pith-stamp paper.tex .*--force" forced.out || { cat forced.out; fail "--force was not passed to pith-stamp"; }
echo "ok: latexmk sample stamped, built and verified; the arXiv-style build verifies offline; --force passes through PITH_STAMP_OPTIONS"
