#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# docs/corpus.md, recipe 1: GNU parallel across hosts (--sshlogin), tested
# against an sshd this script starts on 127.0.0.1 (a high port, a generated
# host key and authorized key), standing in for two machines. Shards in, JSON
# Lines out (one file per shard, on the shared directory), one shard's
# pith-check killed mid-run and resumed by `parallel --resume-failed`, then
# merged and summarised: every input exactly once.
source "$(dirname "$0")/common.sh"
command -v parallel >/dev/null || skip "GNU parallel is not installed"
[[ -x /usr/sbin/sshd ]] || skip "openssh-server is not installed"
kill_at_exit sshd_pid

# --- an sshd on loopback, keys made here ------------------------------------
ssh-keygen -q -t ed25519 -N '' -f "$work/host_key"
ssh-keygen -q -t ed25519 -N '' -f "$work/user_key"
cp "$work/user_key.pub" "$work/authorized_keys"
chmod 600 "$work/authorized_keys"
port=$((20000 + RANDOM % 20000))
cat >"$work/sshd_config" <<CFG
Port $port
ListenAddress 127.0.0.1
HostKey $work/host_key
AuthorizedKeysFile $work/authorized_keys
PidFile $work/sshd.pid
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
UsePAM no
StrictModes no
PermitUserEnvironment no
CFG
mkdir -p /run/sshd 2>/dev/null || true
/usr/sbin/sshd -D -f "$work/sshd_config" -E "$work/sshd.log" &
sshd_pid=$!
ssh_cmd="ssh -p $port -i $work/user_key -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR"
up=""
for _ in $(seq 1 100); do
  if $ssh_cmd "$(id -un)@127.0.0.1" true 2>/dev/null; then up=1; break; fi
  sleep 0.1
done
[[ -n $up ]] || skip "sshd did not start on 127.0.0.1:$port ($(tail -n 3 "$work/sshd.log" 2>/dev/null | tr '\n' ' '))"
start=$(date +%s.%N)

make_tar "$work" 8
shards=4
out="$work/run"
mkdir "$out"
# The job each host runs for shard {}: idempotent, so a rerun continues it.
job="env PITH_RESOLVER=http://127.0.0.1:9 $check --offline --json -j 2 --shard {}/$shards \
  --joblog $out/shard-{}.joblog --resume --tar $work/corpus.tar.gz >>$out/shard-{}.jsonl 2>>$out/shard-{}.err; \
  test \$? -le 4"
login="1/$(id -un)@127.0.0.1"
parallel_run() {
  seq 1 "$shards" | parallel --ssh "$ssh_cmd" --sshlogin "$login,$login" --joblog "$out/parallel.log" "$@" "$job"
}

# Run 1: shard 2's pith-check is killed halfway (SIGKILL, as a lost machine).
parallel_run &
run=$!
for _ in $(seq 1 600); do
  [[ -s $out/shard-2.jsonl ]] && (($(wc -l <"$out/shard-2.jsonl") >= 5)) && break
  sleep 0.05
done
victim=$(pgrep -f -- "--shard 2/$shards --joblog $out/" | head -n1 || true)
[[ -n $victim ]] && kill -KILL "$victim"
wait "$run" || true
killed_at=$(wc -l <"$out/shard-2.jsonl")
[[ -n $victim ]] && echo "gnu_parallel: shard 2 killed after $killed_at inputs" >&2
# Run 2: parallel reruns what failed; pith-check resumes from the shard's joblog.
parallel_run --resume-failed

cat "$out"/shard-*.jsonl >"$out/merged.jsonl"
# SIGKILL can land between a report and its joblog line: drop a repeated input (docs/corpus.md).
/usr/bin/python3 "$src/scripts/pith-corpus-merge" "$out/merged.jsonl" --summary "$out/summary.json" >"$out/unique.jsonl"
same_once "$out/unique.jsonl" "$work/reference.v" "GNU parallel --sshlogin"
/usr/bin/python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); assert s["inputs"]==int(sys.argv[2]), s' \
  "$out/summary.json" "$(wc -l <"$work/reference.v")" || { echo "FAIL: summary" >&2; exit 1; }
echo "gnu_parallel: ok ($(wc -l <"$work/reference.v") inputs, $shards shards over ssh, $(awk "BEGIN{print $(date +%s.%N)-$start}") s)"
