#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# pith-check on a corpus, like a librarian would run it: -j N workers,
# --files-from FILE|-, JSON Lines (one object per input, in input order, the
# same for any -j), -q (exit code only), the worst exit code wins
# (1 > 2 > 4 > 3 > 0); and the online check against a registry on 127.0.0.1
# (the current bundle, a record no longer served). Never the internet.
set -euo pipefail

source "$(dirname "$0")/../support/scratch_env.sh"  # $work, $src, $bin, $data; offline, reproducible
need_tools pith-check pith-stamp

source "$(dirname "$0")/../support/cli_expect.sh"  # fail, expect_exit, expect_out, expect_err


use_zoo

# The corpus: stamped PDFs (verified), an unstamped one (not_found), a bare
# record (unverifiable), a tampered bundle (failed), garbage (error).
c="$work/c"
mkdir "$c"
for name in paper classic hyperxmp pdflatex; do
  env -u PITH_RESOLVER "$bin/pith-stamp" --offline --pith "$number" --bundle "$bundle" -o "$c/$name.pdf" "$zoo/$name.pdf"
done
cp "$zoo/classic.pdf" "$c/plain.pdf"
cp "$data/WXNI57C2SJ24QK62DB7DTUREA3.canonical_record.json" "$c/record.json"
sed 's/Layered gradient/Layered gradients/' "$bundle" >"$c/tampered.bundle.json"
echo "not a pith document" >"$c/garbage.txt"
verified=("$c/paper.pdf" "$c/classic.pdf" "$c/hyperxmp.pdf" "$c/pdflatex.pdf")

# --- exit codes: the worst wins ------------------------------------------
expect_exit 0 --offline -j 2 "${verified[@]}"
expect_exit 3 --offline -j 2 "${verified[@]}" "$c/plain.pdf"
expect_exit 4 --offline -j 2 "$c/plain.pdf" "$c/record.json" "$c/paper.pdf"
expect_exit 2 --offline -j 2 "$c/record.json" "$c/garbage.txt" "$c/plain.pdf"
expect_exit 1 --offline -j 2 "$c/garbage.txt" "$c/tampered.bundle.json" "$c/record.json" "$c/paper.pdf"
expect_exit 1 --offline -j 2 "$c/tampered.bundle.json" "$c/garbage.txt"

# --- JSON Lines: one object per input, in order, the same for any -j -----
all=("${verified[@]}" "$c/plain.pdf" "$c/record.json" "$c/tampered.bundle.json" "$c/garbage.txt")
printf '%s\n' "${all[@]}" >"$work/list"
expect_exit 1 --offline --json -j 1 --files-from "$work/list"
cp "$work/out" "$work/j1.jsonl"
"$check" --offline --json -j 3 --files-from - <"$work/list" >"$work/j3.jsonl" 2>/dev/null || true
cmp -s "$work/j1.jsonl" "$work/j3.jsonl" || fail "-j 3 output differs from -j 1"
python3 - "$work/j1.jsonl" "$work/list" <<'PY' || fail "JSON Lines (see above)"
import json, sys
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
names = open(sys.argv[2]).read().splitlines()
want = ["verified"] * 4 + ["not_found", "unverifiable", "failed", "error"]
bad = 0
if len(lines) != len(names):
    print(f"{len(lines)} lines for {len(names)} inputs", file=sys.stderr); sys.exit(1)
for line, name, verdict in zip(lines, names, want):
    r = json.loads(line)
    for key in ("file", "kind", "pith_number", "verdict", "checks"):
        if key not in r:
            print(f"{name}: no '{key}'", file=sys.stderr); bad += 1
    if r["file"] != name or r["verdict"] != verdict:
        print(f"{name}: got {r['file']} {r['verdict']}, expected {verdict}", file=sys.stderr); bad += 1
    if r["verdict"] == "error" and not r.get("error"):
        print(f"{name}: error verdict without a reason", file=sys.stderr); bad += 1
    if name.endswith(".pdf") and r["verdict"] == "verified":
        if r["details"]["carried"]["kind"] != "bundle":
            print(f"{name}: no carried summary", file=sys.stderr); bad += 1
sys.exit(1 if bad else 0)
PY

# Files and --files-from together: files first, then the list.
printf '%s\n' "$c/plain.pdf" "" "$c/record.json" | "$check" --offline --json --files-from - "$c/paper.pdf" \
  >"$work/mixed.jsonl" 2>/dev/null || true
[[ $(wc -l <"$work/mixed.jsonl") == 3 ]] || fail "files + --files-from -: $(wc -l <"$work/mixed.jsonl") lines, expected 3"
head -n1 "$work/mixed.jsonl" | grep -q '"file":"'"$c"'/paper.pdf"' || fail "files + --files-from: positional file not first"

