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
build=$(cd "${1:?usage: trust_bench.sh BUILD_DIR BASELINE_PITH_CHECK}" && pwd)
baseline=${2:?usage: trust_bench.sh BUILD_DIR BASELINE_PITH_CHECK}
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
check="$build/tools/pith-check"
stamp="$build/tools/pith-stamp"
signer="$build/tests/pith-test-sign"
key="$src/tests/data/test-signing-key.json"
runs=${RUNS:-10}
corpus_runs=${CORPUS_RUNS:-3}
count=${CORPUS_SIZE:-500}
command -v hyperfine >/dev/null || { echo "trust_bench: hyperfine is missing" >&2; exit 2; }
for exe in "$check" "$stamp" "$signer" "$baseline" "$build/bench/sandbox_bench"; do
  [[ -x $exe ]] || { echo "trust_bench: $exe is not built" >&2; exit 2; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export SOURCE_DATE_EPOCH=1700000000 NO_COLOR=1 XDG_CONFIG_HOME="$work/config" XDG_CACHE_HOME="$work/cache"
unset PITH_RESOLVER PITH_MIRRORS
zoo=${ZOO_DIR:-$work/zoo}
[[ -f $zoo/zoo.tsv ]] || "$src/tests/support/pdf_zoo.sh" "$zoo"

mapfile -t rows < <(tail -n +2 "$zoo/zoo.tsv")
mkdir -p "$work/corpus"
: >"$work/list"
for ((i = 0; i < count; i++)); do
  IFS=$'\t' read -r file pages title features <<<"${rows[$((i % ${#rows[@]}))]}"
  name=$(printf 'p%03d-%s' "$i" "$file")
  arxiv=$(printf '2405.%05d' "$i")
  "$signer" --title "$title" --arxiv "$arxiv" >"$work/b.json"
  number=$("$signer" --title "$title" --arxiv "$arxiv" --output number)
  "$stamp" --offline --trust-key "$key" --pith "$number" --bundle "$work/b.json" -o "$work/corpus/$name" "$zoo/$file"
  echo "$work/corpus/$name" >>"$work/list"
done
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
