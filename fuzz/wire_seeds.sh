#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Regenerates the seeds of the process-message fuzz targets
# (stamp_examine_wire, page_crop_wire, worker_request, broker_wire) and of sty_data with the
# encoders the processes use (tests/tools/wire_seeds.cpp), so they follow the
# wire whenever a message changes; fuzz_seeds_test fails until they do.
#
#   fuzz/wire_seeds.sh BUILD_DIR     (a normal build with tests)
set -euo pipefail
build=$(cd "${1:?usage: fuzz/wire_seeds.sh BUILD_DIR}" && pwd)
source_dir=$(cd "$(dirname "$0")/.." && pwd)
seeds=$build/tests/pith-test-wire-seeds
[[ -x $seeds ]] || { echo "wire_seeds: $seeds missing (cmake --build $build --target pith-test-wire-seeds)" >&2; exit 2; }
"$seeds" "$source_dir/fuzz/corpus"
ls -l "$source_dir"/fuzz/corpus/{stamp_examine_wire,page_crop_wire,worker_request,broker_wire,sty_data}
