#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 34's cost: the shape memory (check/shape_memory.hpp). A title OCR has
# read once is read again from its glyphs' outlines, without OCR: proven by
# checking with OCR made impossible (TESSDATA_PREFIX naming no model), which
# without the memory leaves the title unread (unbound). The report is the
# same bytes either way. The memory only ever confirms: with it warm, every
# mapping lie still fails (OCR decides), and with OCR impossible none
# verifies; ink the outlines do not account for (a bar drawn on a letter, a
# clip that cuts the line) sends the line to OCR. A damaged or unwritable
# memory file changes nothing but the time.
set -euo pipefail

source "$(dirname "$0")/../support/scratch_env.sh"  # $work, $src, $bin, $data; offline, reproducible
need_tools pith-check pith-stamp
source "$src/tests/support/cli_expect.sh"  # fail MESSAGE, $failures
py=/usr/bin/python3  # Debian's python3-pikepdf
bundle="$src/samples/registry/JFLLIOJUI2M3KX3FLLGP4N2V65.bundle.json"
title='Layered gradient accumulation and modular pipeline parallelism: fast and efficient training of large language models'
memory="$XDG_CACHE_HOME/pith-shapes/memory"

stamp() { "$bin/pith-stamp" --offline --force --bundle "$bundle" --pith pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65 "$@"; }
check() { "$bin/pith-check" --offline --json "$@"; }
without_ocr() { TESSDATA_PREFIX="$work/no-tessdata" "$@"; }
verdict_of() { "$py" -c 'import json,sys; print(json.load(open(sys.argv[1]))["verdict"])' "$1"; }

for kind in honest tounicode actualtext type3 mix; do
  "$py" "$src/tests/support/glyph_forgeries.py" "$kind" "$work/$kind.pdf" "$title"
  stamp -o "$work/s-$kind.pdf" "$work/$kind.pdf" 2>/dev/null || fail "$kind: pith-stamp --force"
done
# Ink the outlines do not account for, on the honest page: a bar over the
# first letter, and a clip that cuts the first line in two.
"$py" - "$work/honest.pdf" "$work" <<'PY'
import sys, pikepdf
source, out = sys.argv[1], sys.argv[2]
for name, before, after in (("bar", b"", b"\n0 g 70 724 14 2 re f"),
                            ("clip", b"q 0 0 612 726 re 0 740 612 52 re W n\n", b"\nQ")):
    pdf = pikepdf.open(source)
    page = pdf.pages[0]
    page.obj.Contents = pdf.make_stream(before + page.obj.Contents.read_bytes() + after)
    pdf.save(f"{out}/{name}.pdf")
PY
for kind in bar clip; do stamp -o "$work/s-$kind.pdf" "$work/$kind.pdf" 2>/dev/null || fail "$kind: pith-stamp --force"; done

# No memory yet, no OCR: the title cannot be read, and does not bind.
rc=0
without_ocr check "$work/s-honest.pdf" >"$work/none.json" 2>/dev/null || rc=$?
[[ $(verdict_of "$work/none.json") == unbound ]] || fail "without memory or OCR: $(verdict_of "$work/none.json"), expected unbound"
[[ ! -s $memory ]] || fail "a reading that could not be made taught the memory"

# OCR reads it once, and teaches the memory.
check "$work/s-honest.pdf" >"$work/ocr.json" || fail "honest: not verified by OCR"
[[ -s $memory ]] || fail "the OCR reading taught nothing ($memory)"
[[ ! -e $XDG_CACHE_HOME/pith ]] || fail "the memory was written into the record cache, which --offline never writes"
grep -Eqv '^[0-9a-f]{64} [a-z0-9]*$' "$memory" && fail "the memory holds a line of another form"
learnt=$(wc -l <"$memory")
((learnt >= 5)) || fail "only $learnt glyph shapes learnt (the seed knows some of Helvetica's substitute)"

# Then without OCR: the memory reads it, and the report is the same bytes.
rc=0
without_ocr check "$work/s-honest.pdf" >"$work/memory.json" 2>"$work/stderr" || rc=$?
((rc == 0)) || fail "honest, from memory: exit $rc ($(verdict_of "$work/memory.json"))"
cmp -s "$work/ocr.json" "$work/memory.json" || fail "the report read from memory differs from the report read by OCR"
[[ $(wc -l <"$memory") == "$learnt" ]] || fail "a reading from memory taught the memory again"