# --- -q: exit code only ---------------------------------------------------
expect_exit 1 --offline -q -j 2 "${all[@]}"
[[ ! -s "$work/out" && ! -s "$work/err" ]] || fail "-q printed something: $(head -c 200 "$work/out" "$work/err")"

# --- human output: a line per input and a summary -------------------------
expect_exit 3 --offline "$c/paper.pdf" "$c/plain.pdf"
grep -q "^✓ $c/paper.pdf: verified $number" "$work/out" || fail "no ✓ line for paper.pdf"
grep -q "^✗ $c/plain.pdf: not_found" "$work/out" || fail "no ✗ line for plain.pdf"
grep -q "^2 inputs: 1 verified, 1 not_found" "$work/out" || fail "no summary line"
grep -q "record completeness (carried copy)" "$work/out" || fail "no completeness panel"
if grep -q $'\033' "$work/out" "$work/err"; then fail "colour codes without a TTY"; fi

# --- on a terminal (script gives pith-check a pseudo-terminal) ------------
if command -v script >/dev/null && script -qec true /dev/null </dev/null >/dev/null 2>&1; then
  tty_run() { script -qec "$*" /dev/null </dev/null | cat -v || true; }
  tty_run env -u NO_COLOR "$check" --offline -j 2 "$c/paper.pdf" "$c/plain.pdf" >"$work/tty"
  grep -q 'pith-check: 2/2 (1 verified, 1 not_found)' "$work/tty" || fail "no progress line on a terminal"
  grep -q '\^\[\[32m' "$work/tty" || fail "no colour on a terminal"
  tty_run env NO_COLOR=1 "$check" --offline -j 2 "$c/paper.pdf" "$c/plain.pdf" >"$work/tty"
  if grep -q '\^\[\[3' "$work/tty"; then fail "colour on a terminal despite NO_COLOR"; fi
  tty_run env -u NO_COLOR "$check" --offline -q "$c/paper.pdf" "$c/plain.pdf" >"$work/tty"
  [[ ! -s "$work/tty" ]] || fail "-q on a terminal printed: $(head -c 200 "$work/tty")"
else
  echo "pith_check_corpus: no script(1) or no pseudo-terminal (/dev/pts), terminal checks skipped" >&2
fi
# No progress line when stderr is not a terminal (every run above): checked on one.
"$check" --offline -j 2 "$c/paper.pdf" "$c/plain.pdf" >/dev/null 2>"$work/err" || true
if grep -q '/2 (' "$work/err"; then fail "progress line on a non-terminal stderr"; fi

# --- usage errors ---------------------------------------------------------
expect_exit 2 --offline --files-from "$work/no-such-list"
grep -q "no-such-list" "$work/err" || fail "--files-from error does not name the file"
expect_exit 2 --offline
expect_exit 2 --offline -j 0 "$c/paper.pdf"

# --- online: the registry on 127.0.0.1 -------------------------------------
root="$work/root"
mkdir -p "$root/pith/$body"
cp "$bundle" "$root/pith/$body/bundle.json"
start_test_server "$root"
online=(--resolver "$base" --cache-dir "$work/cache" --timeout 5)

expect_exit 0 "${online[@]}" --json -j 2 "$c/paper.pdf" "$c/classic.pdf"
python3 - "$work/out" <<'PY' || fail "online check with the same bundle (see above)"
import json, sys
for line in open(sys.argv[1]).read().splitlines():
    r = json.loads(line)
    codes = {c["code"]: c["status"] for c in r["checks"]}
    ok = codes.get("online.verified") == "pass" and codes.get("online.events.newer") == "pass"
    ok = ok and r["details"]["completeness"]["corrections"] == 0
    if not ok or r["verdict"] != "verified":
        print(r["file"], r["verdict"], codes, file=sys.stderr); sys.exit(1)
PY
expect_exit 0 "${online[@]}" "$c/paper.pdf"
grep -q "record completeness (registry now)" "$work/out" || fail "online: no registry completeness panel"

# The registry stops serving the record: a warning, the verdict stays.
rm -rf "$root/pith/$body"
# (With a copy cached earlier the resolver would also try the copy's
# mirror_hints, the real registry's: online_check_test covers that case.)
expect_exit 0 --resolver "$base" --cache-dir "$work/cache-empty" --timeout 5 --json "$c/paper.pdf"
grep -q '"code":"online.record.not_served","detail":"[^"]*","status":"warn"' "$work/out" ||
  fail "online: a record no longer served is not reported: $(head -c 600 "$work/out")"

