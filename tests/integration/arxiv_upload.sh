#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# pith-stamp --arxiv: a paper with \input from a subdirectory, a figure and
# a .bib (its .bbl made by latexmk). The archive holds exactly the files the
# build read inside the paper's directory, plus pith.sty and the .bbl:
# relative names, nothing else (no .aux, no .bib, no stray files, nothing
# from outside the tree); it rebuilds in isolation as arXiv does and
# verifies offline; also for xelatex (00README.json) and latex+dvips. Then
# what is missing is named, with exit 2: no .bbl, no pith.sty, a file from
# outside the paper's directory. XeLaTeX fonts loaded by path from the
# paper's folder are packed; a LuaLaTeX paper is built with xelatex, saying
# so. About 30 s.
set -euo pipefail
source "$(dirname "$0")/../support/scratch_env.sh"  # $work, $src, $bin, $data; offline, reproducible
need_tools pith-stamp
paper="$work/paper"
mkdir -p "$paper/sections" "$paper/figures" "$work/outside"
cd "$paper"
cat > main.tex <<'TEX'
\documentclass{article}
\usepackage{graphicx}
\usepackage{pith}
\pithnumber{JFLLIOJUI2M3KX3FLLGP4N2V65}
\title{Layered gradient accumulation and modular pipeline parallelism:
  fast and efficient training of large language models}
\author{A. Author}
\begin{document}
\maketitle
\input{sections/intro}
\begin{figure}[h]\centering\includegraphics[width=2cm]{figures/plot}\caption{A plot.}\label{fig:plot}\end{figure}
See Figure~\ref{fig:plot}.
\bibliographystyle{plain}
\bibliography{refs}
\end{document}
TEX
printf '%s\n' '\section{Introduction}' 'As shown by \cite{knuth84}, this works.' > sections/intro.tex
printf '%s\n' '@book{knuth84, author={Donald E. Knuth}, title={The {\TeX}book}, publisher={Addison-Wesley}, year={1984}}' > refs.bib
/usr/bin/python3 - <<'PY'
import struct, zlib
def chunk(t, d): return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d))
raw = b''.join(b'\x00' + bytes([(x * 16) % 256 for x in range(16)]) for _ in range(16))
png = b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', 16, 16, 8, 0, 0, 0, 0)) + chunk(b'IDAT', zlib.compress(raw)) + chunk(b'IEND', b'')
open('figures/plot.png', 'wb').write(png)
PY
echo 'not part of the paper' > notes.txt
cp sections/intro.tex sections/unused.tex

"$PITH_BIN/pith-stamp" main.tex --bundle "$PITH_SOURCE_DIR/samples/registry/JFLLIOJUI2M3KX3FLLGP4N2V65.bundle.json" > /dev/null
latexmk -pdf -interaction=nonstopmode main.tex > latexmk.out 2>&1 || { tail -30 latexmk.out; fail "the paper does not build"; }
[[ -f main.bbl ]] || fail "latexmk made no main.bbl"
before=$(find . -type f -print | sort | xargs sha256sum)

start=$(date +%s%N)
"$PITH_BIN/pith-stamp" --arxiv main.tex > arxiv.out 2>&1 || { cat arxiv.out; fail "--arxiv did not verify"; }
ms=$(( ($(date +%s%N) - start) / 1000000 ))
grep -q '^pith-stamp: what arXiv will build verifies as pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65 (pdflatex' arxiv.out \
  || { cat arxiv.out; fail "no verdict line"; }
[[ -f main-arxiv.tar.gz ]] || fail "no main-arxiv.tar.gz"
members=$(tar tzf main-arxiv.tar.gz | tr '\n' ' ')
[[ "$members" == "figures/plot.png main.bbl main.tex pith.sty sections/intro.tex " ]] \
  || fail "archive members: $members"
tar tvzf main-arxiv.tar.gz | awk '{print $2}' | grep -qv '^0/0$' && fail "archive entries carry an owner"
[[ "$(find . -type f ! -name main-arxiv.tar.gz ! -name arxiv.out -print | sort | xargs sha256sum)" == "$before" ]] \
  || fail "--arxiv changed the paper's files"

# The same archive, unpacked by tar and built by hand the arXiv way, verifies too.
mkdir "$work/by-hand" && tar xzf main-arxiv.tar.gz -C "$work/by-hand"
(cd "$work/by-hand" && for run in 1 2; do
   pdflatex -interaction=batchmode -no-shell-escape -no-parse-first-line main.tex > /dev/null || exit 1; done) \
  || fail "the archive does not build by hand"
