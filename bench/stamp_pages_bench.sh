#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/stamp_pages_bench.sh BUILD_DIR [BASELINE_BUILD_DIR] — issue 32's
# pages -> ms curve of pith-stamp, against a baseline build (e.g. main's) in
# the same run, each size's commands run one after the other so a shared
# machine's drift falls on both alike:
#   - pith-stamp -o with --pith (one examining child reads and plans);
#   - pith-stamp -o with the number in the .tex beside the PDF (read, then
#     the record, then the plan: two examining children before, one worker now);
#   - pith-check --offline of one stamped file (its start-up).
# On lipsum PDFs of 10, 100 and 1,000 pages (PAGES overrides). Prints a
# Markdown table: hyperfine's median (min) wall time, the user+sys CPU of the
# process tree, the children forked (strace) and the peak RSS of the largest
# process of the tree (/usr/bin/time %M: ru_maxrss over the descendants).
# RUNS (default 15) sets hyperfine's runs.
set -euo pipefail

source "$(dirname "$0")/bench_env.sh" "${1:?usage: stamp_pages_bench.sh BUILD_DIR [BASELINE_BUILD_DIR]}"
baseline=${2:+$(cd "$2" && pwd)}
runs=${RUNS:-15}
need_commands hyperfine pdflatex strace
pages_list=(${PAGES:-10 100 1000})

measure() {  # measure LABEL COMMAND (its exit code is not judged: an unbound check is 4)
  hyperfine -N -i --warmup 2 --runs "$runs" --export-json "$work/h.json" "$2" >/dev/null 2>&1 || { echo "| $1 | failed | | | |"; return; }
  local forks rss
  forks=$(strace -f -qq -e trace=clone,clone3,fork,vfork $2 2>&1 >/dev/null | grep clone | grep -vc CLONE_THREAD || true)
  rss=$( (/usr/bin/time -f %M $2 2>&1 >/dev/null || true) | tail -1 | awk '{printf "%.1f", $1/1024}')
  /usr/bin/python3 - "$1" "$work/h.json" "$forks" "$rss" <<'PY'
import json, sys
r = json.load(open(sys.argv[2]))["results"][0]
print(f"| {sys.argv[1]} | {r['median'] * 1000:.1f} ({r['min'] * 1000:.1f}) | {(r['user'] + r['system']) * 1000:.1f} | {sys.argv[3]} | {sys.argv[4]} |")
PY
}

builds=("this:$build")
[[ -n $baseline ]] && builds+=("baseline:$baseline")
echo "| what | wall, median (min) ms | CPU of the tree (ms) | children | peak RSS (MB) |"
echo "|---|---|---|---|---|"
for pages in "${pages_list[@]}"; do
  lipsum_pdf "p$pages" "$pages"
  cp "$work/p$pages.pdf" "$work/q$pages.pdf"
  echo "\\pithnumber{$number}" >"$work/q$pages.tex"
  for entry in "${builds[@]}"; do
    label=${entry%%:*}
    tools=${entry#*:}/tools
    stamp="$tools/pith-stamp --offline --bundle $bundle"
    measure "$label: pith-stamp -o --pith, $pages pages" "$stamp --pith $number -o $work/out.pdf $work/p$pages.pdf"
    measure "$label: pith-stamp -o, number in the .tex, $pages pages" "$stamp -o $work/out.pdf $work/q$pages.pdf"
    $stamp --pith "$number" -o "$work/$label-s$pages.pdf" "$work/p$pages.pdf" 2>/dev/null
    measure "$label: pith-check --offline, stamped, $pages pages" "$tools/pith-check --offline -q $work/$label-s$pages.pdf"
  done
done
echo
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
