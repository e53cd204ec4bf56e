#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/trust_bench.sh BUILD_DIR BASELINE_PITH_CHECK — what issue 13's
# hardening costs pith-check (the sandboxed child, the parent verifying the
# carried record again, the terminal sanitiser), measured against a
# pith-check built from the commit before it, in the same run:
#  1. one stamped 10-page paper, pith-check --offline, by hyperfine;
#  2. 500 stamped PDFs (the zoo, cycled; each with its own test-signed
#     bundle) in one pith-check run, offline, -q, -j 1 and -j 2;
#  3. the sandbox alone: fork+exit vs fork+sandbox+exit (sandbox_bench).
# The machine may be shared: figures are indicative. RUNS (default 10),
# CORPUS_RUNS (default 3), CORPUS_SIZE (default 500), ZOO_DIR reuse a zoo.
set -euo pipefail
source "$(dirname "$0")/bench_env.sh" "${1:?usage: trust_bench.sh BUILD_DIR BASELINE_PITH_CHECK}"
baseline=${2:?usage: trust_bench.sh BUILD_DIR BASELINE_PITH_CHECK}
runs=${RUNS:-10}
corpus_runs=${CORPUS_RUNS:-3}
count=${CORPUS_SIZE:-500}
need_commands hyperfine
need_built "$check" "$stamp" "$signer" "$baseline" "$build/bench/sandbox_bench"
zoo=${ZOO_DIR:-$work/zoo}
[[ -f $zoo/zoo.tsv ]] || "$src/tests/support/pdf_zoo.sh" "$zoo"

stamped_corpus "$zoo" "$count"
paper=$(grep -m1 -- '-paper.pdf$' "$work/list")

echo "== one stamped 10-page paper, pith-check --offline (hyperfine, $runs runs)"
hyperfine -N -i --warmup 2 --runs "$runs" --style none --export-markdown "$work/one.md" \
  -n "before (no sandbox, child's verdict)" "$baseline --offline -q --trust-key $key $paper" \
  -n "after (sandbox, parent re-verifies)" "$check --offline -q --trust-key $key $paper" >/dev/null
cat "$work/one.md"

echo
echo "== $count stamped PDFs in one run, --offline -q ($corpus_runs runs each)"
for jobs in 1 2; do
  hyperfine -N -i --runs "$corpus_runs" --style none --export-markdown "$work/batch$jobs.md" \
    -n "before -j $jobs" "$baseline --offline -q -j $jobs --trust-key $key --files-from $work/list" \
    -n "after -j $jobs" "$check --offline -q -j $jobs --trust-key $key --files-from $work/list" >/dev/null
  cat "$work/batch$jobs.md"
done

echo
echo "== the sandbox alone"
"$build/bench/sandbox_bench" --children "$count"
