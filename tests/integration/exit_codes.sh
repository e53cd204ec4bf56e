#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The same data gives the same exit code by every route: a tampered bundle is
# exit 1 (and an intact one signed by no trusted key exit 4) whether it is
# given to pith-stamp --bundle, served to pith-stamp by a file:// resolver,
# checked by pith-check as a file or looked up by number, or stamped into a
# .tex's pith.sty. And --json never aborts: a file name that is not UTF-8
# gives the documented exit code and valid JSON, in both tools.
# Needs PITH_BIN (built tools) and PITH_TEST_DATA (tests/data); pith-test-sign
# is next to the tests.
set -euo pipefail

source "$(dirname "$0")/../support/scratch_env.sh"  # $work, $src, $bin, $data; offline, reproducible
need_tools pith-check pith-stamp
key="$data/test-signing-key.json"
unset PITH_RESOLVER

source "$(dirname "$0")/../support/cli_expect.sh"  # fail, expect_exit (pith-check), expect_out, expect_err

# run_tool WANT WHAT COMMAND...: any tool; output in $work/out and $work/err.
run_tool() {
  local want=$1 what=$2 got=0
  shift 2
  "$@" >"$work/out" 2>"$work/err" </dev/null || got=$?
  if [[ $got != "$want" ]]; then
    fail "$what: exit $got, expected $want"
    sed 's/^/    /' "$work/out" "$work/err" >&2
  fi
}
# unchanged FILE COPY WHAT: the tool left FILE as it was.
unchanged() { cmp -s "$1" "$2" || fail "$3: the file changed"; }

# A one-page PDF without a Pith Number, made here (no TeX needed).
python3 - "$work/plain.pdf" <<'PY'
import sys
shown = b"BT /F1 18 Tf 72 700 Td (Exit codes paper) Tj ET"  # the title on page 1: what binds the record to it
objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
           b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 5 0 R"
           b" /Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >> >>",
           b"<< /Title (Exit codes paper) >>",
           b"<< /Length %d >>\nstream\n" % len(shown) + shown + b"\nendstream"]
out, offsets = b"%PDF-1.4\n", []
for number, body in enumerate(objects, 1):
    offsets.append(len(out))
    out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
xref = len(out)
out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
out += b"trailer\n<< /Size %d /Root 1 0 R /Info 4 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
open(sys.argv[1], "wb").write(out)
PY

