#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# pdf_zoo.sh OUTDIR — makes the PDF test zoo shared by the stamp and check
# tests: real PDFs from every producer pith must handle, each with a known
# title so title-binding checks can be exercised.
#
# Idempotent: a PDF already in OUTDIR is kept (tests call this into the build
# directory, and several tests may call it at once: a lock serialises them).
# Each file is built in a scratch directory and moved into place complete.
#
# OUTDIR/zoo.tsv lists the zoo, one file a line, tab-separated:
#   file  pages  title  features
# features (comma-separated) is what the file is known to contain:
#   classic     classic cross-reference table(s) only
#   xrefstream  a cross-reference stream
#   objstm      object streams
#   linearized  a linearized file
#   incremental more than one revision (an incremental update already there)
#   xmp         an XMP packet (with dc:title and dc:creator)
#   attachment  an embedded file (EmbeddedFiles)
#   links       link annotations
# The title is the Info /Title (and dc:title where there is XMP).
set -euo pipefail

if (($# != 1)); then
  echo "usage: pdf_zoo.sh OUTDIR" >&2
  exit 2
fi
out=$1
mkdir -p "$out"
out=$(cd "$out" && pwd)

# Stable output where the producers allow it (pdfTeX, LuaTeX, dvipdfmx honour it).
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-1700000000}
export FORCE_SOURCE_DATE=1

# The title of the fixture bundle tests/data/JFLLIOJUI2M3KX3FLLGP4N2V65.bundle.json
# (its title_canon_sha256 matches it), and the title of the fixture record
# WXNI57C2SJ24QK62DB7DTUREA3: stamping a file with the other paper's record
# gives a title mismatch.
title_bundle='Layered gradient accumulation and modular pipeline parallelism: fast and efficient training of large language models'
title_record='Exploring the limits of Concurrency in ML Training on Google TPUs'

exec 9>"$out/.zoo.lock"
flock 9

# The zoo's recipe version: a zoo made by another recipe is made again.
# 2: page 1 shows each paper's title (issue 22: title metadata alone never
# binds a record; what binds is what a reader sees).
zoo_version=2
if [[ $(cat "$out/.zoo-version" 2>/dev/null) != "$zoo_version" ]]; then
  rm -f "$out"/*.pdf "$out/zoo.tsv"
  echo "$zoo_version" >"$out/.zoo-version"
fi

scratch=$(mktemp -d "$out/.zoo-work.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

log() { [[ -n ${ZOO_VERBOSE:-} ]] && echo "pdf_zoo: $*" >&2 || true; }

# have NAME: true when OUTDIR/NAME.pdf is already there.
have() { [[ -s "$out/$1.pdf" ]]; }

# install NAME FILE: moves a finished PDF into the zoo.
install_pdf() { mv -f "$2" "$out/$1.pdf.tmp" && mv -f "$out/$1.pdf.tmp" "$out/$1.pdf"; }

# run_tex ENGINE DIR JOB: compiles DIR/JOB.tex once, quietly; shows the log on failure.
run_tex() {
  local engine=$1 dir=$2 job=$3
  if ! (cd "$dir" && "$engine" -interaction=nonstopmode -halt-on-error "$job.tex" >/dev/null 2>&1); then
    echo "pdf_zoo: $engine failed on $job.tex:" >&2
    tail -n 30 "$dir/$job.log" >&2 || true
    exit 1
  fi
}

# tex_pdf NAME ENGINE [RUNS]: compiles the LaTeX source on stdin with ENGINE
# into NAME.pdf (RUNS times, for cross-references; default once).
tex_pdf() {
  local name=$1 engine=$2 runs=${3:-1}
  have "$name" && { cat >/dev/null; return 0; }
  log "$name ($engine)"
  local dir="$scratch/$name"
  mkdir -p "$dir"
  cat >"$dir/$name.tex"
  for ((run = 0; run < runs; run++)); do run_tex "$engine" "$dir" "$name"; done
  install_pdf "$name" "$dir/$name.pdf"
}

# A page of body text without packages (the same text on every engine).
filler='Pith numbers name a paper by the hash of its record; this sentence is
filler text that gives every page of the zoo a realistic amount of words,
fonts and content streams to parse.'

# --- pdfLaTeX: xref stream + object streams (pdfTeX's default), Info via \pdfinfo.
tex_pdf pdflatex pdflatex <<EOF
\documentclass{article}
\pdfinfo{/Title ($title_bundle) /Author (Ada Lovelace)}
\begin{document}
{\Large $title_bundle\par}
\section{Introduction} $filler $filler
\newpage
\section{More} $filler
\end{document}
EOF

# --- pdfLaTeX without compression: classic cross-reference table.
tex_pdf classic pdflatex <<EOF
\pdfobjcompresslevel=0 \pdfcompresslevel=0
\documentclass{article}
\pdfinfo{/Title ($title_bundle) /Author (Ada Lovelace)}
\begin{document}
{\Large $title_bundle\par}
\section{Classic} $filler
\end{document}
EOF

# --- XeLaTeX (xdvipdfmx) and LuaLaTeX: the same paper, with hyperref.
for engine in xelatex lualatex; do
  tex_pdf "$engine" "$engine" <<EOF
\documentclass{article}
\usepackage[pdftitle={$title_bundle},pdfauthor={Ada Lovelace}]{hyperref}
\begin{document}
{\Large $title_bundle\par}
\section{Introduction} $filler \href{https://example.org/}{a link}.
\end{document}
EOF
done

# --- latex + dvips + ps2pdf (hyperref's dvips driver writes pdfmarks).
if ! have dvips; then
  log "dvips (latex+dvips+ps2pdf)"
  dir="$scratch/dvips"
  mkdir -p "$dir"
  cat >"$dir/dvips.tex" <<EOF
\documentclass{article}
\usepackage[pdftitle={$title_bundle},pdfauthor={Ada Lovelace}]{hyperref}
\begin{document}
{\Large $title_bundle\par}
\section{Introduction} $filler \href{https://example.org/}{a link}.
\newpage
\section{More} $filler
\end{document}
EOF
  run_tex latex "$dir" dvips
  (cd "$dir" && dvips -q -o dvips.ps dvips.dvi && ps2pdf dvips.ps dvips.pdf) >/dev/null 2>&1 ||
    { echo "pdf_zoo: dvips/ps2pdf failed" >&2; exit 1; }
  install_pdf dvips "$dir/dvips.pdf"
fi

# --- Ghostscript from hand-written PostScript (title via a DOCINFO pdfmark).
if ! have ghostscript; then
  log "ghostscript"
  dir="$scratch/ghostscript"
  mkdir -p "$dir"
  {
    echo '%!PS-Adobe-3.0'
    echo "[ /Title ($title_bundle) /Author (Ada Lovelace) /DOCINFO pdfmark"
    echo "/Helvetica findfont 9 scalefont setfont 36 740 moveto ($title_bundle) show"
    echo '/Helvetica findfont 12 scalefont setfont'
    for page in 1 2 3; do
      echo "72 720 moveto (Ghostscript page $page) show"
      echo '72 700 moveto (Pith numbers name a paper by the hash of its record.) show'
      echo 'showpage'
    done
  } >"$dir/gs.ps"
  gs -q -dNOPAUSE -dBATCH -dSAFER -sDEVICE=pdfwrite -sOutputFile="$dir/gs.pdf" "$dir/gs.ps" >/dev/null 2>&1 ||
    { echo "pdf_zoo: ghostscript failed" >&2; exit 1; }
  install_pdf ghostscript "$dir/gs.pdf"
fi

# --- qpdf rewrites of the pdfLaTeX file.
if ! have qpdf-objstm; then
  log "qpdf-objstm"
  qpdf --object-streams=generate --compress-streams=y "$out/classic.pdf" "$scratch/objstm.pdf"
  install_pdf qpdf-objstm "$scratch/objstm.pdf"
fi
if ! have qpdf-linearized; then
  log "qpdf-linearized"
  qpdf --linearize "$out/pdflatex.pdf" "$scratch/linearized.pdf"
  install_pdf qpdf-linearized "$scratch/linearized.pdf"
fi

# --- An existing XMP packet with dc:title and dc:creator (hyperref + hyperxmp).
tex_pdf hyperxmp pdflatex <<EOF
\documentclass{article}
\usepackage{hyperref}
\usepackage{hyperxmp}
\hypersetup{pdftitle={$title_bundle},pdfauthor={Ada Lovelace, Alan Turing},
  pdfkeywords={pipelines, training},pdfcopyright={CC-BY 4.0},pdflang=en}
\begin{document}
{\Large $title_bundle\par}
\section{Introduction} $filler
\end{document}
EOF

# --- XMP written by exiftool as an incremental update on the classic file.
if ! have exiftool-xmp; then
  log "exiftool-xmp"
  cp "$out/classic.pdf" "$scratch/exif.pdf"
  exiftool -q -overwrite_original "-XMP-dc:Title=$title_bundle" \
    '-XMP-dc:Creator=Ada Lovelace' '-XMP-dc:Creator=Alan Turing' "$scratch/exif.pdf" >/dev/null
  install_pdf exiftool-xmp "$scratch/exif.pdf"
fi

# --- An attachment (embedfile), besides which pith-bundle.json must live.
tex_pdf attachment pdflatex <<EOF
\documentclass{article}
\usepackage{embedfile}
\begin{filecontents*}[overwrite]{data.csv}
x,y
1,2
\end{filecontents*}
\embedfile[desc={Measurements},mimetype={text/csv}]{data.csv}
\pdfinfo{/Title ($title_bundle)}
\begin{document}
{\Large $title_bundle\par}
\section{Data} $filler
\end{document}
EOF

# --- The other paper's title (for "metadata copied into another paper").
tex_pdf other-title pdflatex <<EOF
\documentclass{article}
\pdfinfo{/Title ($title_record)}
\begin{document}
{\Large $title_record\par}
\section{Introduction} $filler
\end{document}
EOF

# --- A typical 10-page paper: title block, abstract, sections, maths, a
# table, references, hyperref links; the title comes from \title.
tex_pdf paper pdflatex 2 <<EOF
\documentclass[11pt]{article}
\usepackage{amsmath}
\usepackage{lipsum}
\usepackage[pdfusetitle]{hyperref}
\title{$title_bundle}
\author{Ada Lovelace \and Alan Turing}
\date{1 March 2021}
\begin{document}
\maketitle
\begin{abstract}\lipsum[1]\end{abstract}
\section{Introduction}\label{sec:intro} \lipsum[2-9] See Section~\ref{sec:method} and~\cite{ref1}.
\section{Method}\label{sec:method} \lipsum[10-17]
\begin{equation} L = \sum_{i=1}^{n} \frac{1}{2}\lVert x_i - y_i \rVert^2 \end{equation}
\lipsum[18-25]
\begin{table}[h]\centering\begin{tabular}{lrr}Model & Steps & Loss\\\\\hline A & 100 & 0.5\\\\ B & 200 & 0.4\end{tabular}\caption{Results}\end{table}
\section{Results} \lipsum[26-34]
\section{Conclusion} \lipsum[35-37]
\begin{thebibliography}{9}
\bibitem{ref1} A.~Author. \emph{A paper}. \url{https://example.org/ref1}, 2020.
\end{thebibliography}
\end{document}
EOF

# --- A large file: 1,200 pages made by a TeX loop (hyperref: a link per page).
tex_pdf large pdflatex <<EOF
\documentclass{article}
\usepackage[pdftitle={$title_bundle}]{hyperref}
\newcount\zoopage
\begin{document}
{\Large $title_bundle\par}
\loop
  \advance\zoopage by 1
  \section*{Chapter \the\zoopage}
  $filler \href{https://example.org/\the\zoopage}{Link \the\zoopage}.
  \newpage
\ifnum\zoopage<1200 \repeat
\end{document}
EOF

cat >"$out/zoo.tsv.tmp" <<EOF
file	pages	title	features
pdflatex.pdf	2	$title_bundle	xrefstream,objstm
classic.pdf	1	$title_bundle	classic
xelatex.pdf	1	$title_bundle	xrefstream,objstm,links
lualatex.pdf	1	$title_bundle	xrefstream,objstm,links
dvips.pdf	2	$title_bundle	classic,links,xmp
ghostscript.pdf	3	$title_bundle	classic,xmp
qpdf-objstm.pdf	1	$title_bundle	xrefstream,objstm
qpdf-linearized.pdf	2	$title_bundle	linearized,xrefstream,objstm
hyperxmp.pdf	1	$title_bundle	xrefstream,objstm,xmp
exiftool-xmp.pdf	1	$title_bundle	classic,incremental,xmp
attachment.pdf	1	$title_bundle	xrefstream,objstm,attachment
other-title.pdf	1	$title_record	xrefstream,objstm
paper.pdf	10	$title_bundle	xrefstream,objstm,links
large.pdf	1200	$title_bundle	xrefstream,objstm,links
EOF
mv -f "$out/zoo.tsv.tmp" "$out/zoo.tsv"
