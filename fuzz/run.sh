#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs every libFuzzer target of a PITH_FUZZ build (every fuzz/<name>_fuzz
# program it holds, so a target added to fuzz/CMakeLists.txt is run too; or
# the ones named) for
# SECONDS each, one after the other, and fails when any of them finds a crash,
# a leak, a timeout or an out-of-memory input, printing where that input is.
#
#   fuzz/run.sh BUILD_DIR SECONDS [TARGET...]      e.g. fuzz/run.sh build-fuzz 60 pdf_reader
#
# Each target starts from its seeds (fuzz/corpus/<target>/ plus the matching
# files of tests/data and samples/) copied into BUILD_DIR/fuzz-corpus/<target>/,
# which keeps what earlier runs found: the repository is never written.
set -uo pipefail

build=${1:?usage: fuzz/run.sh BUILD_DIR SECONDS [TARGET...]}
seconds=${2:?usage: fuzz/run.sh BUILD_DIR SECONDS [TARGET...]}
shift 2
source_dir=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$build" && pwd)
targets=("$@")
if ((${#targets[@]} == 0)); then
  for binary in "$build"/fuzz/*_fuzz; do
    [[ -x $binary ]] && targets+=("$(basename "$binary" _fuzz)")
  done
  ((${#targets[@]})) || { echo "fuzz: no <name>_fuzz program in $build/fuzz (build the 'fuzzers' target of a -DPITH_FUZZ=ON build)" >&2; exit 1; }
fi

# Seeds that already live elsewhere in the repository, by target.
extra_seeds() {
  case $1 in
    strict_json | registry_verify) ls "$source_dir"/tests/data/*.json "$source_dir"/samples/registry/*.json ;;
    xmp) ls "$source_dir"/tests/data/*.xmp ;;
  esac
}

# Leaks inside Debian's PoDoFo are not ours to fix (fuzz/lsan.supp says which).
export LSAN_OPTIONS="suppressions=$source_dir/fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"

failed=()
for target in "${targets[@]}"; do
  binary=$build/fuzz/${target}_fuzz
  corpus=$build/fuzz-corpus/$target
  crashes=$build/fuzz-crashes/$target
  log=$build/fuzz-logs/$target.log
  if [[ ! -x $binary ]]; then
    echo "fuzz: $binary missing (build the 'fuzzers' target of a -DPITH_FUZZ=ON build)" >&2
    failed+=("$target")
    continue
  fi
  mkdir -p "$corpus" "$crashes" "$(dirname "$log")"
  cp -n "$source_dir"/fuzz/corpus/"$target"/* "$corpus"/ 2>/dev/null
  while read -r seed; do cp -n "$seed" "$corpus"/; done < <(extra_seeds "$target")
  options=(-max_total_time="$seconds" -rss_limit_mb=2048 -timeout=30 -print_final_stats=1
           -artifact_prefix="$crashes"/)
  [[ -f $source_dir/fuzz/$target.dict ]] && options+=(-dict="$source_dir/fuzz/$target.dict")
  # FUZZ_SEED fixes libFuzzer's random seed (the smoke run in make test), so a
  # CI run explores the same inputs from a fresh corpus each time.
  [[ -n ${FUZZ_SEED:-} ]] && options+=(-seed="$FUZZ_SEED")

  before=$(ls "$crashes" | wc -l)
  started=$SECONDS
  "$binary" "${options[@]}" "$corpus" >"$log" 2>&1
  status=$?
  ran=$((SECONDS - started))
  stats=$(grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)' "$log" |
          sed 's/^stat::\([a-z_]*\): */\1=/' | tr '\n' ' ')
  coverage=$(grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+' "$log" | tail -1)
  echo "fuzz: $target ${ran}s: ${coverage:-no coverage line} $stats"
  if ((status != 0)) || (($(ls "$crashes" | wc -l) > before)); then
    failed+=("$target")
    echo "fuzz: $target FAILED (exit $status); log: $log" >&2
    grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error|.*broken promise)' "$log" | head -5 >&2
    # The newest artifacts: what to hand to the target to reproduce.
    ls -t "$crashes" | head -3 | sed "s|^|fuzz: input: $crashes/|" >&2
    grep -E '^(artifact_prefix|Test unit written to)' "$log" >&2
  fi
done

if ((${#failed[@]})); then
  echo "fuzz: failing targets: ${failed[*]} (reproduce: $build/fuzz/<target>_fuzz <input>; docs/fuzzing.md)" >&2
  exit 1
fi
echo "fuzz: ${#targets[@]} targets, no crash in ${seconds}s each"
