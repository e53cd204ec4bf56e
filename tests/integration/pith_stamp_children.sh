#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 32: pith-stamp forks each child at its floor. pith-check's word on a
# PDF that already carries the record ("already stamped" only when it says
# verified; a stamp kept offline) comes from the examining worker, which
# holds the PDF parsed: no child of its own. Counted with strace:
# - already stamped, with and without --force: one child (the examining worker);
# - refused because pith-check says failed: one; with --force, two (page 1
#   drawn beside);
# - kept while the registry is unreachable: one;
# - a fresh stamp: two.
# The messages are already_stamped.sh's; here only the forks are counted.
set -euo pipefail

source "$(dirname "$0")/../support/scratch_env.sh"  # $work, $src, $bin, $data; offline, reproducible
need_tools pith-stamp
source "$src/tests/support/cli_expect.sh"  # fail MESSAGE, $failures
command -v strace >/dev/null && strace -qq -e trace=none true 2>/dev/null ||
  { echo "note: no strace, or it may not trace here (scripts/install-deps test): the children are not counted"; exit 0; }

stamp=("$bin/pith-stamp" --offline --bundle "$bundle" --pith "$number")
# forks WANT WHAT ARGS...: pith-stamp ARGS forks at most WANT children (threads,
# such as the one that flushes the written file while it is checked, are not
# children), and
# at least one (the examining worker: a count of none would count nothing).
forks() {
  local want=$1 what=$2 n
  shift 2
  n=$(strace -f -qq -e trace=clone,clone3,fork,vfork "$@" 2>&1 >/dev/null </dev/null | grep clone | grep -vc CLONE_THREAD || true)
  ((n >= 1 && n <= want)) || fail "$what: $n children forked, expected 1 to $want"
}

fixture_paper "$work/fresh"
forks 2 "a fresh stamp" "${stamp[@]}" -o "$work/stamped.pdf" "$work/fresh/paper.pdf"
[[ -s $work/stamped.pdf ]] || fail "the fresh stamp wrote nothing"
forks 1 "already stamped" "${stamp[@]}" -o "$work/out.pdf" "$work/stamped.pdf"
forks 1 "already stamped, --force" "${stamp[@]}" --force -o "$work/out.pdf" "$work/stamped.pdf"
"${stamp[@]}" -o "$work/out.pdf" "$work/stamped.pdf" 2>"$work/err" >/dev/null || fail "already stamped: $(cat "$work/err")"

# The sample built from its pith.sty with its \title edited after: it carries
# the record, pith-check says failed (already_stamped.sh), --force stamps it again.
mkdir -p "$work/edited"
cp "$src/samples/paper.tex" "$work/edited/"
"$bin/pith-stamp" --offline --bundle "$bundle" "$work/edited/paper.tex" >/dev/null 2>&1 || fail "pith-stamp paper.tex failed"
sed -i 's/^\\title{Layered gradient accumulation and modular pipeline parallelism:/\\title{Layered gradients, retitled:/' "$work/edited/paper.tex"
(cd "$work/edited" && pdflatex -interaction=batchmode paper.tex >/dev/null) || fail "the sample did not build"
rc=0
"${stamp[@]}" -o "$work/out.pdf" "$work/edited/paper.pdf" >/dev/null 2>"$work/err" || rc=$?
grep -q "but pith-check says failed" "$work/err" || fail "the edited sample is not refused as failed (exit $rc): $(cat "$work/err")"
forks 1 "already carries the record, pith-check says failed" "${stamp[@]}" -o "$work/out.pdf" "$work/edited/paper.pdf"
forks 2 "--force over a stamp pith-check calls failed" "${stamp[@]}" --force -o "$work/out.pdf" "$work/edited/paper.pdf"

# Kept while the registry is unreachable (no --bundle: the resolver at a closed port).
"$bin/pith-stamp" --resolver http://127.0.0.1:9 --dry-run "$work/stamped.pdf" >/dev/null 2>"$work/err" || true
grep -q "kept; its record of $number still verifies offline" "$work/err" || fail "not kept offline: $(cat "$work/err")"
forks 1 "kept offline" "$bin/pith-stamp" --resolver http://127.0.0.1:9 --dry-run "$work/stamped.pdf"

((failures == 0)) || { echo "$failures failure(s)" >&2; exit 1; }
echo "ok: pith-stamp forks one child for a PDF already stamped (two with --force over a failed one, two for a fresh stamp)"
