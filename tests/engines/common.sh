# SPDX-License-Identifier: GPL-3.0-or-later
# Sourced by the engine recipes' tests (make corpus-engines-test): a small
# generated corpus in a tar, the single-machine reference run, and the check
# that a merged distributed run holds every input exactly once with the same
# verdicts. Exit 77: the engine cannot start here (a clear skip, not a pass).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../support/scratch_env.sh"  # $work, $src, $bin, $check; offline, reproducible
need_tools pith-check pith-stamp
export PITH_TEST_DATA=$data
export PITH_ZOO_DIR=${PITH_ZOO_DIR:-$bin/../zoo}

skip() {
  echo "SKIP: $*" >&2
  exit 77
}

# make_tar DIR COPIES: DIR/corpus.tar.gz and DIR/reference.v (member, verdict; sorted).
make_tar() {
  local dir=$1 copies=$2
  "$src/tests/support/make_corpus.sh" "$dir/c" "$copies" >/dev/null
  cut -f1 "$dir/c/expected.tsv" >"$dir/names"
  (cd "$dir/c" && tar -czf "$dir/corpus.tar.gz" -T "$dir/names")
  "$check" --offline --json -j 2 --tar "$dir/corpus.tar.gz" >"$dir/reference.jsonl" 2>/dev/null || true
  verdicts_of "$dir/reference.jsonl" >"$dir/reference.v"
}

verdicts_of() {
  /usr/bin/python3 -c '
import json, sys
for line in open(sys.argv[1], encoding="utf-8"):
    r = json.loads(line)
    print(r["member"] + "\t" + r["verdict"])' "$1" | sort
}

# same_once MERGED.jsonl REFERENCE.v WHAT: every input once, same verdicts.
same_once() {
  verdicts_of "$1" >"$1.v"
  if ! diff -q "$2" "$1.v" >/dev/null; then
    echo "FAIL: $3: merged output is not every input exactly once:" >&2
    diff "$2" "$1.v" | head -5 >&2
    exit 1
  fi
}
