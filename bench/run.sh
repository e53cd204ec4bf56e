#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Benchmarks. Usage: bench/run.sh BUILD_DIR   (make bench)
set -euo pipefail
source "$(dirname "$0")/bench_env.sh" "${1:-$(dirname "$0")/../build}"
seconds="${BENCH_SECONDS:-3}"
# One core: pin to CPU 0 when taskset exists.
one_core=()
command -v taskset >/dev/null && one_core=(taskset -c 0)

# ---- verify: bundles verified per second, C++ (libpith) vs the registry's Python recipe
echo "== verify: bundles fully verified per second, one core, ${seconds}s each"
bundles=("$data/JFLLIOJUI2M3KX3FLLGP4N2V65.bundle.json")
for i in 1 2 3 4 5 6 7; do
  "$signer" --title "Benchmark paper $i" --arxiv "2403.0000$i" >"$work/b$i.json"
  bundles+=("$work/b$i.json")
done
echo "   ${#bundles[@]} bundles: the registry fixture + 7 test-signed ($(cat "${bundles[@]}" | wc -c) bytes)"
"${one_core[@]}" "$build/bench/verify_bench" --seconds "$seconds" --trust-key "$data/test-signing-key.json" "${bundles[@]}"
"${one_core[@]}" /usr/bin/python3 "$here/verify_recipe.py" --seconds "$seconds" \
  --key "$data/pith-signing-key.json" --key "$data/test-signing-key.json" "${bundles[@]}"
echo "   (C++ also parses strictly and recomputes + compares the merged state; the Python recipe does not)"

# ---- resolve: 1,000 lookups from a loopback registry, batch client vs curl + Python recipe
"$here/resolver_bench.sh" "$build"

# ---- check: 500 stamped PDFs in one pith-check run; one file vs pdfinfo / exiftool
"$here/check_bench.sh" "$build"

# ---- stamp: pith-stamp on a 10-page paper and 1,200-page files vs cp, exiftool, qpdf, PoDoFo WriteUpdate
echo
echo "== stamp: pith-stamp against cp, exiftool, qpdf and PoDoFo WriteUpdate"
"$here/stamp_bench.sh" "$build"