# One paper, its bundle tampered (a title change breaks the record's hash),
# served by file:// registries: one serving the tampered copy, one the intact.
"$signer" --title "Exit codes paper" --arxiv 2401.55555 >"$work/good.json"
number=$("$signer" --title "Exit codes paper" --arxiv 2401.55555 --output number)
body=${number##*:}
sed 's/Exit codes paper/Exit Codes paper/' "$work/good.json" >"$work/tampered.json"
cmp -s "$work/good.json" "$work/tampered.json" && fail "tampering did not change the bundle"
mkdir -p "$work/tampered-registry/pith/$body" "$work/registry/pith/$body"
cp "$work/tampered.json" "$work/tampered-registry/pith/$body/bundle.json"
cp "$work/good.json" "$work/registry/pith/$body/bundle.json"
printf '\\documentclass{article}\n\\pithnumber{%s}\n\\begin{document}x\\end{document}\n' "$body" >"$work/paper.tex"

# by_every_route WANT REGISTRY BUNDLE TRUST...: the five routes give WANT and write nothing.
by_every_route() {
  local want=$1 registry=$2 bundle=$3 label
  shift 3
  local resolver=(--offline --resolver "file://$registry" --timeout 2)
  label="$(basename "$bundle")${*:+ trusted}"
  local n=0
  for route in bundle resolver; do
    n=$((n + 1))
    cp "$work/plain.pdf" "$work/x.pdf"
    if [[ $route == bundle ]]; then
      run_tool "$want" "pith-stamp --bundle $label" "$stamp" "$@" --bundle "$bundle" --pith "$number" "$work/x.pdf"
      run_tool "$want" "pith-stamp --bundle $label paper.tex" "$stamp" "$@" --bundle "$bundle" "$work/paper.tex"
    else
      run_tool "$want" "pith-stamp via file:// $label" \
        "$stamp" "$@" "${resolver[@]}" --cache-dir "$work/cache-s$n-$want" --pith "$number" "$work/x.pdf"
      run_tool "$want" "pith-stamp paper.tex via file:// $label" \
        "$stamp" "$@" "${resolver[@]}" --cache-dir "$work/cache-t$n-$want" "$work/paper.tex"
    fi
    unchanged "$work/x.pdf" "$work/plain.pdf" "pith-stamp ($route, $label)"
    [[ ! -e $work/pith.sty ]] || fail "pith-stamp paper.tex ($route, $label): pith.sty written"
  done
  expect_exit "$want" "$@" --offline "$bundle"
  expect_exit "$want" "$@" "${resolver[@]}" --cache-dir "$work/cache-c-$want" "$number"
}

# 1. Tampered: exit 1 by every route (the resolver used to make it 2 for pith-stamp).
by_every_route 1 "$work/tampered-registry" "$work/tampered.json" --trust-key "$key"
run_tool 1 "pith-stamp via file:// (message)" "$stamp" --trust-key "$key" --offline --resolver "file://$work/tampered-registry" \
  --cache-dir "$work/cache-msg" --pith "$number" "$work/x.pdf"
grep -q "nothing written" "$work/err" || fail "tampered via file://: the message does not say nothing was written"

# 2. Intact but signed by a key nobody trusts: exit 4 by every route.
by_every_route 4 "$work/registry" "$work/good.json"

# 3. Trusted and intact: every route succeeds (the routes above fail for the data, not the setup).
run_tool 0 "pith-stamp via file:// (good)" "$stamp" --trust-key "$key" --offline --resolver "file://$work/registry" \
  --cache-dir "$work/cache-good" --pith "$number" "$work/x.pdf"
expect_exit 0 --trust-key "$key" --offline "$work/x.pdf"

# 4. --json with a file name that is not UTF-8: the documented code, valid JSON, no abort.
bad=$'\xff\xfe-paper'
cp "$work/plain.pdf" "$work/$bad.pdf"
# valid_json WHAT: stdout is one JSON document (pith-stamp) / JSON Lines (pith-check).
valid_json() {
  python3 -c 'import json, sys; json.load(sys.stdin)' <"$work/out" || fail "$1: stdout is not valid JSON: $(cat -v "$work/out")"
}
valid_json_lines() {
  python3 -c 'import json, sys; [json.loads(l) for l in sys.stdin if l.strip()]' <"$work/out" ||
    fail "$1: stdout is not valid JSON Lines: $(cat -v "$work/out")"
}
run_tool 3 "pith-stamp --json, non-UTF-8 name, no number" "$stamp" --json "$work/$bad.pdf"
valid_json "pith-stamp --json (no number)"
grep -q '"status": "no_number"' "$work/out" || fail "pith-stamp --json: no status no_number: $(cat -v "$work/out")"
run_tool 2 "pith-stamp --json, non-UTF-8 name, missing" "$stamp" --json "$work/$bad-missing.pdf"
valid_json "pith-stamp --json (missing file)"
run_tool 1 "pith-stamp --json, non-UTF-8 name, tampered" "$stamp" --json --trust-key "$key" --bundle "$work/tampered.json" \
  --pith "$number" "$work/$bad.pdf"
valid_json "pith-stamp --json (tampered)"
run_tool 3 "pith-check --json, non-UTF-8 name, no number" "$check" --json --offline "$work/$bad.pdf"
valid_json_lines "pith-check --json (no number)"
run_tool 2 "pith-check --json, non-UTF-8 name, missing" "$check" --json --offline "$work/$bad-missing.json"
valid_json_lines "pith-check --json (missing file)"

# An answer that could not be written is no answer: stdout on a full disk
# (/dev/full) is exit 2 and one line saying so, whatever the verdict was.
if [[ -w /dev/full ]]; then
  for tool in check stamp; do
    if [[ $tool == check ]]; then cmd=("$check" --offline "$work/plain.pdf"); else cmd=("$stamp" --json "$work/plain.pdf"); fi
    got=0
    "${cmd[@]}" >/dev/full 2>"$work/err" </dev/null || got=$?
    [[ $got == 2 ]] || fail "pith-$tool >/dev/full: exit $got, expected 2"
    grep -q "^pith-$tool: cannot write standard output.*: what it printed is incomplete$" "$work/err" ||
      fail "pith-$tool >/dev/full: no message naming standard output: $(cat "$work/err")"
  done
  got=0
  "$check" --offline "$work/plain.pdf" >"$work/out" 2>"$work/err" </dev/null || got=$?
  [[ $got == 3 && -s $work/out ]] || fail "pith-check to a file: exit $got, expected 3 with its report"
  grep -q "cannot write" "$work/err" && fail "pith-check to a file: a write error reported"
fi

if ((failures > 0)); then
  echo "exit_codes: $failures failure(s)" >&2
  exit 1
fi
echo "exit_codes: all checks passed"
