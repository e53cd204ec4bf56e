#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The installed headers are the public API (include/pith/, installed whole:
# lib/CMakeLists.txt). Installs the build into a temporary prefix and
# compiles every installed header on its own, with only the install tree and
# nlohmann's headers on the include path. Fails when a header does not
# compile alone (it includes a pith header that is not installed, or misses
# an include), or when anything it includes, directly or not, is a PoDoFo
# header or a pith header from outside the install tree: PoDoFo is linked
# privately and its types must not leak into the API.
# Needs PITH_BUILD_DIR, PITH_CXX and PITH_NLOHMANN_INCLUDE (':'-separated), set by ctest.
set -euo pipefail

: "${PITH_BUILD_DIR:?PITH_BUILD_DIR must name the build directory}"
: "${PITH_CXX:?PITH_CXX must name the C++ compiler}"
: "${PITH_NLOHMANN_INCLUDE:?PITH_NLOHMANN_INCLUDE must name nlohmann_json include directories}"
source "$(dirname "$0")/../support/scratch_env.sh"  # $work, $src, $bin, $data; offline, reproducible

cmake --install "$PITH_BUILD_DIR" --prefix "$work/prefix" >"$work/install.log"
include="$work/prefix/include"
flags=(-std=c++23 -I "$include")
IFS=: read -r -a nlohmann_dirs <<<"$PITH_NLOHMANN_INCLUDE"
for dir in "${nlohmann_dirs[@]}"; do flags+=(-I "$dir"); done

mapfile -t headers < <(cd "$include" && find pith -name '*.hpp' | sort)
if ((${#headers[@]} == 0)); then
  echo "FAIL: no header installed under $include/pith" >&2
  exit 1
fi
failures=0
for header in "${headers[@]}"; do
  source="$work/one.cpp"
  printf '#include "%s"\n' "$header" >"$source"
  if ! "$PITH_CXX" "${flags[@]}" -fsyntax-only "$source" 2>"$work/errors"; then
    echo "FAIL: $header does not compile on its own against the installed headers:" >&2
    sed 's/^/  /' "$work/errors" | head -20 >&2
    failures=$((failures + 1))
    continue
  fi
  # Every file it opens, directly or not (-M: one dependency per line).
  "$PITH_CXX" "${flags[@]}" -M "$source" | tr ' \\' '\n\n' | grep -v '^$' | grep -v ':$' >"$work/deps"
  if grep -i 'podofo' "$work/deps" >"$work/bad"; then
    echo "FAIL: $header reaches PoDoFo:" >&2
    sed 's/^/  /' "$work/bad" >&2
    failures=$((failures + 1))
  fi
  if grep '/pith/' "$work/deps" | grep -v "^$include/" >"$work/bad"; then
    echo "FAIL: $header reaches pith headers outside the install tree:" >&2
    sed 's/^/  /' "$work/bad" >&2
    failures=$((failures + 1))
  fi
done
echo "${#headers[@]} installed headers checked, $failures problem(s)"
((failures == 0))
