#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 34: "seen" means the reader sees those letters. A page 1 whose text
# layer reads the record's title while its glyphs draw another paper's
# letters (tests/support/glyph_forgeries.py: a lying /ToUnicode, /ActualText
# over the other letters, a Type 3 font whose glyph names claim the record's
# letters and whose procedures draw others, a mix where only three words lie),
# stamped --force with the genuine record, is never verified: it fails with
# pdf.title.glyphs_mismatch, and --evidence writes the crop that was read.
# The controls verify with pdf.title.glyphs_match: the same construction
# drawing what it claims, and the genuine sample paper. (pdfTeX Type 1 and
# Type 3 bitmap fonts, small caps, ligatures, accents, math, XeLaTeX and
# LuaLaTeX: pdf_seen.sh's and latexmk_engines.sh's controls, which now pass
# the glyph check too.)
set -euo pipefail

source "$(dirname "$0")/../support/scratch_env.sh"  # $work, $src, $bin, $data; offline, reproducible
need_tools pith-check pith-stamp
py=/usr/bin/python3  # Debian's python3-pikepdf
bundle="$src/samples/registry/JFLLIOJUI2M3KX3FLLGP4N2V65.bundle.json"
title='Layered gradient accumulation and modular pipeline parallelism: fast and efficient training of large language models'
source "$src/tests/support/cli_expect.sh"  # fail MESSAGE, $failures

stamp() { "$bin/pith-stamp" --offline --force --bundle "$bundle" --pith pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65 "$@"; }
query() { $py -c 'import json, sys; r = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$work/last.json" "$1"; }
status_of() { query "[c['status'] for c in r['checks'] if c['code'] == '$1']"; }

for kind in honest tounicode actualtext type3 mix; do
  "$py" "$src/tests/support/glyph_forgeries.py" "$kind" "$work/$kind.pdf" "$title"
  # The text layer reads the record's title in every one of them.
  pdftotext -l 1 "$work/$kind.pdf" - | tr '\n' ' ' | grep -q "Layered gradient accumulation and modular pipeline" ||
    fail "$kind: the text layer does not claim the record's title"
  stamp -o "$work/s-$kind.pdf" "$work/$kind.pdf" 2>/dev/null || fail "$kind: pith-stamp --force"
  rc=0
  "$bin/pith-check" --offline --json "$work/s-$kind.pdf" >"$work/last.json" 2>"$work/stderr" || rc=$?
  if [[ $kind == honest ]]; then
    [[ $rc == 0 ]] || fail "honest: exit $rc, expected 0 (verified): $(cat "$work/stderr")"
    [[ $(status_of pdf.title.glyphs_match) == "['pass']" ]] || fail "honest: no pdf.title.glyphs_match pass"
  else
    [[ $rc == 1 ]] || fail "$kind: exit $rc, expected 1 (failed)"
    [[ $(status_of pdf.title.glyphs_mismatch) == "['fail']" ]] || fail "$kind: no pdf.title.glyphs_mismatch fail"
    [[ $(query "r['details']['bindings']['visible_title']['state']") == mismatch ]] || fail "$kind: the title binds"
    [[ $(query "r['verdict']") == failed ]] || fail "$kind: verdict is not failed"
  fi
done
# The mix: only three words lie, and they are named by what was read.
"$bin/pith-check" --offline --json "$work/s-mix.pdf" >"$work/last.json" || true
[[ $(query "[c['detail'] for c in r['checks'] if c['code'] == 'pdf.title.glyphs_mismatch'][0]") == *"letters differ"* ]] ||
  fail "mix: the detail does not give the figures"

# --evidence: the crop of what was read, for the forgery too.
rc=0
"$bin/pith-check" --offline --evidence "$work/evidence" "$work/s-tounicode.pdf" >"$work/human" 2>"$work/stderr" || rc=$?
[[ $rc == 1 ]] || fail "--evidence: exit $rc, expected 1: $(cat "$work/stderr")"
png="$work/evidence/s-tounicode.page1.png"
[[ -s $png && $(head -c 8 "$png" | od -An -c | tr -d ' ') == '211PNG\r\n032\n' ]] || fail "--evidence: no crop of what was read"

# The genuine sample paper still verifies, its glyphs read as its letters.
if [[ -f $src/zoo/paper.pdf ]]; then
  "$bin/pith-stamp" --offline --bundle "$bundle" --pith pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65 -o "$work/paper.pdf" \
    "$src/zoo/paper.pdf" 2>/dev/null || fail "stamping zoo/paper.pdf"
  rc=0
  "$bin/pith-check" --offline --json "$work/paper.pdf" >"$work/last.json" || rc=$?
  [[ $rc == 0 && $(status_of pdf.title.glyphs_match) == "['pass']" ]] || fail "zoo/paper.pdf: exit $rc, no glyphs_match"
fi

((failures == 0)) || { echo "$failures failure(s)" >&2; exit 1; }
echo "ok: every mapping lie fails pdf.title.glyphs_mismatch, the controls verify, the crop is written"
