#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# make corpus-engines-test: the distributed-engine recipes of docs/corpus.md,
# end to end on loopback. A recipe whose engine cannot start here is skipped,
# said so on stderr; any other failure fails the target.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
status=0
for t in gnu_parallel dask; do
  bash "$here/$t.sh"
  rc=$?
  case $rc in
    0) ;;
    77) echo "corpus-engines-test: $t SKIPPED (the engine cannot start here)" >&2 ;;
    *) echo "corpus-engines-test: $t FAILED" >&2; status=1 ;;
  esac
done
exit $status
