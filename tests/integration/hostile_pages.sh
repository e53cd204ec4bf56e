#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 32, every child bounded: a page 1 costly to draw, small on disk
# (generated here: tests/support/hostile_pages_pdf.py; each links to the test
# record's number, so a check has something to say and a stamp something to
# write): a 14,400 pt square MediaBox (and with /UserUnit 75000), a
# 200-megapixel image, 1,000 nested forms, forms that draw themselves,
# nested tiling patterns, 10,000,000 operators. Each goes through pith-check
# (--json, text, a batch with -j 2), pith-stamp --pith and one pith-serve
# upload: each answered within its child's wall budget with a verdict (or a
# stop naming the limit and its option, the file unchanged), and the peak RSS
# of the tool's tree (GNU time's %M: the largest of the tool and its
# children) within 256 MiB. The renders that decide what is seen are at most
# 8 megapixels whatever the page's size, and a drawing stops after
# 2,000,000 operators: page 1 is then "too complex to draw", and nothing a
# reader sees binds (docs/security.md, "Hostile pages").
set -euo pipefail
source "$(dirname "$0")/../support/scratch_env.sh"  # $work, $src, $bin, $data; offline, reproducible
need_tools pith-check pith-stamp pith-serve
kill_at_exit serve_pid

fixture_mirror  # $registry
rss_limit_kib=$hostile_rss_limit_kib  # scratch_env.sh
wall=90  # a child's wall budget is 60 s: an answer comes before this, or the tool is stuck
kinds=(mediabox userunit image forms-deep forms-cycle patterns operators)

for kind in "${kinds[@]}"; do
  /usr/bin/python3 "$src/tests/support/hostile_pages_pdf.py" "$kind" "$work/$kind.pdf" "$number"
  size=$(stat -c %s "$work/$kind.pdf")
  ((size < 1024 * 1024)) || fail "hostile_pages_pdf.py $kind made $size bytes: these files are meant to be small"
done

# ---- pith-check --json, one file at a time ----
for kind in "${kinds[@]}"; do
  pdf="$work/$kind.pdf"
  rss=$(peak_rss_kib "$work/check.json" -- "$bin/pith-check" "${registry[@]}" --json "$pdf")
  ((rss <= rss_limit_kib)) || fail "pith-check --json on $kind: peak RSS $rss KiB over $rss_limit_kib"
  /usr/bin/python3 - "$work/check.json" "$kind" <<'PY' || fail "pith-check --json on $kind: $(head -c 800 "$work/check.json") $(cat "$work/stderr")"
import json, sys
report, kind = json.load(open(sys.argv[1])), sys.argv[2]
# The number is found through page 1's link and resolved: a verdict about
# the record (unbound: this generated page is not the paper), never an
# error, a crash or "no number".
assert report["verdict"] == "unbound", report["verdict"]
assert report["pith_number"] == "pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65"
title = report["details"]["bindings"]["visible_title"]
if kind == "operators":
    # Stopped after 2,000,000 operators: what a reader sees is not known.
    assert title["state"] == "undetermined", title
    assert "page 1 is too complex to draw" in title["detail"], title
else:
    # Drawn whole (a huge page coarser): the page's one line was read.
    assert title["state"] == "absent", title
    assert "(1 lines read)" in title["detail"], title
PY
  echo "ok: pith-check --json, $kind: unbound ($(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["details"]["bindings"]["visible_title"]["detail"])' "$work/check.json")), peak RSS $((rss / 1024)) MiB"
done

# ---- pith-check, text, one file and a batch of all with -j 2 ----
rss=$(peak_rss_kib "$work/check.txt" -- "$bin/pith-check" "${registry[@]}" "$work/operators.pdf")
(($(cat "$work/rc") == 4)) || fail "pith-check on operators: exit $(cat "$work/rc") (4: unverifiable, as unbound is): $(cat "$work/stderr")"
grep -q "warn pdf.title.visible_undetermined: page 1 is too complex to draw (more than 2000000 operators)" "$work/check.txt" ||
  fail "pith-check on operators: $(head -c 1500 "$work/check.txt")"
echo "ok: pith-check, operators: exit 4, 'page 1 is too complex to draw', peak RSS $((rss / 1024)) MiB"

files=()
for kind in "${kinds[@]}"; do files+=("$work/$kind.pdf"); done
rss=$(peak_rss_kib "$work/batch.txt" -- "$bin/pith-check" "${registry[@]}" -j 2 "${files[@]}")
(($(cat "$work/rc") == 4)) || fail "pith-check -j 2: exit $(cat "$work/rc"): $(cat "$work/stderr")"
((rss <= rss_limit_kib)) || fail "pith-check -j 2: peak RSS $rss KiB over $rss_limit_kib"
grep -q "^${#kinds[@]} inputs: ${#kinds[@]} unbound$" "$work/batch.txt" || fail "pith-check -j 2: $(tail -3 "$work/batch.txt") $(cat "$work/stderr")"
echo "ok: pith-check -j 2, ${#kinds[@]} files: all unbound, peak RSS $((rss / 1024)) MiB"

