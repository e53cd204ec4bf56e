#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Resolver benchmark: 1,000 lookups of distinct test-signed bundles against a
# loopback server (127.0.0.1 only), libpith's batch client vs a shell loop of
# curl + the registry's Python verification recipe, in the same run.
#   bench/resolver_bench.sh BUILD_DIR   (called by bench/run.sh)
set -euo pipefail
source "$(dirname "$0")/bench_env.sh" "${1:-$(dirname "$0")/../build}"
count="${BENCH_LOOKUPS:-1000}"

echo "== resolve: $count lookups of distinct signed bundles from a loopback server"
root="$work/root"
: >"$work/numbers"
for i in $(seq 1 "$count"); do
  "$signer" --title "Resolver benchmark paper $i" --arxiv "2405.$((10000 + i))" >"$work/b.json"
  number=$(grep -o '"pith_number":"[^"]*"' "$work/b.json" | head -n1 | cut -d'"' -f4)
  mkdir -p "$root/pith/${number##*:}"
  mv "$work/b.json" "$root/pith/${number##*:}/bundle.json"
  echo "$number" >>"$work/numbers"
done
echo "   $(wc -l <"$work/numbers") bundles, $(du -sh "$root" | cut -f1) served by pith-test-server"

start_test_server "$root" 900

"$build/bench/resolver_bench" --resolver "$base" --trust-key "$key" --mode batch --concurrency 16 "$work/numbers"
"$build/bench/resolver_bench" --resolver "$base" --trust-key "$key" --mode sequential "$work/numbers"
"$build/bench/resolver_bench" --resolver "$base" --trust-key "$key" --mode cached "$work/numbers"

# The same lookups the way a shell user would: curl, then the registry's recipe.
start=$(date +%s.%N)
ok=0
while read -r number; do
  if curl -sf --max-time 10 -o "$work/dl.json" "$base/pith/${number##*:}/bundle.json" &&
     python3 "$here/verify_recipe.py" --seconds 0 --key "$data/pith-signing-key.json" --key "$key" "$work/dl.json" >/dev/null; then
    ok=$((ok + 1))
  fi
done <"$work/numbers"
end=$(date +%s.%N)
python3 -c 'import sys; n,t,ok=int(sys.argv[1]),float(sys.argv[3])-float(sys.argv[2]),sys.argv[4]; print(f"curl+python loop {n} lookups in {t:6.2f} s: {n/t:7.0f} lookups/s ({ok} verified)")' \
  "$count" "$start" "$end" "$ok"

# curl alone (no verification), to separate transfer from verification cost.
start=$(date +%s.%N)
while read -r number; do curl -sf --max-time 10 -o /dev/null "$base/pith/${number##*:}/bundle.json"; done <"$work/numbers"
end=$(date +%s.%N)
python3 -c 'import sys; n,t=int(sys.argv[1]),float(sys.argv[3])-float(sys.argv[2]); print(f"curl-only loop    {n} fetches in {t:6.2f} s: {n/t:7.0f} fetches/s (no verification)")' \
  "$count" "$start" "$end"
echo "   (pith: strict parse, every hash and signature, state recomputed, identity check, atomic cache write;"
echo "    the Python recipe checks hashes and signatures only, and not that the record is the number asked for)"
