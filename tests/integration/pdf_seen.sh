#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 22: `verified` only for what a reader sees. Every attack of the
# issue, made here from real PDFs (tests/support/forgeries.py), is never
# exit 0: another paper ("Cats and their discontents") carrying the genuine
# record's title where no viewer shows it (white, 0.05 pt, render mode 3,
# painted over, behind an image, clipped, under an annotation, outside the
# CropBox, in optional content set OFF, squeezed, drawn invisibly or in white
# exactly over its own visible title), then stamped --force with the record;
# a zero-size arXiv link, arXiv's watermark in white or at 0.05 pt; only the
# title metadata set to the record's; the genuine stamped paper with page 1
# swapped by a later incremental update (a white page and another title; the
# badge annotation redefined as a full-page overlay). The controls verify:
# the genuine paper stamped with and without --badge, after qpdf
# --linearize, with arXiv's watermark for v1 and for v2 (the version
# warning), with a reader's note added later; pith-stamp agrees with
# pith-check on what page 1 shows; --evidence writes the crop a reader sees.
# (The sample on every engine: latexmk_engines.sh and pdf_bindings.sh.)
set -euo pipefail

source "$(dirname "$0")/../support/scratch_env.sh"  # $work, $src, $bin, $data; offline, reproducible
need_tools pith-check pith-stamp
py=/usr/bin/python3  # Debian's python3-pikepdf
forge=("$py" "$src/tests/support/forgeries.py")
bundle="$src/samples/registry/JFLLIOJUI2M3KX3FLLGP4N2V65.bundle.json"
title='Layered gradient accumulation and modular pipeline parallelism: fast and efficient training of large language models'
source "$src/tests/support/cli_expect.sh"  # fail MESSAGE, $failures

# paper NAME TITLE: a one-page article with that title, built with pdflatex
# (no pith.sty: pith-stamp writes everything, and --badge adds its badge).
paper() {
  mkdir -p "$work/$1"
  cat >"$work/$1/paper.tex" <<TEX
\\documentclass{article}
\\usepackage[T1]{fontenc}\\usepackage{lmodern}
\\title{$2}
\\author{A. Author}
\\date{1 March 2021}
\\begin{document}
\\maketitle
\\begin{abstract}
An abstract that is not the record's.
\\end{abstract}
\\section{Introduction}
Text of the paper.
\\end{document}
TEX
  (cd "$work/$1" && pdflatex -interaction=batchmode paper.tex >/dev/null) || fail "$1 did not build"
}
paper genuine "$title"
paper cats 'Cats and their discontents'