# A paper whose record got a correction after the PDF was stamped: the
# registry's bundle has one more event. Reported (warnings), still verified.
signer="$bin/../tests/pith-test-sign"
key="$data/test-signing-key.json"
title=$(awk -F'\t' '$1 == "classic.pdf" {print $3}' "$zoo/zoo.tsv")
tnumber=$("$signer" --title "$title" --arxiv 2405.55555 --output number)
"$signer" --title "$title" --arxiv 2405.55555 >"$work/t.bundle.json"
env -u PITH_RESOLVER "$bin/pith-stamp" --offline --trust-key "$key" --pith "$tnumber" --bundle "$work/t.bundle.json" \
  -o "$c/corrected.pdf" "$zoo/classic.pdf"
mkdir -p "$root/pith/${tnumber##*:}"
"$signer" --title "$title" --arxiv 2405.55555 --correction "Table 2: wrong units" >"$root/pith/${tnumber##*:}/bundle.json"
expect_exit 0 "${online[@]}" --trust-key "$key" "$c/corrected.pdf"
grep -q "^✓ $c/corrected.pdf: verified $tnumber" "$work/out" || fail "corrected paper: not verified"
grep -q "ok   online.events.newer: 1 event since the PDF's copy: 1 correction" \
  "$work/out" || fail "corrected paper: the newer event is not reported"
grep -q "warn online.corrections: the record has 1 correction" "$work/out" || fail "corrected paper: no correction"
grep -q "corrections           present (1)" "$work/out" || fail "corrected paper: panel lacks the correction"
expect_exit 0 "${online[@]}" --trust-key "$key" --offline "$c/corrected.pdf"
if grep -q "online\." "$work/out"; then fail "corrected paper: online checks with --offline"; fi

# --offline: no online check at all.
expect_exit 0 "${online[@]}" --offline --json "$c/paper.pdf"
if grep -q '"online\.' "$work/out"; then fail "--offline still ran online checks"; fi

# --joblog/--resume tell names apart by their bytes: two names that are not
# UTF-8 and read the same once each bad byte is U+FFFD (\xff and \xfe) are
# two inputs. The first (no number) is in the joblog; the resumed run must
# still check the second (a tampered bundle): its line, and exit 1.
mkdir "$work/bytes"
cp "$c/plain.pdf" "$work/bytes/paper-"$'\xff'".pdf"
cp "$c/tampered.bundle.json" "$work/bytes/paper-"$'\xfe'".pdf"
expect_exit 3 --offline --json --joblog "$work/bytes.joblog" "$work/bytes/paper-"$'\xff'".pdf"
grep -q '"file_base64":' "$work/bytes.joblog" || fail "joblog: a name that is not UTF-8 has no file_base64"
expect_exit 1 --offline --json --joblog "$work/bytes.joblog" --resume "$work/bytes/paper-"$'\xff'".pdf" "$work/bytes/paper-"$'\xfe'".pdf"
[[ $(wc -l <"$work/out") == 1 ]] && grep -q '"verdict":"failed"' "$work/out" ||
  fail "--resume skipped a name that differs from a logged one only in a byte that is not UTF-8: $(cat "$work/out" "$work/err")"
/usr/bin/python3 - "$work/out" "$work/bytes/paper-"$'\xfe'".pdf" <<'PY' || fail "file_base64 does not carry the name's bytes"
import base64, os, sys, json
line = json.loads(open(sys.argv[1], encoding="utf-8").readline())
assert base64.b64decode(line["file_base64"]) == os.fsencode(sys.argv[2]), line.get("file_base64")
PY

# --- --summary / --html: written beside, then renamed (base/atomic_file) ---
# A link at the output is replaced, never written through; a directory that
# cannot be written is one line naming the option, and exit 2.
echo "keep me" >"$work/elsewhere.json"
ln -s "$work/elsewhere.json" "$work/linked.json"
expect_exit 0 --offline --summary "$work/linked.json" "$c/paper.pdf"
[[ $(cat "$work/elsewhere.json") == "keep me" ]] || fail "--summary wrote through a link"
[[ ! -L "$work/linked.json" ]] && grep -q '"verdicts"' "$work/linked.json" || fail "--summary: the link not replaced by the summary"
expect_exit 2 --offline --summary "$work/no-such-dir/s.json" "$c/paper.pdf"
grep -q "^pith-check: --summary $work/no-such-dir/s.json: cannot write" "$work/err" || fail "--summary: no line naming it"

if ((failures > 0)); then
  echo "pith_check_corpus: $failures failure(s)" >&2
  exit 1
fi
echo "pith_check_corpus: ok"
