#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# pith-check at corpus scale (issue 15), on a generated corpus of ~300
# stamped, unstamped, tampered, registry and hostile inputs: --tar (plain,
# gzip, stdin) gives the same verdicts as the paths; -0 lists; a member over
# the size bound and a damaged archive; a run killed halfway and resumed from
# its --joblog reports every input exactly once; --shard 1..3/3 is the whole
# set, disjoint; a check that hits its limit on a hostile member is that
# member's `error` and the run goes on. Offline, never the internet.
set -euo pipefail

source "$(dirname "$0")/../support/scratch_env.sh"  # $work, $src, $bin, $data; offline, reproducible
need_tools pith-check
kill_at_exit run_pid
source "$(dirname "$0")/../support/cli_expect.sh"  # fail, expect_exit, expect_out, expect_err
export PITH_ZOO_DIR=${PITH_ZOO_DIR:-$PWD/zoo}

c="$work/c"
"$src/tests/support/make_corpus.sh" "$c" 20
cut -f1 "$c/expected.tsv" >"$work/names"
n=$(wc -l <"$work/names")
((n >= 300)) || fail "corpus has $n inputs"
(cd "$c" && tar -cf "$work/c.tar" -T "$work/names")
gzip -c "$work/c.tar" >"$work/c.tar.gz"
# Non-regular members are skipped: a directory and a symlink in front.
mkdir -p "$work/extra/dir" && ln -s ../c/s-0000-paper.pdf "$work/extra/link.pdf"
(cd "$work/extra" && tar -cf "$work/extra.tar" dir link.pdf)

# verdicts.py OUT.jsonl: "<name>\t<verdict>\t<check codes and statuses>" per line, sorted,
# the name being the member, or the path's file name.
cat >"$work/verdicts.py" <<'PY'
import json, os, sys
rows = []
for line in open(sys.argv[1], encoding="utf-8"):
    r = json.loads(line)
    name = r["member"] if "member" in r else os.path.basename(r["file"])
    checks = ",".join(f"{c['code']}={c['status']}" for c in r["checks"])
    rows.append(f"{name}\t{r['verdict']}\t{checks}")
print("\n".join(sorted(rows)))
PY
verdicts() { /usr/bin/python3 "$work/verdicts.py" "$1"; }

# --- paths: the reference, and the expected verdicts ---------------------
sed "s|^|$c/|" "$work/names" >"$work/paths"
"$check" --offline --json -j 2 --files-from "$work/paths" >"$work/paths.jsonl" 2>/dev/null || true
[[ $(wc -l <"$work/paths.jsonl") == "$n" ]] || fail "paths: $(wc -l <"$work/paths.jsonl") lines for $n inputs"
verdicts "$work/paths.jsonl" >"$work/paths.v"
bad=$(join -t $'\t' <(sort "$c/expected.tsv") <(cut -f1,2 "$work/paths.v") | awk -F'\t' '$2 != "-" && $2 != $3' | head -5)
[[ -z $bad ]] || fail "paths: verdicts not as expected: $bad"

# --- -0: NUL-separated list ----------------------------------------------
tr '\n' '\0' <"$work/paths" | "$check" --offline --json -j 2 -0 --files-from - >"$work/null.jsonl" 2>/dev/null || true
cmp -s "$work/paths.jsonl" "$work/null.jsonl" || fail "-0 --files-from differs from the newline list"

# --- --tar: plain, gzip, stdin: the same verdicts, members named ----------
for form in tar tar.gz stdin; do
  if [[ $form == stdin ]]; then
    "$check" --offline --json -j 2 --tar - <"$work/c.tar.gz" >"$work/$form.jsonl" 2>"$work/$form.err" || true
  else
    "$check" --offline --json -j 2 --tar "$work/c.$form" >"$work/$form.jsonl" 2>"$work/$form.err" || true
  fi
  verdicts "$work/$form.jsonl" >"$work/$form.v"
  diff -q "$work/paths.v" "$work/$form.v" >/dev/null || fail "--tar ($form): verdicts differ from paths: $(diff "$work/paths.v" "$work/$form.v" | head -4)"
