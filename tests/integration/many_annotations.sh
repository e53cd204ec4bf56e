#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 23, memory amplification: PDFs whose page 1 carries 100,000 and
# 250,000 link annotations (generated here: tests/support/many_annotations_pdf.py,
# the first link names the test record's number) go through pith-check and
# pith-stamp with a clear verdict and a bounded peak RSS (GNU time's maximum
# resident set of the tool and its children): only the first 4,096 of page
# 1's annotations are ever read.
set -euo pipefail
bin=${PITH_BIN:?PITH_BIN must be set}
data=${PITH_TEST_DATA:?PITH_TEST_DATA must be set}
src=${PITH_SOURCE_DIR:?PITH_SOURCE_DIR must be set}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

number=pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65
mkdir -p "$work/mirror/pith/${number##*:}"
cp "$data/JFLLIOJUI2M3KX3FLLGP4N2V65.bundle.json" "$work/mirror/pith/${number##*:}/bundle.json"
registry=(--offline --mirror "file://$work/mirror" --cache-dir "$work/cache")
rss_limit_kib=$((256 * 1024))

# peak_rss_kib OUT -- COMMAND...: runs COMMAND (any exit status), its stdout
# in OUT; prints the peak RSS in KiB.
peak_rss_kib() {
  local out=$1
  shift 2
  /usr/bin/time -f '%M' -o "$work/rss" "$@" >"$out" 2>"$work/stderr" || true
  tail -1 "$work/rss"
}

for count in 100000 250000; do
  pdf="$work/links-$count.pdf"
  /usr/bin/python3 "$src/tests/support/many_annotations_pdf.py" "$count" "$pdf" "$number"

  rss=$(peak_rss_kib "$work/check.json" -- "$bin/pith-check" "${registry[@]}" --json "$pdf")
  ((rss <= rss_limit_kib)) || fail "pith-check on $count annotations: peak RSS $rss KiB over $rss_limit_kib"
  /usr/bin/python3 - "$work/check.json" "$count" <<'PY' || fail "pith-check on $count annotations: $(head -c 600 "$work/check.json")"
import json, sys
report = json.load(open(sys.argv[1]))
# The number is found through page 1's first link and resolved: a verdict
# about the record (unbound: this generated page is not the paper), never an
# error or "no number".
assert report["verdict"] == "unbound", report["verdict"]
assert report["pith_number"] == "pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65"
problems = report["details"].get("metadata_problems", [])
assert any("more than 4096 annotations" in p for p in problems), problems
PY
  echo "ok: pith-check, $count annotations: unbound, peak RSS $((rss / 1024)) MiB"

  cp "$pdf" "$work/stamped-$count.pdf"
  rss=$(peak_rss_kib "$work/stamp.out" -- "$bin/pith-stamp" "${registry[@]}" --pith "$number" "$work/stamped-$count.pdf")
  ((rss <= rss_limit_kib)) || fail "pith-stamp on $count annotations: peak RSS $rss KiB over $rss_limit_kib"
  "$bin/pith-check" --offline --cache-dir "$work/cache" --json "$work/stamped-$count.pdf" >"$work/stamped.json" || true
  grep -q '"pdf.record.source"' "$work/stamped.json" || fail "pith-stamp on $count annotations wrote no record: $(cat "$work/stderr")"
  echo "ok: pith-stamp, $count annotations: stamped, peak RSS $((rss / 1024)) MiB"
done
