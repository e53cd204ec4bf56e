#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 31, item 6: pith-stamp --arxiv knows arXiv's TeX Live is not this
# machine's. An uploaded biblatex .bbl in a format no arXiv tree reads is
# refused (exit 2) naming the fix (the matching Biber, or BibTeX); one only
# TeX Live 2025 reads is a note naming the tree to choose; the verdict says
# which TeX Live the local rebuild used. After `latexmk -pdfxe -outdir=out`
# the engine is xelatex (the .fls in out/ says so); a paper loading fontspec
# rebuilt with pdflatex fails with fontspec's whole sentence. The .bbl
# cases stop before the rebuild: one TeX run each.
set -euo pipefail
source "$(dirname "$0")/../support/scratch_env.sh"  # $work, $src, $bin, $data; offline, reproducible
need_tools pith-stamp
source "$src/tests/support/cli_expect.sh"  # fail MESSAGE, $failures
paper="$work/paper"
mkdir -p "$paper"
cd "$paper"
# The .bbl is \input by hand (biblatex itself is not needed to pack it): what
# is judged is the format line every biblatex .bbl starts with.
cat > main.tex <<'TEX'
\documentclass{article}
\usepackage{pith}
\pithnumber{JFLLIOJUI2M3KX3FLLGP4N2V65}
\title{Layered gradient accumulation and modular pipeline parallelism:
  fast and efficient training of large language models}
\author{A. Author}
\begin{document}
\maketitle
Text.
\input{main.bbl}
\end{document}
TEX
"$bin/pith-stamp" main.tex --bundle "$src/samples/registry/$body.bundle.json" >/dev/null
bbl() { printf '%% $ biblatex auxiliary file $\n%% $ biblatex bbl format version %s $\n%% Do not modify the above lines!\n' "$1" >main.bbl; }

# arxiv WANT_EXIT [ARGS...]: pith-stamp --arxiv main.tex, output in arxiv.out.
arxiv() {
  local want=$1 rc=0
  shift
  "$bin/pith-stamp" --arxiv "$@" main.tex >arxiv.out 2>&1 || rc=$?
  [[ $rc == "$want" ]] || fail "--arxiv $*: exit $rc, expected $want: $(cat arxiv.out)"
}

bbl 9.9
arxiv 2
grep -q "main.bbl in a format arXiv's TeX Live reads: it is a biblatex .bbl in format 9.9" arxiv.out || fail "9.9: $(cat arxiv.out)"
grep -q "TeX Live 2023 reads format 3.2 (Biber 2.19), TeX Live 2025 reads format 3.3 (Biber 2.21)" arxiv.out ||
  fail "9.9: the trees are not named: $(cat arxiv.out)"
grep -q "or switch to BibTeX" arxiv.out || fail "9.9: no fix named: $(cat arxiv.out)"

# A real biblatex paper whose .bbl only TeX Live 2025 reads: this
# machine's biblatex, when it reads another format, says so too.
sed -i 's/\\input{main.bbl}/\\printbibliography/; s/\\usepackage{pith}/\\usepackage{biblatex}\\usepackage{pith}/' main.tex
bbl 3.3
arxiv 0
if [[ $(kpsewhich biblatex.sty | xargs grep -o 'blx@bblversion{[0-9.]*}') != 'blx@bblversion{3.3}' ]]; then
  grep -q "^pith-stamp: note: this machine's biblatex cannot read the upload's main.bbl" arxiv.out ||
    fail "3.3 here: the local biblatex's refusal is not said: $(cat arxiv.out)"
fi
grep -q "^pith-stamp: note: main.bbl is a biblatex .bbl in format 3.3, which only arXiv's TeX Live 2025 reads" arxiv.out ||
  fail "3.3: no note naming the tree: $(cat arxiv.out)"
here=$(tex --version | sed -n '1s/.*(\(TeX Live [0-9]*\).*/\1/p')
grep -q "^pith-stamp: note: rebuilt with this machine's $here" arxiv.out || fail "the local TeX Live is not named: $(cat arxiv.out)"
grep -q "^pith-stamp: what arXiv will build verifies as $number (pdflatex, [0-9] runs with $here here" arxiv.out ||
  fail "verdict line: $(cat arxiv.out)"

# latexmk -pdfxe -outdir=out: the engine is the .fls's (xelatex), not pdflatex.
rm -f main.bbl
sed -i 's/\\printbibliography//; s/\\usepackage{biblatex}/\\usepackage{fontspec}/' main.tex
latexmk -pdfxe -outdir=out -interaction=nonstopmode main.tex >latexmk.out 2>&1 || { tail -20 latexmk.out; fail "latexmk -pdfxe"; }
[[ ! -e main.log && -f out/main.fls ]] || fail "latexmk -outdir wrote beside the paper"
arxiv 0
grep -q "(xelatex, " arxiv.out || fail "-outdir=out: not built with xelatex: $(cat arxiv.out)"
# Forced to pdflatex: fontspec's error, whole.
arxiv 2 --compiler pdflatex
grep -q 'requires either XeTeX or LuaTeX. You must change your typesetting engine to, e.g., "xelatex" or "lualatex" instead of "latex" or "pdflatex".' arxiv.out ||
  fail "the fontspec error is cut: $(cat arxiv.out)"

exit "$failures"
