#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 22's cost goals, measured against a baseline build of pith-check in
# the same run (alternating runs: bench/compare_builds.py):
#   1. pith-check --offline on the 10-page sample (the zoo's paper.pdf,
#      stamped): goal <= 2x the baseline's time;
#   2. a corpus of stamped papers (the zoo, stamped, COPIES copies each) at
#      -j 2: goal >= 200 files/s;
#   3. unstamped real PDFs (Debian's documentation PDFs under 2 MB) at -j 2:
#      goal >= 2,000 files/s (page 1 is read only when a record may be there).
# And the child's own cost of seeing page 1 (read_page_text: text layer,
# page render, ink renders) on the sample, from the seen_text tool.
# Usage: bench/seen_bench.sh BUILD_DIR BASELINE_PITH_CHECK [RUNS] [COPIES]
#   e.g. git archive <session-start commit> | tar -x -C /tmp/base &&
#        cmake -S /tmp/base -B /tmp/base-build && cmake --build /tmp/base-build --target pith-check &&
#        bench/seen_bench.sh build /tmp/base-build/tools/pith-check
set -euo pipefail
source "$(dirname "$0")/bench_env.sh" "${1:?usage: seen_bench.sh BUILD_DIR BASELINE_PITH_CHECK [RUNS] [COPIES]}"
baseline=${2:?usage: seen_bench.sh BUILD_DIR BASELINE_PITH_CHECK [RUNS] [COPIES]}
runs=${3:-9}
copies=${4:-40}
now="$build/tools/pith-check"
compare() { /usr/bin/python3 "$here/compare_builds.py" "$runs" base="$baseline" now="$now" -- "$@"; }

"$src/tests/support/pdf_zoo.sh" "$build/zoo" >/dev/null
mkdir -p "$work/stamped"
while IFS=$'\t' read -r file pages title features; do
  [[ $file == file || $file == other-title.pdf || $file == large.pdf ]] && continue
  "$stamp" --offline --bundle "$bundle" --pith "$number" \
    -o "$work/stamped/$file" "$build/zoo/$file" 2>/dev/null
done <"$build/zoo/zoo.tsv"

echo "== 1. pith-check --offline on the 10-page sample (zoo paper.pdf, stamped), $runs runs each"
compare --offline "$work/stamped/paper.pdf"

for ((i = 0; i < copies; i++)); do
  for f in "$work"/stamped/*.pdf; do echo "$f"; done
done >"$work/stamped-paths"
n=$(wc -l <"$work/stamped-paths")
echo "== 2. stamped papers: $n inputs ($(ls "$work/stamped" | wc -l) zoo PDFs x $copies), --offline --json -j 2"
compare --offline --json -j 2 --files-from "$work/stamped-paths"

find /usr/share/doc /usr/share/texlive -type f -name '*.pdf' -size -2M 2>/dev/null | sort >"$work/real-paths"
n=$(wc -l <"$work/real-paths")
echo "== 3. unstamped real PDFs: $n inputs (Debian's documentation, under 2 MB), --offline --json -j 2"
compare --offline --json -j 2 --files-from "$work/real-paths"

echo "== 4. the child's cost of seeing page 1 (read_page_text), the sample, per call"
if [[ -x $build/bench/seen_text_bench ]]; then
  "$build/bench/seen_text_bench" "$work/stamped/paper.pdf" 20
else
  echo "   (build the seen_text_bench target)"
fi