"$PITH_BIN/pith-check" --offline "$work/by-hand/main.pdf" > /dev/null 2>&1 || fail "the hand-built PDF does not verify"
echo "ok: --arxiv archive (5 files) rebuilds and verifies in ${ms} ms; $(stat -c %s main-arxiv.tar.gz) bytes"

# --json: the same verdict, machine-readable.
"$PITH_BIN/pith-stamp" --arxiv --json main.tex -o "$work/upload.tar.gz" > arxiv.json 2> /dev/null || fail "--arxiv --json"
/usr/bin/python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["status"]=="verifies" and j["latex_runs"]>=2 and j["files"][0]=="figures/plot.png", j' arxiv.json \
  || fail "--json outcome"
[[ -f "$work/upload.tar.gz" ]] || fail "-o was not honoured"

# The engine of the paper's last build is arXiv's compiler: after xelatex,
# the archive names it in a 00README.json, and arXiv's xelatex build verifies.
xelatex -interaction=batchmode main.tex > /dev/null 2>&1 || fail "xelatex main.tex"
"$PITH_BIN/pith-stamp" --arxiv main.tex -o "$work/xe.tar.gz" > xe.out 2>&1 || { cat xe.out; fail "--arxiv after xelatex"; }
grep -q 'verifies as pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65 (xelatex' xe.out || { cat xe.out; fail "xelatex: no verdict"; }
[[ "$(tar xzOf "$work/xe.tar.gz" 00README.json | /usr/bin/python3 -c 'import json,sys; j=json.load(sys.stdin); print(j["process"]["compiler"], j["sources"][0]["filename"], j["sources"][0]["usage"])')" == "xelatex main.tex toplevel" ]] \
  || fail "xelatex: 00README.json"
echo "ok: after xelatex, the archive has a 00README.json and arXiv's xelatex build verifies"

# No .bbl: named, exit 2, no archive.
rm -f main-arxiv.tar.gz && mv main.bbl "$work/main.bbl"
status=0; "$PITH_BIN/pith-stamp" --arxiv main.tex > missing.out 2>&1 || status=$?
[[ $status == 2 ]] || { cat missing.out; fail "no .bbl: exit $status, not 2"; }
grep -q 'main.bbl: arXiv runs no BibTeX' missing.out || { cat missing.out; fail "no .bbl: not named"; }
[[ ! -e main-arxiv.tar.gz ]] || fail "no .bbl: an archive was written"
mv "$work/main.bbl" main.bbl
echo "ok: a missing .bbl is named"

# No pith.sty: named, with the next step.
mv pith.sty "$work/pith.sty"
status=0; "$PITH_BIN/pith-stamp" --arxiv main.tex > nosty.out 2>&1 || status=$?
[[ $status == 2 ]] || { cat nosty.out; fail "no pith.sty: exit $status, not 2"; }
grep -q "run 'pith-stamp main.tex' first" nosty.out || { cat nosty.out; fail "no pith.sty: no next step"; }
mv "$work/pith.sty" pith.sty
echo "ok: a missing pith.sty is named"

# A file from outside the paper's directory is not uploaded: arXiv's build
# would fail, and the verdict names the file.
echo '\newcommand\shared{shared text}' > "$work/outside/macros.tex"
sed -i 's|\\begin{document}|\\input{../outside/macros}\n\\begin{document}\\shared|' main.tex
status=0; "$PITH_BIN/pith-stamp" --arxiv main.tex > outside.out 2>&1 || status=$?
[[ $status == 2 ]] || { cat outside.out; fail "outside file: exit $status, not 2"; }
grep -q "\.\./outside/macros.tex: read from outside the paper's directory" outside.out || { cat outside.out; fail "outside file: not named"; }
[[ ! -e main-arxiv.tar.gz ]] || fail "outside file: an archive was written"
echo "ok: a file from outside the paper's directory is named as missing"

