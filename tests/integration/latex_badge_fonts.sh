#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The badge never needs a font that METAFONT must make. A T1 paper with the
# Computer Modern families, without lmodern (the paper does not load it)
# and without cm-super (not installed by scripts/install-deps; the test
# says so when it finds type1ec.sty, cm-super's marker, and then only
# checks what still applies): its text is EC bitmap fonts, but the badge's
# 7 pt sans bold would be ecsx at a size METAFONT cannot make (pdfTeX:
# "Font ecsx0800 at 525 not found"). pith.sty falls back to OT1 for the
# badge: the paper builds, its PDF has exactly the bitmap (Type 3) fonts of
# the same paper without pith, and the badge's fonts are Type 1.
# TEXMFVAR is a fresh directory, so no font made earlier hides a problem.
# About 3-7 s (METAFONT makes the paper's own EC fonts).
set -euo pipefail
source "$(dirname "$0")/../support/scratch_env.sh"  # $work, $src, $bin, $data; offline, reproducible
cd "$work"
export TEXMFVAR="$work/texmf-var"
cm_super=$(kpsewhich type1ec.sty || true)
[[ -z "$cm_super" ]] || echo "note: cm-super is installed ($cm_super): the EC fonts are Type 1 here, the fallback is not exercised"

cp "$PITH_SOURCE_DIR/latex/pith.sty" .
cat > with-pith.tex <<'TEX'
\documentclass[11pt]{article}
\usepackage[T1]{fontenc}
\usepackage{pith}
\pithnumber{JFLLIOJUI2M3KX3FLLGP4N2V65}
\title{A T1 paper}
\author{A. Author}
\begin{document}
\maketitle
Text in T1 Computer Modern. Manual badge too: \pithbadge
\end{document}
TEX
grep -v -e '{pith}' -e 'pithnumber' -e 'pithbadge' with-pith.tex > without-pith.tex
for doc in without-pith with-pith; do
  pdflatex -interaction=nonstopmode -no-shell-escape "$doc.tex" > "$doc.out" 2>&1 \
    || { grep -A3 '^!' "$doc.log" | head -20; fail "$doc.tex does not build"; }
done
type3() { pdffonts "$1" | awk 'NR > 2 && $2 == "Type" && $3 == "3"' | wc -l; }
[[ $(type3 with-pith.pdf) == $(type3 without-pith.pdf) ]] \
  || { pdffonts with-pith.pdf; pdffonts without-pith.pdf; fail "the badge added bitmap (Type 3) fonts"; }
if [[ -z "$cm_super" ]]; then
  pdffonts with-pith.pdf | grep -q 'CMSSBX10 *Type 1' || { pdffonts with-pith.pdf; fail "the badge's sans bold is not the OT1 Type 1 font"; }
fi
grep -q 'ecsx' with-pith.log && fail "the badge asked for an EC sans bold font"

# With lmodern the badge keeps T1 (Latin Modern is Type 1 in T1).
sed 's/\\usepackage\[T1\]{fontenc}/&\n\\usepackage{lmodern}/' with-pith.tex > lmodern.tex
pdflatex -interaction=nonstopmode lmodern.tex > lmodern.out 2>&1 || fail "lmodern.tex does not build"
pdffonts lmodern.pdf | grep -q 'LMSans8-Bold\|LMSans10-Bold' || { pdffonts lmodern.pdf; fail "with lmodern the badge is not Latin Modern sans bold"; }
echo "ok: the T1 badge needs no METAFONT font ($(type3 with-pith.pdf) bitmap fonts, all the paper's own)"
