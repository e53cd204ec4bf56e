#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# docs/corpus.md, recipe 2: Dask distributed, scheduler and two workers as
# separate processes on 127.0.0.1. One task per shard (dask_shards.py); a
# worker is killed (SIGKILL) while its shard runs: Dask gives the task to the
# other worker, pith-check resumes from the shard's joblog; merged and
# summarised, every input is there exactly once.
source "$(dirname "$0")/common.sh"
/usr/bin/python3 -c 'import distributed' 2>/dev/null || skip "python3-distributed is not installed"
command -v dask-scheduler >/dev/null || skip "dask-scheduler is not installed"
pids=()
at_exit+=('for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done')
start=$(date +%s.%N)
make_tar "$work" 8

port=$((20000 + RANDOM % 20000))
export DASK_DISTRIBUTED__WORKER__DAEMON=False
dask-scheduler --host 127.0.0.1 --port "$port" --dashboard-address :0 --no-show >"$work/scheduler.log" 2>&1 &
pids+=($!)
for w in 1 2; do
  dask-worker "tcp://127.0.0.1:$port" --host 127.0.0.1 --nworkers 1 --nthreads 1 --no-nanny --name "w$w" \
    --dashboard-address :0 --local-directory "$work/w$w" >"$work/worker$w.log" 2>&1 &
  pids+=($!)
done
worker_pid=("" "${pids[1]}" "${pids[2]}")
up=""
for _ in $(seq 1 200); do
  if /usr/bin/python3 -c "
from distributed import Client
import sys
with Client('tcp://127.0.0.1:$port', timeout=2) as c:
    sys.exit(0 if len(c.scheduler_info()['workers']) == 2 else 1)" 2>/dev/null; then up=1; break; fi
  sleep 0.2
done
[[ -n $up ]] || skip "the Dask scheduler and workers did not start ($(tail -n 2 "$work/scheduler.log" | tr '\n' ' '))"

shards=4
out="$work/run"
mkdir "$out"
/usr/bin/python3 "$(dirname "$0")/dask_shards.py" "tcp://127.0.0.1:$port" "$shards" "$out" -- \
  "$check" --offline -j 1 --tar "$work/corpus.tar.gz" 2>"$work/client.log" &
client=$!
# Kill the worker running some shard once it has reported a few inputs.
victim=""
for _ in $(seq 1 600); do
  for k in $(seq 1 $shards); do
    if [[ -s $out/shard-$k.jsonl ]] && (($(wc -l <"$out/shard-$k.jsonl") >= 5)); then
      check_pid=$(pgrep -f -- "--shard $k/$shards --joblog $out/" | head -n1 || true)
      [[ -n $check_pid ]] || continue
      parent=$(ps -o ppid= -p "$check_pid" | tr -d ' ')
      for w in 1 2; do [[ $parent == "${worker_pid[$w]}" ]] && victim=$w; done
      [[ -n $victim ]] && break 2
    fi
  done
  sleep 0.05
done
if [[ -n $victim ]]; then
  kill -KILL "${worker_pid[$victim]}" "$check_pid" 2>/dev/null || true
  echo "dask: worker w$victim killed while it ran shard $k ($(wc -l <"$out/shard-$k.jsonl") inputs in)" >&2
else
  echo "dask: no shard ran long enough to kill its worker" >&2
fi
wait "$client" || { echo "FAIL: the Dask client failed: $(tail -n 5 "$work/client.log")" >&2; exit 1; }

cat "$out"/shard-*.jsonl >"$out/merged.jsonl"
"$src/scripts/pith-corpus-merge" "$out/merged.jsonl" --summary "$out/summary.json" >"$out/unique.jsonl"
same_once "$out/unique.jsonl" "$work/reference.v" "Dask distributed"
echo "dask: ok ($(wc -l <"$work/reference.v") inputs, $shards shards, 2 workers, $(awk "BEGIN{print $(date +%s.%N)-$start}") s)"