done
head -n1 "$work/tar.jsonl" | grep -q "\"archive\":\"$work/c.tar\"" || fail "--tar: no archive field"
head -n1 "$work/tar.jsonl" | grep -q "\"file\":\"$work/c.tar:s-0000-paper.pdf\"" || fail "--tar: file is not ARCHIVE:MEMBER"
head -n1 "$work/stdin.jsonl" | grep -q '"archive":"-",' || fail "--tar -: archive not named"
head -n1 "$work/stdin.jsonl" | grep -q '"file":"-:s-0000-paper.pdf"' || fail "--tar -: member not named"
expect_exit 0 --offline --json --tar "$work/extra.tar"
[[ ! -s "$work/out" ]] || fail "--tar: a directory or symlink member was checked: $(head -c 300 "$work/out")"
# Human output names the member too.
"$check" --offline --tar "$work/c.tar" --shard 1/10 >"$work/out" 2>"$work/err" || true
grep -q "^✓ $work/c.tar:s-" "$work/out" || fail "--tar human output: $(head -c 300 "$work/out")"

# A member over the bound: that member's error, named; the others go on.
expect_exit 2 --offline --json --max-member-size 1000 --tar "$work/c.tar"
grep -q '"error":"larger than 1000 bytes' "$work/out" || fail "--max-member-size: no per-member error"
grep -q "c.tar:s-0000-paper.pdf: larger than 1000 bytes" "$work/err" || fail "--max-member-size: the error does not name the member: $(head -c 300 "$work/err")"
grep -q '"error":"not a PDF or a registry document' "$work/out" || fail "--max-member-size: small members not checked"

# A damaged archive: what was read is reported, then one error line; exit 2.
head -c $(($(stat -c %s "$work/c.tar.gz") / 2)) "$work/c.tar.gz" >"$work/cut.tar.gz"
expect_exit 1 --offline --json -j 2 --tar "$work/cut.tar.gz"  # 1: failed verdicts among what was read (the worst wins)
(($(wc -l <"$work/out") > 10)) || fail "damaged archive: members before the damage not reported"
grep -q "cut.tar.gz.*rest of this archive is not checked" "$work/err" || fail "damaged archive: $(head -c 300 "$work/err")"
expect_exit 2 --offline --tar "$work/no-such.tar"
grep -q "no-such.tar" "$work/err" || fail "unreadable archive not named"

# --- --shard: 3 shards = the whole set, disjoint ---------------------------
for k in 1 2 3; do
  "$check" --offline --json -j 2 --shard "$k/3" --tar "$work/c.tar" >"$work/shard$k.jsonl" 2>/dev/null || true
  (($(wc -l <"$work/shard$k.jsonl") > n / 6)) || fail "--shard $k/3: only $(wc -l <"$work/shard$k.jsonl") inputs"
done
cat "$work"/shard{1,2,3}.jsonl >"$work/shards.jsonl"
verdicts "$work/shards.jsonl" >"$work/shards.v"
diff -q "$work/tar.v" "$work/shards.v" >/dev/null || fail "--shard 1..3/3 is not the whole set once: $(diff "$work/tar.v" "$work/shards.v" | head -4)"
# The same split for paths (by file name? no: by path as given) is stable across runs.
"$check" --offline --json --shard 2/3 --files-from "$work/paths" >"$work/p2a.jsonl" 2>/dev/null || true
"$check" --offline --json -j 2 --shard 2/3 --files-from "$work/paths" >"$work/p2b.jsonl" 2>/dev/null || true
cmp -s "$work/p2a.jsonl" "$work/p2b.jsonl" || fail "--shard on paths is not stable"
expect_exit 2 --offline --shard 0/3 "$c/g-0000.txt"
expect_exit 2 --offline --shard 4/3 "$c/g-0000.txt"
expect_exit 2 --offline --shard 1 "$c/g-0000.txt"

