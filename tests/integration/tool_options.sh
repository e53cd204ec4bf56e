#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Options parse the same way in the three tools (issue 26): --trust-key FILE
# takes one FILE, before or after the input, repeatable; pith-stamp's used to
# swallow the paper that followed it ("nothing to stamp"). And pith-stamp
# paper.tex reads a \title broken with \\ as the record's title (no "could
# not confirm" warning), and says why when it cannot read one. No LaTeX run.
set -euo pipefail
source "$(dirname "$0")/../support/scratch_env.sh"  # $work, $src, $bin, $data; offline, reproducible
need_tools pith-check pith-stamp pith-serve
source "$src/tests/support/cli_expect.sh"  # fail, $failures

title='Sparse attention at scale for long documents'
"$signer" --output key >"$work/key.json"
"$signer" --title "$title" >"$work/bundle.json"
number=$("$signer" --title "$title" --output number)
body=${number##*:}
# paper TITLE: paper.tex with this \title (a fresh directory, no pith.sty yet).
paper() {
  rm -rf "$work/p" && mkdir "$work/p"
  printf '%s\n' '\documentclass{article}' '\usepackage{pith}' "\\pithnumber{$body}" "\\title{$1}" \
    '\begin{document}\maketitle\end{document}' >"$work/p/paper.tex"
}
# run NAME TOOL ARGS...: runs a tool, keeping its status and output in $work/NAME.*
run() {
  local name=$1 tool=$2 status=0
  shift 2
  "$bin/$tool" "$@" >"$work/$name.out" 2>"$work/$name.err" </dev/null || status=$?
  echo "$status" >"$work/$name.status"
}
status_of() { cat "$work/$1.status"; }

# 1. --trust-key before the input, after it, and twice: the same outcome.
paper 'Sparse attention\\ at scale for long documents'
for order in before after twice; do
  rm -f "$work/p/pith.sty"
  case $order in
    before) run stamp-$order pith-stamp --trust-key "$work/key.json" "$work/p/paper.tex" --bundle "$work/bundle.json" ;;
    after) run stamp-$order pith-stamp "$work/p/paper.tex" --bundle "$work/bundle.json" --trust-key "$work/key.json" ;;
    twice) run stamp-$order pith-stamp --trust-key "$work/key.json" --trust-key "$work/key.json" "$work/p/paper.tex" \
             --bundle "$work/bundle.json" ;;
  esac
  [[ $(status_of stamp-$order) == 0 ]] || fail "pith-stamp, --trust-key $order the paper: exit $(status_of stamp-$order): $(cat "$work/stamp-$order.err")"
  [[ -f "$work/p/pith.sty" ]] || fail "pith-stamp, --trust-key $order the paper: no pith.sty written"
  run check-$order pith-check --offline --trust-key "$work/key.json" "$work/bundle.json"
  [[ $order == after ]] && run check-$order pith-check --offline "$work/bundle.json" --trust-key "$work/key.json"
  [[ $order == twice ]] && run check-$order pith-check --offline --trust-key "$work/key.json" --trust-key "$work/key.json" "$work/bundle.json"
  [[ $(status_of check-$order) == 0 ]] || fail "pith-check, --trust-key $order the input: exit $(status_of check-$order)"
done
# One FILE per --trust-key in every tool: a second word is an input (pith-serve has none).
run serve-extra pith-serve --trust-key "$work/key.json" "$work/bundle.json"
[[ $(status_of serve-extra) == 2 ]] || fail "pith-serve --trust-key KEY EXTRA: exit $(status_of serve-extra), not 2"
grep -q "bundle.json" "$work/serve-extra.err" || fail "pith-serve does not name the unexpected argument: $(cat "$work/serve-extra.err")"

# 2. \title{...\\ ...} is the record's title: no warning (it said "the PDF has no title").
grep -q 'could not confirm' "$work/stamp-before.err" && fail "a \\\\ in \\title still warns: $(cat "$work/stamp-before.err")"
# A title pith-stamp cannot read as text: the warning says what stopped it.
paper 'Sparse attention at scale for long documents in $O(n)$'
run math pith-stamp "$work/p/paper.tex" --bundle "$work/bundle.json" --trust-key "$work/key.json"
[[ $(status_of math) == 0 ]] || fail "a math title: exit $(status_of math)"
grep -q 'could not confirm.*\\title: holds math' "$work/math.err" || fail "a math title: the warning does not say why: $(cat "$work/math.err")"
grep -q 'the PDF has no title' "$work/math.err" && fail "a .tex is called a PDF: $(cat "$work/math.err")"
# Another paper's plain title is still refused.
paper 'Dense attention at small scale'
run other pith-stamp "$work/p/paper.tex" --bundle "$work/bundle.json" --trust-key "$work/key.json"
[[ $(status_of other) == 1 ]] || fail "another paper's title: exit $(status_of other), not 1"

((failures == 0)) || exit 1
echo "ok: --trust-key before/after/twice in pith-stamp and pith-check; \\title with \\\\ binds; unreadable titles say why"
