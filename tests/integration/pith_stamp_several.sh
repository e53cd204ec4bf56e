#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# pith-stamp a.pdf b.pdf … (issue 33): each file stamped on its own, one
# line each, the worst exit code (1 > 2 > 4 > 3 > 0). A file that fails (not
# a PDF, no number, a .tex among PDFs) neither stops nor touches the others,
# wherever it stands in the list; --json is one object a line, each naming
# its input; -o with several files is a usage error that writes nothing.
set -euo pipefail

source "$(dirname "$0")/../support/scratch_env.sh"  # $work, $src, $bin, $data; offline, reproducible
need_tools pith-stamp
source "$src/tests/support/cli_expect.sh"  # fail MESSAGE, $failures
py=/usr/bin/python3

fixture_paper "$work/paper"
stamp=("$bin/pith-stamp" --offline --bundle "$bundle")
fresh() { cp "$work/paper/paper.pdf" "$work/$1"; }
echo "not a PDF at all" >"$work/garbage.pdf.src"

stamped() { grep -qa "<pith:number>$number</pith:number>" "$work/$1" || fail "$1 was not stamped"; }

# ---- a broken file first, in the middle, last: the others are stamped ------------
for at in 0 1 2; do
  names=(a.pdf c.pdf)
  fresh a.pdf
  fresh c.pdf
  cp "$work/garbage.pdf.src" "$work/b.pdf"
  list=("${names[@]:0:$at}" b.pdf "${names[@]:$at}")
  run 2 "three files, the broken one at $at" "${stamp[@]}" --pith "$number" "${list[@]/#/$work/}"
  stamped a.pdf
  stamped c.pdf
  cmp -s "$work/b.pdf" "$work/garbage.pdf.src" || fail "the broken file was changed"
  [[ $(wc -l <"$work/err") == 3 ]] || fail "not one line a file (broken at $at): $(cat "$work/err")"
  grep -q "a.pdf: stamped with $number" "$work/err" || fail "no line for a.pdf: $(cat "$work/err")"
  grep -q "c.pdf: stamped with $number" "$work/err" || fail "no line for c.pdf: $(cat "$work/err")"
  grep -q "b.pdf" "$work/err" || fail "no line for b.pdf: $(cat "$work/err")"
done

# ---- the worst exit code wins ----------------------------------------------------
fresh none.pdf  # no number: without --pith, exit 3
run 0 "already stamped, twice" "${stamp[@]}" "$work/a.pdf" "$work/c.pdf"
grep -c "already stamped with $number" "$work/err" | grep -qx 2 || fail "not two 'already stamped' lines: $(cat "$work/err")"
run 3 "stamped + no number" "${stamp[@]}" "$work/a.pdf" "$work/none.pdf"
run 2 "no number + not a PDF" "${stamp[@]}" "$work/none.pdf" "$work/b.pdf"
run 2 "not a PDF + no number" "${stamp[@]}" "$work/b.pdf" "$work/none.pdf"
run 1 "another number + no number + not a PDF" "$bin/pith-stamp" --offline --bundle "$bundle" \
  --pith pith:2020:WXNI57C2SJ24QK62DB7DTUREA3 "$work/a.pdf" "$work/none.pdf" "$work/b.pdf"

# ---- --json: one object a line ----------------------------------------------------
fresh d.pdf
run 3 "--json, two files" "${stamp[@]}" --json "$work/d.pdf" "$work/a.pdf"
"$py" - "$work/out" "$work" <<'PY' || fail "--json is not one object a line: $(cat "$work/out")"
import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert len(lines) == 2, lines
first, second = (json.loads(l) for l in lines)
assert first["input"].endswith("/d.pdf") and first["status"] == "no_number" and first["exit_code"] == 3, first
assert second["input"].endswith("/a.pdf") and second["status"] == "already_stamped", second
PY

# ---- refused before anything is read ----------------------------------------------
fresh e.pdf
cp "$work/e.pdf" "$work/e.before"
run 2 "-o with several files" "${stamp[@]}" --pith "$number" -o "$work/out.pdf" "$work/e.pdf" "$work/d.pdf"
grep -q -- "-o names one output" "$work/err" || fail "-o with several files does not say why: $(cat "$work/err")"
[[ ! -e $work/out.pdf ]] || fail "-o with several files wrote its output"
cmp -s "$work/e.pdf" "$work/e.before" || fail "-o with several files changed a file"
cp "$work/paper/paper.tex" "$work/t.tex"
run 2 "a .tex among PDFs" "${stamp[@]}" --pith "$number" "$work/t.tex" "$work/e.pdf"
grep -q "several files are stamped only when they are PDFs" "$work/err" || fail "the .tex is not refused: $(cat "$work/err")"
[[ ! -e $work/pith.sty ]] || fail "a .tex among PDFs got its pith.sty"
stamped e.pdf

((failures == 0)) || { echo "$failures failure(s)" >&2; exit 1; }
echo "ok: several files, each on its own, one line each, the worst exit code"
