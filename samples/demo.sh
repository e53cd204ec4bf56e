#!/usr/bin/env bash
# `make demo`: verify the shipped sample bundle with the built tools and
# print the report. PITH_BIN = directory of the built tools.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="${PITH_BIN:-$here/../build/tools}"

echo "== pith-check: a registry bundle, verified offline against the pinned registry key"
echo "   (record hash = number, receipt, every event, bundle signature, state recomputed)"
echo
status=0
"$bin/pith-check" --offline "$here/registry/JFLLIOJUI2M3KX3FLLGP4N2V65.bundle.json" || status=$?
echo
echo "pith-check exit code: $status (0 = verified)"
exit "$status"
