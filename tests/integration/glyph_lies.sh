#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 34: "seen" means the reader sees those letters. Another paper's page 1
# gets a title block whose text layer claims the record's title while its ink
# shows other letters (tests/support/glyph_lies.py: a lying /ToUnicode, Type 3
# glyph procedures named after other letters, an embedded TrueType font whose
# glyphs have other letters' outlines, an /ActualText span scaled to fit, a
# mix where only the last three words lie), stamped --force with the genuine
# record: never verified, never exit 0. The control, the same block drawn
# truly in the same font, verifies.
set -euo pipefail

source "$(dirname "$0")/../support/scratch_env.sh"  # $work, $src, $bin, $data; offline, reproducible
need_tools pith-check pith-stamp
source "$src/tests/support/cli_expect.sh"  # fail MESSAGE, $failures
py=/usr/bin/python3  # Debian's python3-pikepdf and python3-fonttools
bundle="$src/samples/registry/JFLLIOJUI2M3KX3FLLGP4N2V65.bundle.json"
title='Layered gradient accumulation and modular pipeline parallelism: fast and efficient training of large language models'

mkdir -p "$work/cats"
cat >"$work/cats/paper.tex" <<'TEX'
\documentclass{article}
\usepackage[T1]{fontenc}\usepackage{lmodern}
\title{Cats and their discontents}
\author{A. Author}
\date{1 March 2021}
\begin{document}
\maketitle
\begin{abstract}
An abstract that is not the record's.
\end{abstract}
\section{Introduction}
Text of the paper.
\end{document}
TEX
(cd "$work/cats" && pdflatex -interaction=batchmode paper.tex >/dev/null) || fail "the other paper did not build"

for kind in honest tounicode type3 truetype actualtext mixed; do
  "$py" "$src/tests/support/glyph_lies.py" "$kind" "$work/cats/paper.pdf" "$work/h-$kind.pdf" "$title" ||
    fail "$kind: glyph_lies.py failed"
  "$bin/pith-stamp" --offline --force --bundle "$bundle" --pith pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65 \
    -o "$work/f-$kind.pdf" "$work/h-$kind.pdf" 2>/dev/null || fail "$kind: pith-stamp --force failed"
  rc=0
  "$bin/pith-check" --offline --json "$work/f-$kind.pdf" >"$work/$kind.json" 2>"$work/$kind.err" || rc=$?
  verdict=$("$py" -c 'import json,sys; print(json.load(open(sys.argv[1]))["verdict"])' "$work/$kind.json")
  if [[ $kind == honest ]]; then
    ((rc == 0)) && [[ $verdict == verified ]] || fail "honest: the true drawing does not verify (exit $rc, $verdict)"
  else
    ((rc != 0)) && [[ $verdict != verified ]] || fail "$kind: the lying glyphs verify (exit $rc, $verdict)"
    echo "$kind: $verdict, exit $rc"
  fi
done
((failures == 0)) || exit 1
echo "ok: glyphs that show other letters than they claim never verify"
