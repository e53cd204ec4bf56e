#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 23, memory amplification: PDFs whose page 1 carries 100,000 and
# 250,000 link annotations (generated here: tests/support/many_annotations_pdf.py,
# the first link names the test record's number) go through pith-check and
# pith-stamp with a clear verdict and a bounded peak RSS (GNU time's maximum
# resident set of the tool and its children): only the first 4,096 of page
# 1's annotations are ever read. Then through pith-serve, three of each at
# once with --jobs 2: each answered (unbound, or 503 when the budget or the
# queue is full), and the service's whole process tree (sampled every 0.1 s)
# never above its --memory-budget.
set -euo pipefail
source "$(dirname "$0")/../support/scratch_env.sh"  # $work, $src, $bin, $data; offline, reproducible
need_tools pith-check pith-stamp pith-serve
kill_at_exit serve_pid

fixture_mirror  # $registry
rss_limit_kib=$hostile_rss_limit_kib  # scratch_env.sh

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
  # A child past its budget (runner/child_budget.hpp) is stopped with one
  # line naming the budget and the option; nothing is written. (250,000
  # links take PoDoFo past 16 MiB; 100,000 fit.)
  if ((count == 250000)); then
    cp "$pdf" "$work/budget-$count.pdf"
    rc=0
    "$bin/pith-stamp" "${registry[@]}" --pith "$number" --child-memory 16 "$work/budget-$count.pdf" >"$work/budget.out" 2>&1 || rc=$?
    ((rc == 2)) || fail "pith-stamp --child-memory 16 on $count annotations: exit $rc: $(cat "$work/budget.out")"
    grep -q "exceeded the memory limit of 16 MiB and was stopped; raise it with --child-memory MiB" "$work/budget.out" ||
      fail "pith-stamp --child-memory 16 on $count annotations: $(cat "$work/budget.out")"
    cmp -s "$pdf" "$work/budget-$count.pdf" || fail "pith-stamp --child-memory 16 on $count annotations: the file changed"
    rm -f "$work/budget-$count.pdf"
  fi
  rm -f "$work/stamped-$count.pdf"  # 250,000 links weigh tens of MB; the service below needs only the originals
done

# ---- pith-serve: both files, three of each at once, under --memory-budget ----
budget_mib=1280
"$bin/pith-serve" --listen 127.0.0.1:0 "${registry[@]}" --jobs 2 --queue 4 --max-upload 48MiB --check-memory 384MiB \
  --memory-budget "${budget_mib}MiB" 2>"$work/serve.log" &
serve_pid=$!
for _ in $(seq 1 200); do grep -q "listening on" "$work/serve.log" && break; sleep 0.05; done
base=$(sed -n 's/.*listening on \(http:\/\/[0-9.:]*\).*/\1/p' "$work/serve.log")
[[ -n $base ]] || fail "pith-serve did not start: $(cat "$work/serve.log")"
/usr/bin/python3 - "$serve_pid" "$work/peak" <<'PY' &
import os, sys, time
root, out = int(sys.argv[1]), sys.argv[2]
peak = 0
while os.path.exists(f"/proc/{root}"):
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = open(f"/proc/{entry}/stat").read().rsplit(")", 1)[1].split()
                children.setdefault(int(fields[1]), []).append(int(entry))
            except OSError:
                pass
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        todo += children.get(pid, [])
        try:
            total += sum(int(l.split()[1]) for l in open(f"/proc/{pid}/status") if l.startswith("VmRSS:"))
        except OSError:
            pass
    peak = max(peak, total)
    open(out, "w").write(str(peak))
    time.sleep(0.1)
PY
sampler=$!
for count in 100000 250000; do
  for i in 1 2 3; do
    curl -sS -o "$work/serve-$count-$i.json" -w '%{http_code}' --data-binary "@$work/links-$count.pdf" \
      "$base/api/v1/check?name=links-$count.pdf" >"$work/serve-$count-$i.status" &
  done
done
wait $(jobs -p | grep -v -e "^$serve_pid$" -e "^$sampler$") 2>/dev/null || true
answered=0
for count in 100000 250000; do
  for i in 1 2 3; do
    status=$(cat "$work/serve-$count-$i.status")
    case $status in
      200)
        /usr/bin/python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); assert r["verdict"] == "unbound", r["verdict"]' \
          "$work/serve-$count-$i.json" || fail "pith-serve, $count annotations: $(head -c 400 "$work/serve-$count-$i.json")"
        answered=$((answered + 1)) ;;
      503) ;;
      *) fail "pith-serve, $count annotations: HTTP $status" ;;
    esac
  done
done
((answered >= 2)) || fail "pith-serve checked only $answered of the six uploads"
kill -TERM "$serve_pid"
wait "$serve_pid" || fail "pith-serve did not exit 0"
serve_pid=""
wait "$sampler" 2>/dev/null || true
peak_kib=$(cat "$work/peak")
((peak_kib <= budget_mib * 1024)) || fail "pith-serve's tree reached $((peak_kib / 1024)) MiB, over --memory-budget ${budget_mib} MiB"
echo "ok: pith-serve, 6 uploads of 100k/250k annotations: $answered checked (unbound), the rest 503; tree peak $((peak_kib / 1024)) MiB <= ${budget_mib} MiB"
