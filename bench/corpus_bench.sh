#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 15's closing figures: pith-check files/s at -j 1 and -j 2 over a
# generated corpus of typical inputs (stamped and unstamped papers, tampered
# PDFs, registry files; offline), given as paths, as a tar and as a tar.gz,
# with the worker pool (--workers=pool, the default) against a process forked
# per file (--workers=fork: the code before issue 15); and the CPU each file
# costs (user + system of pith-check and its workers, per file).
# Usage: bench/corpus_bench.sh BUILD_DIR [COPIES]   (COPIES x 15 inputs; default 100)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
build="$(cd "${1:-$here/../build}" && pwd)"
copies=${2:-100}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export PITH_BIN="$build/tools" PITH_TEST_DATA="$here/../tests/data" PITH_ZOO_DIR="$build/zoo"
export PITH_RESOLVER=http://127.0.0.1:9 NO_COLOR=1 XDG_CONFIG_HOME="$work/config" XDG_CACHE_HOME="$work/cache"
"$here/../tests/support/make_corpus.sh" "$work/c" "$copies" >/dev/null
# Typical inputs only: the crafted hostile PDFs are the robustness tests' business.
grep -v '^h-' "$work/c/expected.tsv" | cut -f1 >"$work/names"
n=$(wc -l <"$work/names")
sed "s|^|$work/c/|" "$work/names" >"$work/paths"
(cd "$work/c" && tar -cf "$work/c.tar" -T "$work/names")
gzip -c "$work/c.tar" >"$work/c.tar.gz"
echo "== pith-check --offline --json over $n inputs ($(du -sh "$work/c.tar" | cut -f1) as tar), $(nproc) cores"
printf '   %-8s %-6s %-3s %10s %12s\n' input workers j files/s "CPU ms/file"
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
for workers in pool fork; do
  for j in 1 2; do
    measure paths "$workers" "$j" --files-from "$work/paths"
    measure tar "$workers" "$j" --tar "$work/c.tar"
    measure tar.gz "$workers" "$j" --tar "$work/c.tar.gz"
  done
done
