#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 22, item 7: a lookup never harms the cache. A cache holding the
# genuine record of pith:2021:JFLL… is looked up by each tool (pith-check,
# pith-stamp, pith-serve with uploads) with numbers that fail identity: the
# wrong year, a mistyped body, another paper's body answered by a hostile
# file:// mirror with the genuine bundle. Each is refused, the cache
# directory keeps every byte, and a genuine offline check still verifies from
# it. --offline never writes the cache, even when a file:// base served the
# record.
set -euo pipefail

source "$(dirname "$0")/../support/scratch_env.sh"  # $work, $src, $bin, $data; offline, reproducible
need_tools pith-check pith-stamp pith-serve
kill_at_exit serve_pid
py=/usr/bin/python3  # Debian's python3-pikepdf

source "$src/tests/support/cli_expect.sh"  # fail MESSAGE, $failures
source "$src/tests/support/serve_fixture.sh"  # start_serve

bundle="$data/$body.bundle.json"
wrong_year=pith:2020:$body
typo=pith:2021:${body%?}Q  # the last character mistyped
other=pith:2020:WXNI57C2SJ24QK62DB7DTUREA3
cache="$work/cache"

# A registry (file://) serving the genuine bundle, and a hostile one serving
# it for every number asked.
mkdir -p "$work/mirror/pith/$body"
cp "$bundle" "$work/mirror/pith/$body/bundle.json"
for id in "$body" "${typo##*:}" "${other##*:}"; do
  mkdir -p "$work/hostile/pith/$id"
  cp "$bundle" "$work/hostile/pith/$id/bundle.json"
done

snapshot() { (cd "$cache" && find . -type f -print0 | sort -z | xargs -0 sha256sum); }
# unchanged WHAT: the cache holds exactly what it held before.
unchanged() { [[ $(snapshot) == "$before" ]] || fail "$1 changed the cache: $(diff <(echo "$before") <(snapshot) | head -5)"; }

# --offline with a file:// base: the record is used, the cache is not written.
run 0 "pith-check --offline via file://" "$bin/pith-check" --offline --resolver "file://$work/mirror" --cache-dir "$cache" "$number"
[[ ! -e $cache ]] || fail "--offline created the cache $cache"

# Online from the file:// registry: verified and cached (the genuine entry).
run 0 "pith-check via file://" "$bin/pith-check" --resolver "file://$work/mirror" --cache-dir "$cache" "$number"
[[ -f $cache/$body.json ]] || fail "the genuine record was not cached"
before=$(snapshot)

# ---- pith-check ------------------------------------------------------------------
# A wrong year is a number the registry does not serve (exit 2, issue 31
# item 7), and the answer names the record whose body it is; a mistyped body
# or another paper's body answered is a failed check (exit 1).
want_for() { [[ $1 == "$wrong_year" ]] && echo 2 || echo 1; }
for input in "$wrong_year" "$typo" "$other"; do
  run "$(want_for "$input")" "pith-check --offline $input" "$bin/pith-check" --offline --cache-dir "$cache" --mirror "file://$work/hostile" "$input"
  unchanged "pith-check --offline $input"
  run "$(want_for "$input")" "pith-check $input (hostile mirror)" "$bin/pith-check" --resolver "file://$work/hostile" --refresh --cache-dir "$cache" "$input"
  unchanged "pith-check $input"
done
run 2 "pith-check --offline $wrong_year" "$bin/pith-check" --offline --cache-dir "$cache" "$wrong_year"
grep -q "no record is $wrong_year: the record with this body is $number; check the year" "$work/err" ||
  fail "the wrong year does not name the record the cache holds: $(cat "$work/out" "$work/err")"
unchanged "pith-check --offline $wrong_year (no mirror)"

# ---- pith-stamp ------------------------------------------------------------------
use_zoo >/dev/null
paper="$zoo/paper.pdf"  # the fixture record's paper (its title)
for input in "$wrong_year" "$typo" "$other"; do
  cp "$paper" "$work/s.pdf"
  run "$(want_for "$input")" "pith-stamp --offline --pith $input" "$bin/pith-stamp" --offline --cache-dir "$cache" --mirror "file://$work/hostile" \
    --pith "$input" "$work/s.pdf"
  cmp -s "$paper" "$work/s.pdf" || fail "pith-stamp --pith $input changed the PDF"
  unchanged "pith-stamp --offline --pith $input"
done

# ---- pith-serve: uploads that name those numbers ----------------------------------
# number-only PDFs: the paper with only Info /PithNumber (as plain pith.sty writes it).
number_only() {
  $py - "$paper" "$2" "$1" <<'PY'
import sys, pikepdf
with pikepdf.open(sys.argv[1]) as pdf:
    pdf.docinfo["/PithNumber"] = sys.argv[3]
    pdf.save(sys.argv[2])
PY
}
number_only "$number" "$work/genuine.pdf"
for input in "$wrong_year" "$typo" "$other"; do number_only "$input" "$work/upload-${input//:/_}.pdf"; done

serve_mirror="$work/hostile"
start_serve  # its cache is $cache
verdict() { $py -c 'import json, sys; print(json.load(open(sys.argv[1]))["verdict"])' "$1"; }
upload() { curl -sS -o "$2" -H 'Content-Type: application/pdf' --data-binary "@$1" "$base/api/v1/check"; }
for input in "$wrong_year" "$typo" "$other"; do
  upload "$work/upload-${input//:/_}.pdf" "$work/u.json"
  [[ $(verdict "$work/u.json") != verified ]] || fail "pith-serve verified an upload naming $input"
  unchanged "a pith-serve upload naming $input"
  curl -sS -o /dev/null "$base/api/v1/pith/$input"
  unchanged "pith-serve's lookup of $input"
done
upload "$work/genuine.pdf" "$work/g.json"
[[ $(verdict "$work/g.json") == verified ]] ||
  fail "pith-serve no longer verifies a genuine number-only PDF after hostile uploads: $(head -c 600 "$work/g.json")"
kill -TERM "$serve_pid"
wait "$serve_pid" || true
serve_pid=""
unchanged "pith-serve"

# ---- and the genuine number still verifies offline, from the cache -----------------
run 0 "pith-check --offline $number" "$bin/pith-check" --offline --cache-dir "$cache" "$number"
grep -q "from the cache" "$work/out" || fail "the genuine record was not verified from the cache: $(cat "$work/out")"
run 0 "pith-check --offline genuine.pdf" "$bin/pith-check" --offline --cache-dir "$cache" "$work/genuine.pdf"
unchanged "the genuine offline checks"

((failures == 0)) || { echo "$failures failure(s)" >&2; exit 1; }
echo "ok: wrong years, typos and substituted bodies leave the cache as it was, in pith-check, pith-stamp and pith-serve"