# --- killed halfway, resumed: every input exactly once --------------------
for sig in TERM KILL; do
  log="$work/joblog-$sig"
  "$check" --offline --json -j 2 --joblog "$log" --tar "$work/c.tar.gz" >"$work/run-$sig.jsonl" 2>/dev/null &
  run_pid=$!
  for _ in $(seq 1 500); do
    (($(wc -l <"$work/run-$sig.jsonl") >= n / 3)) && break
    sleep 0.01
  done
  kill -"$sig" "$run_pid" 2>/dev/null || true
  wait "$run_pid" 2>/dev/null || true
  run_pid=""
  done_before=$(wc -l <"$work/run-$sig.jsonl")
  ((done_before < n)) || fail "kill -$sig: the run finished before it was killed ($done_before)"
  "$check" --offline --json -j 2 --joblog "$log" --resume --tar "$work/c.tar.gz" >>"$work/run-$sig.jsonl" 2>/dev/null || true
  verdicts "$work/run-$sig.jsonl" >"$work/run-$sig.v"
  if [[ $sig == TERM ]]; then
    diff -q "$work/tar.v" "$work/run-$sig.v" >/dev/null ||
      fail "kill -TERM + --resume: not exactly once: $(diff "$work/tar.v" "$work/run-$sig.v" | head -4)"
  else
    # SIGKILL can land between a report and its joblog line (docs/corpus.md): at most -j duplicates.
    dups=$(($(wc -l <"$work/run-$sig.v") - n))
    ((dups >= 0 && dups <= 2)) || fail "kill -KILL + --resume: $dups extra lines"
    diff -q "$work/tar.v" <(sort -u "$work/run-$sig.v") >/dev/null || fail "kill -KILL + --resume: inputs missing"
  fi
  # One line per input, and one per run saying how it ended (it names no input).
  [[ $(grep -vc '^{"run":' "$log") == "$n" ]] || fail "joblog ($sig): $(grep -vc '^{"run":' "$log") input lines for $n inputs"
done
# Everything done: a further resume checks nothing, and its exit code is the whole run's (80 failed).
expect_exit 1 --offline --json --joblog "$work/joblog-TERM" --resume --tar "$work/c.tar.gz"
[[ ! -s "$work/out" ]] || fail "resume of a finished run checked again"
grep -q "^pith-check: resumed: $n of these inputs were checked by the earlier run" "$work/err" ||
  fail "resume of a finished run: no line saying the earlier run checked them: $(head -c 300 "$work/err")"
# A joblog in use needs --resume; --resume needs a joblog.
expect_exit 2 --offline --json --joblog "$work/joblog-TERM" --tar "$work/c.tar.gz"
grep -q "joblog-TERM.*--resume" "$work/err" || fail "existing joblog without --resume: $(cat "$work/err")"
expect_exit 2 --offline --resume "$c/g-0000.txt"
expect_exit 2 --offline --tar - --files-from - </dev/null

# --- a hostile member hits its limit: that member's error, the run goes on --
/usr/bin/python3 "$src/tests/support/hostile_pdfs.py" "$work/hostile" >/dev/null
mkdir "$work/crash"
cp "$c/s-0000-paper.pdf" "$work/crash/a.pdf"
cp "$work/hostile/objstm-bomb.pdf" "$work/crash/b-bomb.pdf"
cp "$work/hostile/nested.pdf" "$work/crash/c-nested.pdf"
cp "$c/s-0000-classic.pdf" "$work/crash/d.pdf"
(cd "$work/crash" && tar -cf "$work/crash.tar" a.pdf b-bomb.pdf c-nested.pdf d.pdf)
"$check" --offline --json -j 2 --file-memory 200 --file-timeout 5 --tar "$work/crash.tar" >"$work/crash.jsonl" 2>"$work/crash.err" || true
[[ $(wc -l <"$work/crash.jsonl") == 4 ]] || fail "crash: $(wc -l <"$work/crash.jsonl") lines for 4 members"
[[ $(sed -n 1p "$work/crash.jsonl" | grep -c '"verdict":"verified"') == 1 &&
   $(sed -n 4p "$work/crash.jsonl" | grep -c '"verdict":"verified"') == 1 ]] || fail "crash: the members around the hostile one are not verified"
