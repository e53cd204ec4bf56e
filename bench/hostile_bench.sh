#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 32's hostile inputs, timed: each page of tests/support/hostile_pages_pdf.py
# and the 250,000-annotation file of tests/support/many_annotations_pdf.py
# (goal: pith-check <= 5 s, <= 256 MB) through pith-check --offline --json
# and pith-stamp --pith, with a baseline build's tools beside when given.
# Prints one table: wall seconds (the median of RUNS) and the peak RSS of the
# tool's tree (GNU time's %M: the largest of the tool and its children).
# The test (tests/integration/hostile_pages.sh) asserts only generous bounds;
# the figures are here.
# Usage: bench/hostile_bench.sh BUILD_DIR [BASELINE_BUILD_DIR] [RUNS]
set -euo pipefail
source "$(dirname "$0")/bench_env.sh" "${1:?usage: hostile_bench.sh BUILD_DIR [BASELINE_BUILD_DIR] [RUNS]}"
baseline=${2:-}
runs=${3:-3}
need_commands /usr/bin/time

fixture_mirror  # $registry
inputs=(mediabox userunit image forms-deep forms-cycle patterns operators)
for kind in "${inputs[@]}"; do
  /usr/bin/python3 "$src/tests/support/hostile_pages_pdf.py" "$kind" "$work/$kind.pdf" "$number"
done
/usr/bin/python3 "$src/tests/support/many_annotations_pdf.py" 250000 "$work/links-250000.pdf" "$number"
inputs+=(links-250000)

# measure TOOLS_DIR TOOL INPUT: "SECONDS MIB" (median wall time of $runs, the largest peak RSS).
measure() {
  local tools=$1 tool=$2 input=$3 i
  for ((i = 0; i < runs; i++)); do
    cp "$work/$input.pdf" "$work/run.pdf"
    local args=("${registry[@]}" --json "$work/run.pdf")
    [[ $tool == pith-stamp ]] && args=("${registry[@]}" --pith "$number" "$work/run.pdf")
    /usr/bin/time -f '%e %M' -o "$work/time" "$tools/$tool" "${args[@]}" >/dev/null 2>&1 || true
    tail -1 "$work/time"
  done | sort -n | awk -v n="$runs" '{t[NR] = $1; if ($2 > m) m = $2} END {printf "%.2f %d", t[int((n + 1) / 2)], m / 1024}'
}

printf '%-14s %-10s %14s %14s\n' input tool "now s / MiB" "base s / MiB"
for input in "${inputs[@]}"; do
  for tool in pith-check pith-stamp; do
    read -r now_s now_m <<<"$(measure "$build/tools" "$tool" "$input")"
    base="-"
    if [[ -n $baseline ]]; then
      read -r base_s base_m <<<"$(measure "$baseline/tools" "$tool" "$input")"
      base="$base_s / $base_m"
    fi
    printf '%-14s %-10s %14s %14s\n' "$input" "$tool" "$now_s / $now_m" "$base"
  done
done