# latex -> dvips -R2 -> ps2pdf, on the sample paper (EPS-free).
mkdir "$work/sample" && cp "$PITH_SOURCE_DIR/samples/paper.tex" "$work/sample/" && cd "$work/sample"
"$PITH_BIN/pith-stamp" paper.tex --bundle "$PITH_SOURCE_DIR/samples/registry/JFLLIOJUI2M3KX3FLLGP4N2V65.bundle.json" > /dev/null
"$PITH_BIN/pith-stamp" --arxiv --compiler latex paper.tex > latex.out 2>&1 || { cat latex.out; fail "--arxiv --compiler latex"; }
grep -q 'verifies as pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65 (latex' latex.out || { cat latex.out; fail "latex: no verdict"; }
echo "ok: arXiv's latex + dvips -R2 + ps2pdf build verifies"

# XeLaTeX with fonts loaded by path from the paper's own folder (fontspec's
# Path = ./fonts/): XeTeX's -recorder does not list them, the build's opens
# do; the archive carries them and arXiv's xelatex build finds them. The
# fonts are Latin Modern (GUST Font License) from TeX Live, renamed so that
# no system font of that name can stand in for a missing file.
mkdir -p "$work/fonts-paper/fonts" && cd "$work/fonts-paper"
cp "$(kpsewhich lmroman10-regular.otf)" fonts/PaperSerif-Regular.otf
cp "$(kpsewhich lmroman10-bold.otf)" fonts/PaperSerif-Bold.otf
cat > paper.tex <<'TEX'
\documentclass{article}
\usepackage{fontspec}
\setmainfont{PaperSerif}[Path = ./fonts/, Extension = .otf, UprightFont = *-Regular, BoldFont = *-Bold]
\usepackage{pith}
\pithnumber{JFLLIOJUI2M3KX3FLLGP4N2V65}
\title{Layered gradient accumulation and modular pipeline parallelism:
  fast and efficient training of large language models}
\author{A. Author}
\begin{document}
\maketitle
Text in the paper's own font.
\end{document}
TEX
"$PITH_BIN/pith-stamp" paper.tex --bundle "$PITH_SOURCE_DIR/samples/registry/JFLLIOJUI2M3KX3FLLGP4N2V65.bundle.json" > /dev/null
xelatex -recorder -interaction=batchmode paper.tex > /dev/null 2>&1 || fail "the fonts paper does not build with xelatex"
grep -q PaperSerif paper.fls && echo "note: this XeTeX records fonts loaded by path in its .fls"
"$PITH_BIN/pith-stamp" --arxiv paper.tex > fonts.out 2>&1 || { cat fonts.out; fail "--arxiv with fonts from the paper's folder"; }
grep -q 'verifies as pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65 (xelatex' fonts.out || { cat fonts.out; fail "fonts: no verdict"; }
members=$(tar tzf paper-arxiv.tar.gz | tr '\n' ' ')
[[ "$members" == "00README.json fonts/PaperSerif-Bold.otf fonts/PaperSerif-Regular.otf paper.tex pith.sty " ]] \
  || fail "fonts: archive members: $members"
echo "ok: fonts loaded by path from the paper's folder are packed, and arXiv's xelatex build finds them"

# LuaLaTeX, which arXiv does not run: after a lualatex build the upload is
# built with xelatex (the closest), and the verdict says so; asked for by
# name, it is refused.
lualatex -interaction=batchmode paper.tex > /dev/null 2>&1 || fail "the fonts paper does not build with lualatex"
"$PITH_BIN/pith-stamp" --arxiv paper.tex -o "$work/lua.tar.gz" > lua.out 2>&1 || { cat lua.out; fail "--arxiv after lualatex"; }
grep -q 'verifies as pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65 (xelatex instead of lualatex' lua.out || { cat lua.out; fail "lualatex: the verdict does not say which engine"; }
grep -q 'note: paper.log says lualatex, which arXiv does not run' lua.out || { cat lua.out; fail "lualatex: no note"; }
[[ "$(tar xzOf "$work/lua.tar.gz" 00README.json | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["process"]["compiler"])')" == xelatex ]] \
  || fail "lualatex: 00README.json does not name xelatex"
status=0; "$PITH_BIN/pith-stamp" --arxiv --compiler lualatex paper.tex > lua2.out 2>&1 || status=$?
[[ $status == 2 ]] || { cat lua2.out; fail "--compiler lualatex: exit $status, not 2"; }
grep -q 'arXiv does not run lualatex' lua2.out || { cat lua2.out; fail "--compiler lualatex: not said"; }
echo "ok: LuaLaTeX: rebuilt with xelatex and said so; --compiler lualatex refused"
