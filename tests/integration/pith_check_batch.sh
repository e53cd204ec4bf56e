#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# pith-check's batch runs account for every input (issue 31): a tar of
# 10,000 PDFs, most of them hard links to a few made once, is 10,000 inputs
# (a hard link is read as the file it links to), with its symbolic links,
# FIFO and directories counted and named as members not checked; an
# interrupted run (SIGINT) writes its partial summary and exits 130; its
# --resume gives the summary, page and exit code of the whole run; every row
# of the HTML page gives a reason; an empty shard says so. Offline.
set -euo pipefail

source "$(dirname "$0")/../support/scratch_env.sh"  # $work, $src, $bin, $data; offline, reproducible
need_tools pith-check pith-stamp
kill_at_exit run_pid
source "$(dirname "$0")/../support/cli_expect.sh"  # fail, expect_exit, expect_out, expect_err
use_zoo >/dev/null

# Three PDFs made once: stamped (verified), stamped then changed (failed), plain (not_found).
once="$work/once"
mkdir -p "$once"
env -u PITH_RESOLVER "$bin/pith-stamp" --offline --pith pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65 \
  --bundle "$data/JFLLIOJUI2M3KX3FLLGP4N2V65.bundle.json" -o "$once/s.pdf" "$zoo/paper.pdf" >/dev/null
cp "$zoo/paper.pdf" "$once/u.pdf"
/usr/bin/python3 - "$once/s.pdf" "$once/t.pdf" <<'PY'
import sys
b = bytearray(open(sys.argv[1], "rb").read())
at = b.find(b"stream", b.find(b"stream", b.find(b"stream") + 1) + 1) + 40
b[at] = ord("Z") if b[at] != ord("Z") else ord("Y")
open(sys.argv[2], "wb").write(bytes(b))
PY

# 10,000 PDFs: 80 failed, 200 verified, the rest not_found (the cheap ones:
# the test stays well under a minute); each a hard link to one of the three.
c="$work/corpus"
mkdir -p "$c/d"
/usr/bin/python3 - "$once" "$c/d" <<'PY'
import os, sys
once, d = sys.argv[1], sys.argv[2]
for i in range(10000):
    k = "t" if i % 125 == 7 else "s" if i % 50 == 1 else "u"
    os.link(f"{once}/{k}.pdf", f"{d}/p-{i:05d}.pdf")
PY
[[ $(find "$c/d" -name '*.pdf' | wc -l) == 10000 ]] || fail "the corpus is not 10,000 PDFs"
# Members that are not files: two symbolic links, a FIFO (and the directories).
ln -s p-00000.pdf "$c/d/sym-0.pdf"
ln -s ../../nowhere.pdf "$c/d/sym-1.pdf"
mkfifo "$c/d/fifo"
(cd "$work" && tar -cf corpus.tar corpus)
links=$(tar -tvf "$work/corpus.tar" | grep -c '^h' || true)
((links > 9000)) || fail "the tar holds $links hard links, not the most of its members"

# --- the whole run: every PDF an input, each member not checked named -------
start=$SECONDS
"$check" --offline -q -j 2 --tar "$work/corpus.tar" --summary "$work/whole.json" --html "$work/whole.html" \
  2>"$work/whole.err" && rc=0 || rc=$?
[[ $rc == 1 ]] || fail "whole run: exit $rc, not 1 (80 failed)"
read -r inputs verified failed not_found <<<"$(/usr/bin/python3 -c '
import json, sys; s = json.load(open(sys.argv[1])); v = s["verdicts"]
print(s["inputs"], v["verified"], v["failed"], v["not_found"])' "$work/whole.json")"
[[ "$inputs $verified $failed $not_found" == "10000 200 80 9720" ]] ||
  fail "whole run: inputs, verified, failed, not_found: $inputs $verified $failed $not_found"
/usr/bin/python3 -c '
import json, sys; s = json.load(open(sys.argv[1]))["skipped_members"]
assert s == {"directory": 2, "fifo": 1, "symbolic link": 2}, s' "$work/whole.json" ||
  fail "whole run: members not checked are not counted by kind"
echo "whole run: $((SECONDS - start)) s" >&2

# Human mode names each member not checked, in one line, and counts them.
"$check" --offline -j 2 --tar "$work/corpus.tar" --shard 1/50 >/dev/null 2>"$work/named.err" || true
grep -q "corpus/d/sym-1.pdf: a symbolic link to '../../nowhere.pdf', not a file: not checked" "$work/named.err" ||
  fail "a symbolic link member is not named: $(head -c 400 "$work/named.err")"
grep -q "corpus/d/fifo: a fifo, not a file: not checked" "$work/named.err" || fail "a FIFO member is not named"
grep -q "tar members not checked (not files): 2 directory, 1 fifo, 2 symbolic link" "$work/named.err" ||
  fail "the closing lines do not count the members not checked: $(tail -n 5 "$work/named.err")"

