#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# What `make demo` compiles (pith-stamp and pith-check, no tests), built from
# nothing in three ways in the same run, so the figures compare (issue 25:
# "precompiled headers, unity builds — measure each, keep what pays"):
#   plain   the build `make demo` does today
#   unity   CMAKE_UNITY_BUILD=ON (CMake batches 8 sources per translation unit;
#           today it does not compile: helpers in different files' anonymous
#           namespaces collide, which the bench reports)
#   pch     PITH_PRECOMPILED_HEADERS=ON (lib/CMakeLists.txt names the headers)
# ccache is off for every build. Prints wall and CPU seconds per way, and the
# load average, since wall time on a shared machine is noise; CPU time is not.
#
#   bench/build_cost_bench.sh [JOBS]     (default: nproc)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
jobs=${1:-$(nproc)}
work=$(mktemp -d /tmp/pith-build-cost.XXXXXX)
trap 'rm -rf "$work"' EXIT
export CCACHE_DISABLE=1
build_one() {  # build_one NAME CMAKE_ARGS...
  local name=$1
  shift
  cmake -S "$src" -B "$work/$name" -DCMAKE_CXX_COMPILER_LAUNCHER= -DPITH_BUILD_TESTS=OFF \
    -DPITH_BUILD_BENCH=OFF -DPITH_MAN_PAGES=OFF "$@" >"$work/$name.configure.log" 2>&1
  local load
  load=$(cut -d' ' -f1 /proc/loadavg)
  /usr/bin/time -f "%e %U %S" -o "$work/$name.time" \
    cmake --build "$work/$name" -j "$jobs" --target pith-stamp pith-check >"$work/$name.log" 2>&1 ||
    { echo "build_cost_bench: $name does not build: $(grep -m1 -E 'error:' "$work/$name.log" || tail -1 "$work/$name.log")"; return 0; }
  read -r wall user sys <"$work/$name.time"
  printf 'build_cost_bench: %-6s %7.1f s wall  %7.1f s CPU (user+sys)  load before %s\n' \
    "$name" "$wall" "$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')" "$load"
}
echo "build_cost_bench: pith-stamp + pith-check from nothing, -j $jobs, $(nproc) cores, $(git -C "$src" rev-parse --short HEAD)"
ways=${PITH_BUILD_WAYS:-plain unity pch}
for way in $ways; do
  case $way in
    plain) build_one plain ;;
    unity) build_one unity -DCMAKE_UNITY_BUILD=ON ;;
    pch) build_one pch -DPITH_PRECOMPILED_HEADERS=ON ;;
  esac
done
