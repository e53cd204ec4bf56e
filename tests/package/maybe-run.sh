#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# make test's packaging step: runs tests/package/run.sh (minutes: a package
# build and a Debian root) only when PITH_PACKAGE_TEST=1 or the last commit
# touched what the packages are made of; otherwise says why it skipped.
set -euo pipefail
cd "$(dirname "$0")/../.."
inputs='^(debian/|cmake/|man/|tests/package/|tests/consumer/|CMakeLists\.txt|lib/CMakeLists\.txt|tools/CMakeLists\.txt)'
if [[ ${PITH_PACKAGE_TEST:-} == 1 ]]; then
  echo "package-test: PITH_PACKAGE_TEST=1"
elif changed=$(git diff --name-only HEAD~1 2>/dev/null | grep -E "$inputs"); then
  echo "package-test: the last commit changed packaging inputs: $(echo $changed)"
else
  echo "package-test: skipped (the last commit changed none of debian/ cmake/ man/ tests/package/ tests/consumer/ or the CMakeLists; PITH_PACKAGE_TEST=1 forces it)"
  exit 0
fi
# A package build and a Debian root: 1.9 GB at their peak (df sampled every 3 s
# through a run, 2026-12-05), and a margin.
scripts/check-space 3072 "${PITH_PACKAGE_DIR:-build/package}"
exec tests/package/run.sh