# A child past its budget is stopped, and the check is unverifiable (exit 4:
# nothing is known of the file) with one line naming the budget and its
# option, on the headline and as --json's `stopped` (it was "the parsing
# child sent malformed facts": the child could not map the file and sent
# nothing, which was judged as facts; then an error, exit 2).
rc=0
"$bin/pith-check" "${registry[@]}" --child-memory 16 "$work/mediabox.pdf" >"$work/budget.out" 2>"$work/stderr" || rc=$?
((rc == 4)) || fail "pith-check --child-memory 16: exit $rc: $(cat "$work/budget.out" "$work/stderr")"
[[ $(head -1 "$work/budget.out") == *"$work/mediabox.pdf: unverifiable — the check exceeded the memory limit of 16 MiB and was stopped; raise it with --child-memory MiB" ]] ||
  fail "pith-check --child-memory 16: $(cat "$work/budget.out")"
[[ $(wc -l <"$work/budget.out") == 1 && ! -s $work/stderr ]] || fail "pith-check --child-memory 16: more than one line: $(cat "$work/budget.out" "$work/stderr")"
rc=0
"$bin/pith-check" "${registry[@]}" --child-memory 16 --json "$work/mediabox.pdf" >"$work/budget.json" 2>"$work/stderr" || rc=$?
((rc == 4)) || fail "pith-check --child-memory 16 --json: exit $rc"
/usr/bin/python3 - "$work/budget.json" <<'PY' || fail "pith-check --child-memory 16 --json: $(head -c 600 "$work/budget.json")"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["verdict"] == "unverifiable", r
assert "raise it with --child-memory MiB" in r["stopped"] and "error" not in r, r
PY
echo "ok: pith-check --child-memory 16: unverifiable, one line naming the limit and --child-memory"

# ---- pith-stamp --pith: stamped, or stopped naming the limit with the file unchanged ----
for kind in "${kinds[@]}"; do
  cp "$work/$kind.pdf" "$work/stamped.pdf"
  rss=$(peak_rss_kib "$work/stamp.out" -- "$bin/pith-stamp" "${registry[@]}" --pith "$number" "$work/stamped.pdf")
  rc=$(cat "$work/rc")
  ((rss <= rss_limit_kib)) || fail "pith-stamp on $kind: peak RSS $rss KiB over $rss_limit_kib"
  if ((rc == 0)); then
    "$bin/pith-check" --offline --cache-dir "$work/cache" --json "$work/stamped.pdf" >"$work/stamped.json" || true
    grep -q '"pdf.record.source"' "$work/stamped.json" || fail "pith-stamp on $kind wrote no record: $(cat "$work/stderr")"
    echo "ok: pith-stamp, $kind: stamped, peak RSS $((rss / 1024)) MiB"
  else
    ((rc == 2)) || fail "pith-stamp on $kind: exit $rc: $(cat "$work/stderr")"
    (($(wc -l <"$work/stderr") == 1)) && grep -q "raise it with --child-" "$work/stderr" ||
      fail "pith-stamp on $kind: exit 2 without one line naming the limit: $(cat "$work/stderr")"
    cmp -s "$work/$kind.pdf" "$work/stamped.pdf" || fail "pith-stamp on $kind: refused, and the file changed"
    echo "ok: pith-stamp, $kind: stopped ($(cat "$work/stderr")), the file unchanged"
  fi
done
rm -f "$work/stamped.pdf"

# ---- pith-serve: one upload of each; its tree's peak (GNU time's %M over
# the service, its broker and the checks it forks) within 256 MiB ----
/usr/bin/time -f '%M' -o "$work/serve.rss" "$bin/pith-serve" --listen 127.0.0.1:0 "${registry[@]}" --jobs 2 \
  2>"$work/serve.log" &
serve_pid=$!  # GNU time's: the service is its child
for _ in $(seq 1 200); do grep -q "listening on" "$work/serve.log" && break; sleep 0.05; done
base=$(sed -n 's/.*listening on \(http:\/\/[0-9.:]*\).*/\1/p' "$work/serve.log")
[[ -n $base ]] || fail "pith-serve did not start: $(cat "$work/serve.log")"
for kind in "${kinds[@]}"; do
  status=$(curl -sS --max-time "$wall" -o "$work/serve.json" -w '%{http_code}' --data-binary "@$work/$kind.pdf" \
    "$base/api/v1/check?name=$kind.pdf") || fail "pith-serve, $kind: no answer within $wall s"
  [[ $status == 200 ]] || fail "pith-serve, $kind: HTTP $status: $(head -c 400 "$work/serve.json")"
  /usr/bin/python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); assert r["verdict"] == "unbound", r["verdict"]' \
    "$work/serve.json" || fail "pith-serve, $kind: $(head -c 400 "$work/serve.json")"
  echo "ok: pith-serve /api/v1/check, $kind: unbound"
done
kill -TERM "$(pgrep -P "$serve_pid" -x pith-serve)"
wait "$serve_pid" || fail "pith-serve did not exit 0: $(tail -5 "$work/serve.log")"
serve_pid=""
rss=$(tail -1 "$work/serve.rss")
((rss <= rss_limit_kib)) || fail "pith-serve's tree reached $((rss / 1024)) MiB, over $((rss_limit_kib / 1024)) MiB"
echo "ok: pith-serve, ${#kinds[@]} uploads: all unbound, tree peak $((rss / 1024)) MiB"