stamp() { "$bin/pith-stamp" --offline --bundle "$bundle" --pith pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65 "$@"; }
# check FILE EXIT [CODE STATUS]...: pith-check's exit, and checks it must hold.
check() {
  local file=$1 want=$2 rc=0
  shift 2
  "$bin/pith-check" --offline --json "$file" >"$work/last.json" 2>"$work/stderr" || rc=$?
  [[ $rc == "$want" ]] || fail "$(basename "$file"): exit $rc, expected $want: $(cat "$work/stderr") $(codes)"
  while (($# >= 2)); do
    [[ $(query "any(c['code'] == '$1' and c['status'] == '$2' for c in r['checks'])") == True ]] ||
      fail "$(basename "$file"): no check $1 with status $2: $(codes)"
    shift 2
  done
}
query() { $py -c 'import json, sys; r = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$work/last.json" "$1"; }
codes() { query "[(c['code'], c['status']) for c in r['checks'] if c['code'].startswith('pdf.')]" 2>/dev/null || true; }

# ---- controls: the genuine paper verifies -----------------------------------
stamp -o "$work/g.pdf" "$work/genuine/paper.pdf" || fail "stamping the genuine paper"
check "$work/g.pdf" 0 pdf.title.visible_match pass
[[ $(query "r['details']['bindings']['visible_title']['region']['page']") == 1 ]] || fail "no region for the seen title"
stamp --badge -o "$work/g-badge.pdf" "$work/genuine/paper.pdf" || fail "stamping with --badge"
check "$work/g-badge.pdf" 0 pdf.title.visible_match pass pdf.bytes.later_revisions pass
qpdf --linearize "$work/g.pdf" "$work/g-linearized.pdf"
check "$work/g-linearized.pdf" 0 pdf.bytes.rewritten warn pdf.title.visible_match pass
"${forge[@]}" watermark "$work/g.pdf" "$work/g-v1.pdf" 2106.02679v1
check "$work/g-v1.pdf" 0 pdf.arxiv.match pass pdf.title.visible_match pass
"${forge[@]}" watermark "$work/g.pdf" "$work/g-v2.pdf" 2106.02679v2
check "$work/g-v2.pdf" 0 pdf.arxiv.match pass pdf.arxiv.other_version warn
grep -q 'this PDF is v2 of arXiv:2106.02679; the record registers arXiv:2106.02679v1' "$work/last.json" ||
  fail "the v2 warning does not say which version is which"
"${forge[@]}" add-note "$work/g-badge.pdf" "$work/g-note.pdf"
check "$work/g-note.pdf" 0 pdf.page1.changed_after_stamping warn pdf.title.visible_match pass

# ---- the other paper, the record's title hidden on its page 1 ---------------
for how in white tiny invisible painted behind-image clipped over-title white-over annotation cropped ocg-off squeezed; do
  "${forge[@]}" "$how" "$work/cats/paper.pdf" "$work/h-$how.pdf" "$title"
  stamp --force -o "$work/f-$how.pdf" "$work/h-$how.pdf" 2>/dev/null || fail "$how: pith-stamp --force"
  check "$work/f-$how.pdf" 4
  [[ $(query "r['details']['bindings']['visible_title']['state']") != match ]] || fail "$how: the hidden title binds"
done
# The text layer has it, a reader does not see it: said so, with why.
check "$work/f-white.pdf" 4 pdf.title.visible_hidden warn
grep -q 'not visible against what lies beneath' "$work/last.json" || fail "white: the reason is not given"
check "$work/f-tiny.pdf" 4 pdf.title.visible_hidden warn
grep -q 'too small to read' "$work/last.json" || fail "tiny: the reason is not given"

# ---- arXiv: a link alone, or a watermark no one sees, binds nothing ----------
for how in zero-link wm-white wm-tiny; do
  "${forge[@]}" "$how" "$work/cats/paper.pdf" "$work/a-$how.pdf" 2106.02679v1
  stamp --force -o "$work/f-$how.pdf" "$work/a-$how.pdf" 2>/dev/null || fail "$how: pith-stamp --force"
  check "$work/f-$how.pdf" 4
done
check "$work/f-zero-link.pdf" 4 pdf.arxiv.link_only skip
check "$work/f-wm-white.pdf" 4 pdf.arxiv.hidden warn

# ---- only the metadata title is the record's -----------------------------------
cp "$work/cats/paper.pdf" "$work/m.pdf"
exiftool -q -overwrite_original -Title="$title" "$work/m.pdf"
stamp -o "$work/f-metadata.pdf" "$work/m.pdf" 2>"$work/stderr" || fail "metadata-only: pith-stamp refused it: $(cat "$work/stderr")"
check "$work/f-metadata.pdf" 4 pdf.title.match pass pdf.title.visible_not_found warn
"$bin/pith-check" --offline "$work/f-metadata.pdf" >"$work/human" || true
grep -q 'title metadata alone never binds' "$work/human" || fail "metadata-only: the human report does not say why"

# ---- page 1 swapped by a later incremental update -------------------------------
"${forge[@]}" swap-page "$work/g.pdf" "$work/f-swap-page.pdf" 'Cats and their discontents'
check "$work/f-swap-page.pdf" 4 pdf.bytes.prefix_intact pass pdf.page1.changed_after_stamping warn \
  pdf.title.visible_hidden warn
"${forge[@]}" swap-badge "$work/g-badge.pdf" "$work/f-swap-badge.pdf" 'Cats and their discontents'
check "$work/f-swap-badge.pdf" 4 pdf.page1.changed_after_stamping warn pdf.title.visible_hidden warn
grep -q 'its annotations' "$work/last.json" || fail "swap-badge: the changed annotation is not named"

# ---- two genuine kinds that used to be unbound ------------------------------
# Small capitals (arxiv.sty's title: Times, \sc; the text layer read
# "N ECESSARY AND S UFFICIENT"), and pdfTeX's Type 3 bitmap fonts (T1
# without cm-super or lmodern: its ligatures read as control characters).
signer="${PITH_TEST_SIGN:-$bin/../tests/pith-test-sign}"
key="$src/tests/data/test-signing-key.json"
kind() {  # NAME TITLE PREAMBLE TITLE-MARKUP
  "$signer" --title "$2" --arxiv 2601.0000${#1} --version 1 >"$work/$1.json"
  mkdir -p "$work/$1"
  printf '%s\n' '\documentclass{article}' "$3" '\begin{document}' '\begin{center}' "$4" '\end{center}' \
    'Text of the paper.' '\end{document}' >"$work/$1/paper.tex"
  (cd "$work/$1" && pdflatex -interaction=batchmode paper.tex >/dev/null) || fail "$1 did not build"
  local number
  number=$("$signer" --title "$2" --arxiv 2601.0000${#1} --version 1 --output number)
  "$bin/pith-stamp" --offline --trust-key "$key" --bundle "$work/$1.json" --pith "$number" -o "$work/$1.pdf" \
    "$work/$1/paper.pdf" 2>/dev/null ||
    fail "$1: pith-stamp"
  "$bin/pith-check" --offline --trust-key "$key" --json "$work/$1.pdf" >"$work/last.json" || fail "$1: not verified: $(codes)"
}
kind smallcaps 'Necessary and Sufficient Conditions for Sparse Recovery' \
  '\usepackage[T1]{fontenc}\renewcommand{\rmdefault}{ptm}' \
  '{\LARGE\sc Necessary and Sufficient Conditions for Sparse Recovery\par}'
kind type3 'Efficient fine-tuning of affine flows for differential equations' '\usepackage[T1]{fontenc}' \
  '{\LARGE Efficient fine-tuning of affine flows for differential equations\par}'
# The glyph check (issue 34) reads these titles' drawn letters as their text layer's.
glyphs_read() { [[ $(query "[c['status'] for c in r['checks'] if c['code'] == 'pdf.title.glyphs_match']") == "['pass']" ]] || fail "$1: $(codes)"; }
glyphs_read type3
kind accent 'Étude des équations différentielles à coefficients périodiques' '\usepackage[T1]{fontenc}\usepackage{lmodern}' \
  '{\LARGE Étude des équations différentielles à coefficients périodiques\par}'
glyphs_read accent
kind mathsym 'Sorting in O(n log n) time with k-wise independent hashing' '' \
  '{\LARGE Sorting in $O(n \log n)$ time with $k$-wise independent hashing\par}'
glyphs_read mathsym
kind ligature 'The official affine shuffle: fluffy waffles and difficult offers' '\usepackage[T1]{fontenc}\usepackage{lmodern}' \
  '{\LARGE The official affine shuffle: fluffy waffles and difficult offers\par}'
glyphs_read ligature

# ---- pith-stamp reads page 1 as pith-check does ----------------------------------
rc=0
stamp -o "$work/s-white.pdf" "$work/h-white.pdf" 2>"$work/stderr" || rc=$?
grep -q 'could not confirm' "$work/stderr" || fail "pith-stamp took the hidden title as shown: $(cat "$work/stderr")"

# ---- evidence: the crop of page 1 where the binding was seen ----------------------
rc=0
"$bin/pith-check" --offline --evidence "$work/evidence" "$work/g.pdf" "$work/g-v2.pdf" "$work/f-white.pdf" \
  >"$work/human" 2>"$work/stderr" || rc=$?
[[ $rc == 4 ]] && ! grep -q -- --evidence "$work/stderr" || fail "--evidence: exit $rc (expected 4, the forgery's): $(cat "$work/stderr")"
grep -q "^  evidence: $work/evidence/g.page1.png (the record's title as a reader sees it on page 1)" "$work/human" ||
  fail "--evidence: the report does not name the file"
for f in g g-v2; do
  png="$work/evidence/$f.page1.png"
  [[ -s $png && $(head -c 8 "$png" | od -An -c | tr -d ' ') == '211PNG\r\n032\n' ]] || fail "--evidence: no PNG for $f"
done
[[ ! -e $work/evidence/f-white.page1.png ]] || fail "--evidence: a crop for a PDF nothing binds"
cp "$work/evidence/g.page1.png" "$work/first.png"
"$bin/pith-check" --offline --evidence "$work/evidence" "$work/g.pdf" >/dev/null
cmp -s "$work/first.png" "$work/evidence/g.page1.png" || fail "--evidence: not the same bytes twice"

((failures == 0)) || { echo "$failures failure(s)" >&2; exit 1; }
echo "ok: every forgery unbound, the controls verified, pith-stamp and pith-check agree, evidence written"
