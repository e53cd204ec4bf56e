#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/check_bench.sh BUILD_DIR — what checking PDFs costs.
#
# 1. A corpus: 500 stamped PDFs of assorted sizes (the PDF zoo, 14 producers
#    from 4 KB to the 1,200-page file, cycled), each stamped by pith-stamp
#    with its own bundle signed by pith-test-sign (500 distinct numbers).
#    One pith-check process checks them all, offline, -q, with -j 1 and -j 2
#    (every file in its own isolated child process): files per second.
# 2. One file: a typical 10-page paper and the 1,200-page file, stamped:
#    pith-check --offline against `pdfinfo -meta` and `exiftool -XMP:all`
#    (which only read the metadata, verify nothing), by hyperfine; peak RSS
#    from /usr/bin/time (pith-check's includes its checking child).
# Prints Markdown tables. RUNS (default 10) sets hyperfine's runs per file,
# CORPUS_RUNS (default 3) the runs over the corpus; ZOO_DIR reuses a zoo.
set -euo pipefail

source "$(dirname "$0")/bench_env.sh" "${1:?usage: check_bench.sh BUILD_DIR}"
runs=${RUNS:-10}
corpus_runs=${CORPUS_RUNS:-3}
count=${CORPUS_SIZE:-500}
need_commands hyperfine pdfinfo exiftool
need_built "$check" "$stamp" "$signer"

zoo=${ZOO_DIR:-$work/zoo}
"$src/tests/support/pdf_zoo.sh" "$zoo"

# --- the corpus ---------------------------------------------------------
stamped_corpus "$zoo" "$count"
producers=$(($(wc -l <"$zoo/zoo.tsv") - 1))
bytes=$(cat "$work/list" | xargs du -cb | tail -1 | cut -f1)
# One run, to be sure the corpus checks as expected before timing it.
rc=0
"$check" --offline --trust-key "$key" --json -j 2 --files-from "$work/list" >"$work/out.jsonl" || rc=$?
verdicts=$(python3 -c '
import collections, json, sys
c = collections.Counter(json.loads(l)["verdict"] for l in open(sys.argv[1]))
print(", ".join(f"{n} {v}" for v, n in sorted(c.items())))' "$work/out.jsonl")

echo "## Corpus: $count stamped PDFs ($((bytes / 1024 / 1024)) MiB, $producers producers cycled), one pith-check process, offline"
echo
echo "verdicts: $verdicts (exit $rc)"
echo
# CPU time (user + sys, children included): what a file costs whatever
# else the machine is doing.
cpu=$(/usr/bin/time -f '%U %S' "$check" --offline --trust-key "$key" -q -j 1 --files-from "$work/list" 2>&1 >/dev/null |
  tail -1 | awk -v n="$count" '{printf "%.1f", ($1 + $2) * 1000 / n}' || true)
echo "CPU time per file (user + sys, -j 1): $cpu ms; load average before timing: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| workers | wall time (s) | files/s |"
echo "|---|---|---|"
for jobs in 1 2; do
  hyperfine -N --style none --warmup 1 --runs "$corpus_runs" --export-json "$work/h.json" \
    "$check --offline --trust-key $key -q -j $jobs --files-from $work/list" >/dev/null 2>&1 || true
  python3 - "$work/h.json" "$jobs" "$count" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
print(f"| -j {sys.argv[2]} | {r['mean']:.2f} ± {r['stddev'] or 0:.2f} | {int(sys.argv[3]) / r['mean']:.0f} |")
PY
done

# --- one file -----------------------------------------------------------
echo
echo "## One file: pith-check (full verification) vs metadata readers"
echo
peak_rss_mb() {  # peak RSS of COMMAND (children included), MB
  /usr/bin/time -f %M bash -c "exec $1" 2>&1 >/dev/null | tail -1 | awk '{printf "%.1f", $1/1024}' || true
}
echo "| file | pages | size | command | wall time (ms) | peak RSS (MB) |"
echo "|---|---|---|---|---|---|"
for file in paper.pdf large.pdf; do
  f=$(grep -m1 -- "-$file\$" "$work/list")
  pages=$(pdfinfo "$f" | awk '/^Pages:/ {print $2}')
  size=$(du -h --apparent-size "$f" | cut -f1)
  labels=("pith-check --offline" "pdfinfo -meta" "exiftool -XMP:all")
  commands=("$check --offline --trust-key $key -q $f" "pdfinfo -meta $f" "exiftool -XMP:all $f")
  for k in "${!labels[@]}"; do
    hyperfine -N --style none --warmup 2 --runs "$runs" --export-json "$work/h.json" "${commands[$k]}" \
      >/dev/null 2>&1 || true
    python3 - "$work/h.json" "$file" "$pages" "$size" "${labels[$k]}" "$(peak_rss_mb "${commands[$k]}")" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
print(f"| {sys.argv[2]} | {sys.argv[3]} | {sys.argv[4]} | {sys.argv[5]} | {r['mean'] * 1000:.1f} ± {(r['stddev'] or 0) * 1000:.1f} | {sys.argv[6]} |")
PY
  done
done