grep -q 'b-bomb.pdf: the check \(crashed\|exceeded the memory limit\)' "$work/crash.err" ||
  fail "crash: the hostile member's error is not reported: $(cut -c1-300 "$work/crash.err")"
[[ $(sed -n 2p "$work/crash.jsonl" | grep -c '"verdict":"error"') == 1 ]] || fail "crash: the hostile member is not an error"

# --- the summary: stderr, --summary JSON, --html in headless Chromium ------
"$check" --offline -j 2 --summary "$work/summary.json" --html "$work/report.html" --tar "$work/c.tar" \
  >"$work/human.out" 2>"$work/human.err" || true
grep -q "^pith-check: $n inputs in .* s (" "$work/human.err" || fail "no closing summary on stderr: $(head -c 300 "$work/human.err")"
grep -q "^pith-check: inputs failing each check: .*pdf.bytes.prefix_broken" "$work/human.err" || fail "summary lacks the failing checks"
grep -q "^pith-check: slowest: " "$work/human.err" || fail "summary lacks the slowest inputs"
/usr/bin/python3 - "$work/summary.json" "$work/tar.v" <<'PY' || fail "--summary JSON (see above)"
import collections, json, sys
s = json.load(open(sys.argv[1]))
want = collections.Counter(line.split("\t")[1] for line in open(sys.argv[2]))
for v in ("verified", "failed", "error", "unbound", "unverifiable", "not_found"):
    if s["verdicts"][v] != want.get(v, 0):
        print(f"--summary: {v}: {s['verdicts'][v]}, expected {want.get(v, 0)}", file=sys.stderr); sys.exit(1)
assert s["inputs"] == sum(want.values()) and s["failing_checks"]["pdf.bytes.prefix_broken"] == 80, s
assert len(s["slowest"]) == 10 and s["slowest"][0]["seconds"] >= s["slowest"][-1]["seconds"], s["slowest"]
PY
# A hostile name and detail are escaped: a member named like markup.
mkdir "$work/markup"
printf 'not a pith document' >"$work/markup/<img src=x onerror=alert(1)>.txt"
(cd "$work/markup" && tar -cf "$work/markup.tar" -- *)
"$check" --offline --html "$work/markup.html" --tar "$work/markup.tar" >/dev/null 2>&1 || true
grep -q '&lt;img src=x onerror=alert(1)&gt;' "$work/markup.html" || fail "--html: a member name is not escaped"
if grep -q '<img' "$work/markup.html"; then fail "--html: markup from an input reached the page"; fi
if grep -Eiq '(src|href)="(https?:)?//' "$work/report.html"; then fail "--html: an external asset"; fi
if command -v chromium >/dev/null; then
  timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking \
    --disable-component-update --disable-sync --user-data-dir="$work/chromium" --dump-dom "file://$work/report.html" \
    >"$work/dom.html" 2>"$work/chromium.log" || true
  /usr/bin/python3 - "$work/dom.html" "$work/summary.json" <<'PY' || fail "--html in Chromium (see above)"
import json, re, sys
dom = open(sys.argv[1], encoding="utf-8").read()
s = json.load(open(sys.argv[2]))
if "<svg" not in dom:
    print("Chromium: no page or no chart:", dom[:300], file=sys.stderr); sys.exit(1)
for v, n in s["verdicts"].items():
    if not re.search(rf'data-verdict="{v}"[^>]*>{n}<', dom):
        print(f"Chromium: count {v}={n} not shown", file=sys.stderr); sys.exit(1)
rows = dom.count("<tr><td><a href=\"#r")
if rows != s["inputs"] - s["verdicts"]["verified"]:
    print(f"Chromium: {rows} rows in the failure table", file=sys.stderr); sys.exit(1)
PY
else
  echo "pith_check_tar: chromium missing, the HTML page is not opened" >&2
fi

if ((failures > 0)); then
  echo "pith_check_tar: $failures failure(s)" >&2
  exit 1
fi
echo "pith_check_tar: ok"
