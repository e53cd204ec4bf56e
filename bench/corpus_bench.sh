#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 15's closing figures: pith-check files/s at -j 1 and -j 2 over a
# generated corpus of typical inputs (stamped and unstamped papers, tampered
# PDFs, registry files; offline), given as paths, as a tar and as a tar.gz,
# with the worker pool (--workers=pool, the default) against a process forked
# per file (--workers=fork: the code before issue 15); and the CPU each file
# costs (user + system of pith-check and its workers, per file).
#
# Two corpora, the same rows for each:
#   generated  COPIES x 15 inputs of tests/support/make_corpus.sh: more than
#              half are papers carrying a Pith record (stamped or tampered),
#              each verified in full (signatures, bindings, page 1's text);
#   real       the PDFs under 2 MB in Debian's documentation (/usr/share/doc
#              and TeX Live's docs): manuals and papers we did not make,
#              none with a Pith Number, as every collection is today.
# Usage: bench/corpus_bench.sh BUILD_DIR [COPIES]   (default 100)
set -euo pipefail
source "$(dirname "$0")/bench_env.sh" "${1:-$(dirname "$0")/../build}"
copies=${2:-100}
export PITH_TEST_DATA="$data" PITH_ZOO_DIR="$build/zoo"
"$src/tests/support/make_corpus.sh" "$work/c" "$copies" >/dev/null
# Typical inputs only: the crafted hostile PDFs are the robustness tests' business.
grep -v '^h-' "$work/c/expected.tsv" | cut -f1 >"$work/names"
find /usr/share/doc /usr/share/texlive -type f -name '*.pdf' -size -2M 2>/dev/null | sort >"$work/real"
measure() {  # measure LABEL WORKERS JOBS ARGS...: files/s and CPU per file (children included)
  local label=$1 workers=$2 jobs=$3
  shift 3
  /usr/bin/python3 - "$n" "$label" "$workers" "$jobs" "$build/tools/pith-check" --offline --json --workers="$workers" -j "$jobs" "$@" <<'PY'
import os, resource, subprocess, sys, time
n, label, workers, jobs, cmd = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
t0 = time.monotonic()
r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
dt = time.monotonic() - t0
lines = r.stdout.count(b"\n")
if lines != n:
    sys.exit(f"{label}: {lines} lines for {n} inputs")
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"   {label:<8} {workers:<7} {jobs:<3} {n / dt:10.0f} {1000 * (ru.ru_utime + ru.ru_stime) / n:12.2f}")
PY
}
run_corpus() {  # run_corpus LABEL DIR NAMES_FILE: the rows for one corpus
  local label=$1 dir=$2 names=$3
  n=$(wc -l <"$names")
  if [ "$n" -eq 0 ]; then
    echo "== $label: no inputs, skipped"
    return
  fi
  sed "s|^|$dir/|" "$names" >"$work/paths"
  (cd "$dir" && tar -cf "$work/c.tar" -T "$names")
  gzip -c "$work/c.tar" >"$work/c.tar.gz"
  echo "== $label: pith-check --offline --json over $n inputs ($(du -sh "$work/c.tar" | cut -f1) as tar), $(nproc) cores"
  printf '   %-8s %-6s %-3s %10s %12s\n' input workers j files/s "CPU ms/file"
  for workers in pool fork; do
    for j in 1 2; do
      measure paths "$workers" "$j" --files-from "$work/paths"
      measure tar "$workers" "$j" --tar "$work/c.tar"
      measure tar.gz "$workers" "$j" --tar "$work/c.tar.gz"
    done
  done
}
run_corpus "generated (typical inputs; crafted hostile PDFs left out)" "$work/c" "$work/names"
# Paths relative to / so that tar stores them as they are named.
sed 's|^/||' "$work/real" >"$work/real-names"
run_corpus "real (Debian's documentation PDFs under 2 MB)" / "$work/real-names"
