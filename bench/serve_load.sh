#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/serve_load.sh [SECONDS] [CLIENTS]: pith-serve under load on loopback
# (issue 16), then pith-check -j 2 on the same files, in the same run.
#   SECONDS (default 30) of CLIENTS (default 64) concurrent uploads: the
#   stamped sample, a tampered copy, hostile PDFs, oversize uploads and slow
#   senders (bench/serve_load.py asserts every answer is 200/413/503, no
#   resets, /healthz answered, RSS bounded; it records p50/p99 and checks/s);
#   then `pith-check -j 2 --offline --json` over the same files (the uploads'
#   mix, 200 files) for files/s.
# Env: PITH_BIN (default build/tools), PITH_SERVE_JOBS (default 2),
# PITH_LOAD_ONLY=1 (skip the pith-check comparison: the ctest version).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=${PITH_SOURCE_DIR:-$here/..}
bin=${PITH_BIN:-$src/build/tools}
data=${PITH_TEST_DATA:-$src/tests/data}
seconds=${1:-30}
clients=${2:-64}
jobs=${PITH_SERVE_JOBS:-2}
work=$(mktemp -d)
serve_pid=""
trap '[[ -n $serve_pid ]] && kill "$serve_pid" 2>/dev/null; rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
source "$src/tests/support/serve_fixture.sh"

make_serve_samples
files=("$work/stamped.pdf" "$work/tampered.pdf" "$work/hostile/nested.pdf" "$work/hostile/objstm-bomb.pdf"
  "$work/hostile/xref-wrap.pdf" "$serve_bundle")
max_upload=$((1024 * 1024))
start_serve --jobs "$jobs" --queue 8 --max-upload "$max_upload" --upload-deadline 30
echo "== pith-serve --jobs $jobs --queue 8: $clients clients for $seconds s"
rc=0
/usr/bin/python3 "$src/bench/serve_load.py" "$base" "$serve_pid" "$seconds" "$clients" "$max_upload" "${files[@]}" || rc=$?
[[ $(curl -sS "$base/healthz") == ok ]] || fail "/healthz not ok after the load"
curl -sS "$base/metrics" | grep -E '^pith_(checks_total|child_failures_total|rejected_)' | sed 's/^/   /'
kill -TERM "$serve_pid"
wait "$serve_pid" || fail "pith-serve did not exit 0 after SIGTERM"
serve_pid=""
((rc == 0)) || exit "$rc"

[[ ${PITH_LOAD_ONLY:-0} == 1 ]] && exit 0
echo "== pith-check -j 2 --offline --json, the same files (200 of them)"
mkdir "$work/corpus"
for i in $(seq 1 200); do
  f=${files[$((i % ${#files[@]}))]}
  cp "$f" "$work/corpus/$i-$(basename "$f")"
done
ls "$work/corpus"/* >"$work/list"
start=$(date +%s.%N)
"$bin/pith-check" -j 2 --offline --mirror "file://$work/mirror" --cache-dir "$work/cache" --json \
  --files-from "$work/list" >/dev/null 2>&1 || true
end=$(date +%s.%N)
python3 -c "import sys; s = float(sys.argv[2]) - float(sys.argv[1]); print(f'{{\"pith_check_j2_files\": 200, \"seconds\": {s:.2f}, \"files_per_second\": {200 / s:.1f}}}')" "$start" "$end"
