#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 32: a check of one PDF reads page 1's text in a child of its own,
# beside the child reading the rest of the facts, so the record is verified
# while page 1 is read; a run of several files keeps one child per file at a
# time (-j), as before. Counted with strace:
# - one PDF: two children, and the same report as with one (-j 1 on two
#   copies: the first file's line is the single check's);
# - two PDFs at -j 1: one worker;
# - one registry file (not a PDF): one child, none for page 1.
# And a page-1 reader stopped by its memory budget makes the check
# unverifiable naming the budget, as when one child read it all; a file
# changed between the two children's reads gets no verdict (exit 2).
set -euo pipefail

source "$(dirname "$0")/../support/scratch_env.sh"  # $work, $src, $bin, $data; offline, reproducible
need_tools pith-stamp pith-check
source "$src/tests/support/cli_expect.sh"  # fail MESSAGE, $failures
command -v strace >/dev/null && strace -qq -e trace=none true 2>/dev/null ||
  { echo "note: no strace, or it may not trace here (scripts/install-deps test): the children are not counted"; exit 0; }
(($(nproc) >= 2)) || { echo "note: one core: page 1 is read by the facts' child itself"; exit 0; }

check=("$bin/pith-check" --offline)
# forks WANT WHAT ARGS...: pith-check ARGS forks exactly WANT children.
forks() {
  local want=$1 what=$2 n
  shift 2
  n=$(strace -f -qq -e trace=clone,clone3,fork,vfork "$@" 2>&1 >/dev/null </dev/null | grep clone | grep -vc CLONE_THREAD || true)
  ((n == want)) || fail "$what: $n children forked, expected $want"
}

fixture_paper "$work/paper"
"$bin/pith-stamp" --offline --bundle "$bundle" --pith "$number" -o "$work/stamped.pdf" "$work/paper/paper.pdf" 2>/dev/null ||
  fail "the fixture paper could not be stamped"
cp "$work/stamped.pdf" "$work/copy.pdf"

forks 2 "one PDF" "${check[@]}" -q "$work/stamped.pdf"
forks 1 "two PDFs at -j 1" "${check[@]}" -q -j 1 "$work/stamped.pdf" "$work/copy.pdf"
forks 1 "one registry file" "${check[@]}" -q "$bundle"

# The same report, one child or two: --json's first line for the pair is the single check's.
"${check[@]}" --json "$work/stamped.pdf" >"$work/single.json" || fail "the stamped fixture does not verify: $(cat "$work/single.json")"
"${check[@]}" --json -j 1 "$work/stamped.pdf" "$work/copy.pdf" >"$work/pair.jsonl" || fail "the pair does not verify"
/usr/bin/python3 - "$work/single.json" "$work/pair.jsonl" <<'PY' || fail "the single check's report differs from the one-child report"
import json, sys
single = json.load(open(sys.argv[1]))
first = json.loads(open(sys.argv[2]).readline())
for report in (single, first):
    report.pop("seconds", None)
assert single["verdict"] == "verified", single["verdict"]
assert single == first, [k for k in single if single.get(k) != first.get(k)]
PY

# Page 1's reader past its memory budget: unverifiable (exit 4), naming the budget and the option.
rc=0
"${check[@]}" --child-memory 16 "$work/stamped.pdf" >"$work/out" 2>&1 || rc=$?
((rc == 4)) || fail "--child-memory 16: exit $rc, expected 4: $(cat "$work/out")"
grep -q "exceeded the memory limit of 16 MiB" "$work/out" || fail "--child-memory 16 does not name the budget: $(cat "$work/out")"

# A file changed between the two children's reads gets no verdict. Page 1 of
# 10 M operators keeps the page-text child at work for ~0.3 s: once both
# children exist (the file's state was taken before they were forked), the
# file's time is changed under them.
/usr/bin/python3 "$src/tests/support/hostile_pages_pdf.py" operators "$work/busy.pdf"
"${check[@]}" "$work/busy.pdf" >"$work/race.out" 2>&1 &
checker=$!
for _ in $(seq 200); do
  children=$(grep -l "^PPid:[[:space:]]*$checker\$" /proc/[0-9]*/status 2>/dev/null | wc -l || true)
  ((children >= 2)) && break
  sleep 0.01
done
touch "$work/busy.pdf"
rc=0
wait "$checker" || rc=$?
((rc == 2)) || fail "a file changed while it was checked: exit $rc, expected 2: $(cat "$work/race.out")"
grep -q "busy.pdf: the file changed while it was checked: check it again once nothing writes it" "$work/race.out" ||
  fail "a file changed while it was checked is not named: $(cat "$work/race.out")"

((failures == 0)) || { echo "$failures failure(s)" >&2; exit 1; }
echo "ok: one PDF is checked by two children (page 1 beside the facts), several by one each, with the same reports"