# Warm memory: every lie still fails by OCR, and never verifies without it.
for kind in tounicode actualtext type3 mix; do
  rc=0
  check "$work/s-$kind.pdf" >"$work/$kind.json" 2>/dev/null || rc=$?
  ((rc == 1)) && [[ $(verdict_of "$work/$kind.json") == failed ]] ||
    fail "$kind with a warm memory: exit $rc, $(verdict_of "$work/$kind.json"), expected failed"
  rc=0
  without_ocr check "$work/s-$kind.pdf" >"$work/$kind-no-ocr.json" 2>/dev/null || rc=$?
  ((rc != 0)) && [[ $(verdict_of "$work/$kind-no-ocr.json") != verified ]] || fail "$kind verifies from memory"
done
# Ink beside the outlines: not read from memory (unbound without OCR); OCR decides.
for kind in bar clip; do
  rc=0
  without_ocr check "$work/s-$kind.pdf" >"$work/$kind.json" 2>/dev/null || rc=$?
  [[ $(verdict_of "$work/$kind.json") != verified ]] || fail "$kind: read from memory, though the outlines are not all that is drawn"
done

# pdfTeX's Type 3 bitmap fonts (T1 without outlines): a glyph is keyed by
# its procedure's bytes, read from memory once OCR read it.
mkdir -p "$work/t1"
printf '%s\n' '\documentclass{article}' '\usepackage[T1]{fontenc}' "\\title{$title}" '\author{A. Author}' \
  '\date{}' '\begin{document}' '\maketitle' 'Text.' '\end{document}' >"$work/t1/paper.tex"
(cd "$work/t1" && pdflatex -interaction=batchmode paper.tex >/dev/null) || fail "the T1 paper did not build"
if pdffonts "$work/t1/paper.pdf" | grep -q "Type 3"; then
  stamp -o "$work/s-t1.pdf" "$work/t1/paper.pdf" 2>/dev/null || fail "t1: pith-stamp"
  check "$work/s-t1.pdf" >"$work/t1.json" || fail "t1: not verified by OCR"
  rc=0
  without_ocr check "$work/s-t1.pdf" >"$work/t1-memory.json" 2>/dev/null || rc=$?
  ((rc == 0)) || fail "t1 (Type 3 bitmap glyphs), from memory: exit $rc ($(verdict_of "$work/t1-memory.json"))"
else
  echo "note: this TeX Live draws T1 with outline fonts; the Type 3 case was not run"
fi

# The seed (scripts/shape-seed): Latin Modern, typeset now, is read on first
# sight with an empty memory and no OCR (its keys still those of the seed).
mkdir -p "$work/lm"
printf '%s\n' '\documentclass{article}' '\usepackage[T1]{fontenc}\usepackage{lmodern}' "\\title{$title}" \
  '\author{A. Author}' '\date{}' '\begin{document}' '\maketitle' 'Text.' '\end{document}' >"$work/lm/paper.tex"
(cd "$work/lm" && pdflatex -interaction=batchmode paper.tex >/dev/null) || fail "the Latin Modern paper did not build"
stamp -o "$work/s-lm.pdf" "$work/lm/paper.pdf" 2>/dev/null || fail "lm: pith-stamp"
rc=0
XDG_CACHE_HOME="$work/empty-cache" without_ocr check "$work/s-lm.pdf" >"$work/lm.json" 2>/dev/null || rc=$?
((rc == 0)) || fail "Latin Modern from the seed alone: exit $rc ($(verdict_of "$work/lm.json")): rerun scripts/shape-seed?"
[[ ! -e $work/empty-cache/pith-shapes/memory ]] || fail "a reading from the seed taught the memory"

# A damaged memory file (junk, a line cut short) is passed over; an
# unwritable one only costs the time.
printf 'junk\n\0\377%s\n%064d' "$(head -c 40 /dev/urandom | od -An -tx1 | tr -d ' \n')" 7 >>"$memory"
rc=0
without_ocr check "$work/s-honest.pdf" >"$work/damaged.json" 2>/dev/null || rc=$?
((rc == 0)) || fail "a damaged memory file: exit $rc"
rm -rf "$XDG_CACHE_HOME/pith-shapes" && printf 'a file where the directory goes\n' >"$XDG_CACHE_HOME/pith-shapes"
check "$work/s-honest.pdf" >"$work/unwritable.json" 2>"$work/stderr" || fail "an unwritable memory: $(cat "$work/stderr")"
cmp -s "$work/ocr.json" "$work/unwritable.json" || fail "an unwritable memory changed the report"

((failures == 0)) || { echo "$failures failure(s)" >&2; exit 1; }
echo "ok: a title OCR read once is read from its outlines, with the same report; the memory never verifies a lie"
