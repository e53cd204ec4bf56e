#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/rewrite_bench.sh BUILD_DIR [BASELINE_BUILD_DIR] — what issue 22's
# items 5 and 8 cost, measured in one run against a baseline build (e.g. the
# main branch's) and against their floor, poppler's text pass (`pdftotext
# -raw`, the same text layer the page fingerprints read):
#   - pith-stamp -o on the 10-page zoo paper and the 1,200-page file (every
#     page's text fingerprinted, at most 200 pages);
#   - pith-stamp on a PDF already stamped (now a full pith-check of the file);
#   - pith-check --offline on the stamped 10-page paper (no fingerprint read)
#     and on its `qpdf --linearize` rewrite (every page read again).
# Prints a Markdown table: hyperfine's mean wall time and the user CPU of the
# process tree (the second is what the work costs on a busy machine).
# RUNS (default 20) sets hyperfine's runs; ZOO_DIR reuses a zoo.
set -euo pipefail

source "$(dirname "$0")/bench_env.sh" "${1:?usage: rewrite_bench.sh BUILD_DIR [BASELINE_BUILD_DIR]}"
baseline=${2:+$(cd "$2" && pwd)}
runs=${RUNS:-20}
need_commands hyperfine qpdf pdftotext
zoo=${ZOO_DIR:-$work/zoo}
"$src/tests/support/pdf_zoo.sh" "$zoo" >/dev/null

# measure NAME COMMAND: one table row (mean wall ms, user CPU ms).
echo "| what | mean wall (ms) | user CPU (ms) |"
echo "|---|---|---|"
measure() {
  hyperfine -N --warmup 2 --runs "$runs" --export-json "$work/h.json" "$2" >/dev/null 2>&1
  /usr/bin/python3 - "$1" "$work/h.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[2]))["results"][0]
print(f"| {sys.argv[1]} | {r['mean'] * 1000:.1f} ± {r['stddev'] * 1000:.1f} | {r['user'] * 1000:.1f} |")
PY
}

builds=("this:$build")
[[ -n $baseline ]] && builds+=("baseline:$baseline")
for entry in "${builds[@]}"; do
  label=${entry%%:*}
  tools=${entry#*:}/tools
  stamp=("$tools/pith-stamp" --offline --bundle "$bundle" --pith "$number")
  "${stamp[@]}" -o "$work/$label-10.pdf" "$zoo/paper.pdf"
  qpdf --linearize "$work/$label-10.pdf" "$work/$label-10-linearized.pdf"
  measure "$label: pith-stamp -o, 10 pages" "${stamp[*]} -o $work/$label-out.pdf $zoo/paper.pdf"
  measure "$label: pith-stamp -o, 1,200 pages" "${stamp[*]} -o $work/$label-out.pdf $zoo/large.pdf"
  measure "$label: pith-stamp, already stamped (10 pages)" "${stamp[*]} $work/$label-10.pdf"
  measure "$label: pith-check --offline, stamped (10 pages)" "$tools/pith-check --offline -q $work/$label-10.pdf"
  measure "$label: pith-check --offline, linearized rewrite (10 pages)" \
    "$tools/pith-check --offline -q $work/$label-10-linearized.pdf"
done
measure "floor: pdftotext -raw, 10 pages" "pdftotext -raw $zoo/paper.pdf $work/out.txt"
measure "floor: pdftotext -raw, 200 of 1,200 pages" "pdftotext -raw -l 200 $zoo/large.pdf $work/out.txt"
echo
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