# --- the HTML page: the checks table counts inputs; every row gives its reason
/usr/bin/python3 - "$work/whole.html" <<'PY' || fail "whole run: the HTML page"
import re, sys
h = open(sys.argv[1], encoding="utf-8").read()
assert "<th>inputs failing it</th>" in h, "checks table header"
rows = re.findall(r"<tr><td><a href=\"#r\d+\">[^<]*</a></td><td>([a-z_]+)</td><td>([^<]*)</td>", h)
assert len(rows) == 9800, len(rows)
assert all(reason.strip() for _, reason in rows), "a row without a reason"
failed = [r for v, r in rows if v == "failed"]
assert len(failed) == 80 and all(":" in r for r in failed), failed[:3]
PY

# --- interrupted, then resumed: the whole run's summary and exit code --------
log="$work/run.joblog"
# In a process group of its own, interrupted as Ctrl-C does: the whole group
# gets SIGINT, its children too (their deaths must not read as crashes).
setsid "$check" --offline --json -j 2 --workers fork --tar "$work/corpus.tar" --joblog "$log" \
  --summary "$work/part.json" --html "$work/part.html" >"$work/part.jsonl" 2>"$work/part.err" &
run_pid=$!
for _ in $(seq 1 200); do
  (($(wc -l <"$log" 2>/dev/null || echo 0) >= 300)) && break
  sleep 0.05
done
kill -INT -- "-$run_pid"
wait "$run_pid" && rc=0 || rc=$?
run_pid=
[[ $rc == 130 ]] || fail "interrupted run: exit $rc, not 130"
grep -q "interrupted by SIGINT: the reports so far are written and in the joblog; run the same command with --joblog $log --resume" \
  "$work/part.err" || fail "interrupted run: no line saying how to resume: $(tail -n 3 "$work/part.err")"
done_first=$(wc -l <"$work/part.jsonl")
if grep -q '"verdict":"error"' "$work/part.jsonl"; then fail "interrupted run: an input reported as an error"; fi
echo "interrupted after $done_first reports" >&2
((done_first > 0 && done_first < 10000)) || fail "interrupted run: $done_first reports"
/usr/bin/python3 -c '
import json, sys; s = json.load(open(sys.argv[1])); n = int(sys.argv[2])
assert s["inputs"] == n, (s["inputs"], n)
assert s["interrupted"]["signal"] == "SIGINT" and "--resume" in s["interrupted"]["resume"], s["interrupted"]' \
  "$work/part.json" "$done_first" || fail "interrupted run: its partial summary"
grep -q 'interrupted by SIGINT' "$work/part.html" || fail "interrupted run: the page does not say so"

"$check" --offline --json -j 2 --tar "$work/corpus.tar" --joblog "$log" --resume \
  --summary "$work/resumed.json" --html "$work/resumed.html" >>"$work/part.jsonl" 2>"$work/resumed.err" && rc=0 || rc=$?
[[ $rc == 1 ]] || fail "resumed run: exit $rc, not 1 as the whole run"
[[ $(wc -l <"$work/part.jsonl") == 10000 ]] || fail "interrupted + resumed: $(wc -l <"$work/part.jsonl") reports"
/usr/bin/python3 -c '
import json, sys; a = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[2]))
assert a["verdicts"] == b["verdicts"] and a["failing_checks"] == b["failing_checks"], (a["verdicts"], b["verdicts"])
assert b["inputs"] == 10000 and b["resumed"]["earlier_inputs"] == int(sys.argv[3]) and "interrupted" not in b, b' \
  "$work/whole.json" "$work/resumed.json" "$done_first" || fail "resumed run: its summary is not the whole run's"
grep -c '<tr><td><a href="#r' "$work/resumed.html" | grep -qx 9800 || fail "resumed run: the page does not list every input not verified"

# The joblog alone rebuilds the whole run's summary and exit code.
"$check" --offline --joblog "$log" --resume --summary "$work/rebuilt.json" >"$work/rebuilt.out" 2>&1 && rc=0 || rc=$?
[[ $rc == 1 ]] || fail "rebuilt from the joblog: exit $rc, not 1: $(head -c 300 "$work/rebuilt.out")"
/usr/bin/python3 -c '
import json, sys; a = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[2]))
assert a["verdicts"] == b["verdicts"] and b["inputs"] == 10000 and b["resumed"]["earlier_inputs"] == 10000, b' \
  "$work/whole.json" "$work/rebuilt.json" || fail "rebuilt from the joblog: not the whole run's summary"

# --- an empty shard says so ------------------------------------------------
printf '%s\n' "$once/s.pdf" >"$work/one"
for k in 1 2 3 4 5 6 7 8; do
  "$check" --offline --files-from "$work/one" --shard "$k/8" >/dev/null 2>"$work/shard.err" && rc=0 || rc=$?
  if [[ ! -s "$work/shard.err" ]]; then continue; fi
  grep -qx "pith-check: --shard $k/8 (of 1 inputs) holds none of the inputs: nothing was checked" "$work/shard.err" ||
    fail "empty shard $k/8: $(cat "$work/shard.err")"
  [[ $rc == 0 ]] || fail "empty shard $k/8: exit $rc, not 0"
  empty=$((${empty:-0} + 1))
done
[[ ${empty:-0} == 7 ]] || fail "${empty:-0} empty shards of 8 said so, not 7"
echo "pith_check_batch: ok"
