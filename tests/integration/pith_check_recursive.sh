#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# pith-check -r DIR (exiftool's -r habit, issue 33): the PDFs under a tree,
# walked depth first in byte order of names, with no link followed (a link
# loop ends nothing and reads nothing twice), files not named *.pdf passed
# over and counted in one line, a directory that cannot be listed a row of
# its own (an error, exit 2), not a crash. A directory given without -r is
# one line saying to add -r. -r works with the batch options: -j gives the
# same bytes, --summary counts the tree's inputs, --joblog --resume skips
# them. Offline.
set -euo pipefail

source "$(dirname "$0")/../support/scratch_env.sh"  # $work, $src, $bin, $data; offline, reproducible
need_tools pith-check pith-stamp
source "$(dirname "$0")/../support/cli_expect.sh"  # fail, expect_exit, expect_out, expect_err
use_zoo >/dev/null

# Root reads a directory whatever its mode: the run drops the capabilities
# that let it (as a user's run has none), so mode 000 is unreadable here too.
as_user=()
if [[ $(id -u) == 0 ]]; then as_user=(setpriv --bounding-set=-dac_override,-dac_read_search --); fi
check_as_user() { "${as_user[@]}" "$bin/pith-check" "$@"; }

t="$work/tree"
mkdir -p "$t/a/b" "$t/c" "$t/locked" "$t/z"
env -u PITH_RESOLVER "$bin/pith-stamp" --offline --pith "$number" --bundle "$bundle" -o "$t/a/b/deep.pdf" "$zoo/paper.pdf" >/dev/null
cp "$zoo/paper.pdf" "$t/a/plain.pdf"
cp "$zoo/paper.pdf" "$t/Upper.PDF"
cp "$zoo/paper.pdf" "$t/locked/inside.pdf"
echo "not a paper" >"$t/c/notes.txt"
ln -s a/plain.pdf "$t/link.pdf"  # a link to a PDF: not followed
ln -s .. "$t/z/up"               # a loop: z/up/z/up/...
ln -s . "$t/loop"
chmod 000 "$t/locked"
at_exit+=('chmod 700 "$t/locked" 2>/dev/null || true')
if "${as_user[@]}" ls "$t/locked" >/dev/null 2>&1; then fail "the test cannot make an unreadable directory"; exit 1; fi

# --- the walk: its order, what it passes over, the unreadable directory -----
got=0
check_as_user --offline --json -r "$t" >"$work/out" 2>"$work/err" || got=$?
[[ $got == 2 ]] || fail "-r over the tree exited $got, not 2 (an unreadable directory is an error; the worst wins)"
/usr/bin/python3 - "$work/out" "$t" <<'PY' || fail "-r's rows: $(cat "$work/out")"
import json, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
t = sys.argv[2]
got = [(r["file"], r["verdict"]) for r in rows]
want = [(f"{t}/Upper.PDF", "not_found"), (f"{t}/a/b/deep.pdf", "verified"),
        (f"{t}/a/plain.pdf", "not_found"), (f"{t}/locked", "error")]
assert got == want, got
assert "cannot list the directory" in rows[3]["error"] and "ermission denied" in rows[3]["error"], rows[3]
PY
expect_one_line() {  # expect_one_line PATTERN: stderr is that one line
  [[ $(wc -l <"$work/err") == 1 ]] && grep -q -- "$1" "$work/err" || fail "stderr is not the one line '$1': $(cat "$work/err")"
}
grep -q "^pith-check: $t: passed over 1 file not named \*.pdf, 3 symbolic links (not followed)$" "$work/err" ||
  fail "-r does not say what it passed over: $(cat "$work/err")"

# The human text: the unreadable directory is one line naming it.
check_as_user --offline -r "$t" >"$work/out" 2>"$work/err" || true
grep -q "^pith-check: $t/locked: cannot list the directory (Permission denied)$" "$work/err" ||
  fail "the unreadable directory is not one line on stderr: $(cat "$work/err")"

# --- a directory without -r: one line that says to add it --------------------
expect_exit 2 --offline "$t/a"
expect_one_line "^pith-check: $t/a: is a directory: add -r to check the PDFs under it (pith-check -r $t/a)$"
[[ ! -s $work/out ]] || fail "a directory without -r printed a report: $(cat "$work/out")"

# --- a tree with no PDF: said, an error row, not a silent exit 0 --------------
expect_exit 2 --offline "$t/c" -r
grep -q "^pith-check: $t/c: no file named \*.pdf under it (-r checks those, and follows no link)$" "$work/err" ||
  fail "-r over a tree with no PDF: $(cat "$work/err")"

# --- with the batch options ---------------------------------------------------
chmod 700 "$t/locked"
rm -r "$t/locked"
expect_exit 3 --offline --json -r "$t" -j 1
cp "$work/out" "$work/j1"
expect_exit 3 --offline --json -r "$t" -j 2
cmp -s "$work/out" "$work/j1" || fail "-r -j 2 differs from -j 1"
expect_exit 3 --offline -q -r "$t" --summary "$work/summary.json" --joblog "$work/run.joblog"
[[ ! -s $work/err ]] || fail "-q -r still printed: $(cat "$work/err")"
/usr/bin/python3 -c '
import json, sys; s = json.load(open(sys.argv[1]))
v = {k: n for k, n in s["verdicts"].items() if n}
assert s["inputs"] == 3 and v == {"verified": 1, "not_found": 2}, s' "$work/summary.json" ||
  fail "--summary of -r: $(cat "$work/summary.json")"
[[ $(grep -c '"file"' "$work/run.joblog" || true) == 3 ]] || fail "the joblog lacks the tree's inputs: $(cat "$work/run.joblog")"
expect_exit 3 --offline --json -r "$t" --joblog "$work/run.joblog" --resume
[[ ! -s $work/out ]] || fail "--resume re-checked inputs the joblog holds: $(cat "$work/out")"
# Two directories and a file: in the order given, each tree walked in place.
expect_exit 2 --offline --json -r "$t/a" "$t/Upper.PDF" "$t/c"  # c: no PDF, an error row
[[ $(/usr/bin/python3 -c 'import json,sys; print(" ".join(json.loads(l)["file"].rsplit("/",1)[1] for l in open(sys.argv[1])))' "$work/out") == \
  "deep.pdf plain.pdf Upper.PDF c" ]] || fail "-r with several arguments: $(cat "$work/out")"

((failures == 0)) || exit 1
echo "pith_check_recursive: ok"
