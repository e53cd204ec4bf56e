#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# scripts/check-space, which make test runs first: a disk with room passes in
# silence; one without room stops with one line that names the directory,
# the room it has and what to do; a directory not made yet is judged by the
# nearest one that exists.
set -euo pipefail
source "$(dirname "$0")/../support/scratch_env.sh"  # $work, $src

room=$(df -Pm -- "$work" | awk 'NR == 2 { print $4 }')
"$src/scripts/check-space" 1 "$work" "$work/not/made/yet" >"$work/out" 2>&1 ||
  fail "check-space refused 1 MiB with $room MiB free: $(cat "$work/out")"
[[ ! -s $work/out ]] || fail "check-space spoke when there was room: $(cat "$work/out")"

if "$src/scripts/check-space" $((room + 1048576)) "$work/not/made/yet" >"$work/out" 2>&1; then
  fail "check-space passed a need of $((room + 1048576)) MiB with $room MiB free"
fi
[[ $(wc -l <"$work/out") -eq 1 ]] || fail "check-space said more than one line: $(cat "$work/out")"
grep -q "for $work/not/made/yet " "$work/out" || fail "check-space did not name the directory: $(cat "$work/out")"
grep -q "free some space" "$work/out" || fail "check-space did not say what to do: $(cat "$work/out")"
echo "ok: check-space passes with room and stops in one line without"
