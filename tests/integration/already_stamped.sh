#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 22, item 8: `pith-stamp paper.pdf` says "already stamped" (exit 0)
# only when pith-check would say verified. The sample built from its
# generated pith.sty is already stamped; the same paper with its \title
# edited after pith.sty was generated carries the record but fails
# (pdf.title.mismatch): exit 1, what is wrong and how to fix it (rebuild,
# --force), --json status not_verified, and nothing written (in place, -o,
# -o -). A stamped PDF whose title cannot be found (unbound) is exit 4.
# --force stamps such a PDF again, with a warning.
set -euo pipefail

source "$(dirname "$0")/../support/scratch_env.sh"  # $work, $src, $bin, $data; offline, reproducible
need_tools pith-stamp pith-check
py=/usr/bin/python3
source "$src/tests/support/cli_expect.sh"  # fail MESSAGE, $failures

bundle="$src/samples/registry/JFLLIOJUI2M3KX3FLLGP4N2V65.bundle.json"
stamp=("$bin/pith-stamp" --offline --bundle "$bundle")

# build DIR [SED]: the sample paper, pith.sty generated first (as latexmk's
# hook does), then the .tex edited with SED and built with pdflatex.
build() {
  local dir=$1 edit=${2:-}
  mkdir -p "$dir"
  cp "$src/samples/paper.tex" "$dir/"
  "${stamp[@]}" "$dir/paper.tex" >/dev/null 2>&1 || fail "pith-stamp $dir/paper.tex failed"
  [[ -n $edit ]] && sed -i "$edit" "$dir/paper.tex"
  (cd "$dir" && pdflatex -interaction=batchmode paper.tex >/dev/null) ||
    fail "the sample did not build in $dir"
}

# ---- the control: built from pith.sty, verified, already stamped ------------------
build "$work/good"
run 0 "pith-check the sample" "$bin/pith-check" --offline "$work/good/paper.pdf"
cp "$work/good/paper.pdf" "$work/good/before.pdf"
run 0 "pith-stamp the sample" "${stamp[@]}" -v "$work/good/paper.pdf"
grep -q "already stamped with $number (nothing to do)" "$work/err" || fail "the sample is not 'already stamped': $(cat "$work/err")"
cmp -s "$work/good/paper.pdf" "$work/good/before.pdf" || fail "already stamped changed the file"
# No registry and no bundle: the record the PDF carries still verifies, so
# it is kept (exit 0), and -o OUT / -o - still get the file it vouches for.
kept=("$bin/pith-stamp" --offline --cache-dir "$work/empty-cache")
run 0 "pith-stamp -o OUT, kept offline" "${kept[@]}" --json -o "$work/good/kept.pdf" "$work/good/paper.pdf"
$py - "$work/out" "$work/good/kept.pdf" <<'PY' || fail "-o OUT, kept offline: $(head -c 600 "$work/out")"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["status"] == "already_stamped" and r["offline"] is True, r
assert r["output"] == sys.argv[2], r["output"]
PY
cmp -s "$work/good/kept.pdf" "$work/good/before.pdf" || fail "kept offline, but -o OUT is not the PDF as it is"
run 0 "pith-stamp -o -, kept offline" "${kept[@]}" -o - "$work/good/paper.pdf"
cmp -s "$work/out" "$work/good/before.pdf" || fail "kept offline, but -o - did not write the PDF as it is"

# ---- the title edited after pith.sty was generated: failed, so not already stamped --
build "$work/edited" 's/^\\title{Layered gradient accumulation and modular pipeline parallelism:/\\title{Layered gradients, retitled:/'
pdf="$work/edited/paper.pdf"
run 1 "pith-check the edited paper" "$bin/pith-check" --offline "$pdf"
grep -q "pdf.title.mismatch" "$work/out" || fail "pith-check does not fail the edited title: $(cat "$work/out")"
cp "$pdf" "$work/edited/before.pdf"
run 1 "pith-stamp the edited paper" "${stamp[@]}" "$pdf"
grep -q "already carries the record of $number, but pith-check says failed (pdf.title.mismatch" "$work/err" ||
  fail "the refusal does not say what is wrong: $(cat "$work/err")"
grep -q "nothing written" "$work/err" || fail "the refusal does not say nothing was written"
grep -q "rebuild" "$work/err" && grep -q -- "--force" "$work/err" || fail "the refusal does not say how to fix it: $(cat "$work/err")"
[[ $(wc -l <"$work/err") == 1 ]] || fail "the refusal is not one line: $(cat "$work/err")"
cmp -s "$pdf" "$work/edited/before.pdf" || fail "the refusal changed the file"
run 1 "pith-stamp -o OUT the edited paper" "${stamp[@]}" -o "$work/edited/out.pdf" "$pdf"
[[ ! -e $work/edited/out.pdf ]] || fail "-o OUT was written although the PDF does not verify"
run 1 "pith-stamp -o - the edited paper" "${stamp[@]}" -o - "$pdf"
[[ ! -s $work/out ]] || fail "-o - wrote the PDF although it does not verify"
run 1 "pith-stamp --json the edited paper" "${stamp[@]}" --json "$pdf"
$py - "$work/out" <<'PY' || fail "--json: $(head -c 600 "$work/out")"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["status"] == "not_verified", r["status"]
assert r["exit_code"] == 1
assert r["file_check"]["verdict"] == "failed"
assert any(c["code"] == "pdf.title.mismatch" for c in r["file_check"]["checks"])
PY
cmp -s "$pdf" "$work/edited/before.pdf" || fail "a refusal changed the file"

# --force stamps it again as it is (a warning; pith-check still says what it is).
run 0 "pith-stamp --force the edited paper" "${stamp[@]}" --force "$pdf"
grep -q "warning: --force: stamped again although pith-check said failed" "$work/err" ||
  fail "--force does not warn: $(cat "$work/err")"
cmp -s "$pdf" "$work/edited/before.pdf" && fail "--force did not stamp again"
run 1 "pith-check after --force" "$bin/pith-check" --offline "$pdf"

# ---- a stamped PDF whose title no reader sees: unbound, exit 4 ---------------------
mkdir -p "$work/untitled"
printf '%s\n' '\documentclass{article}\begin{document}Some text, no title.\end{document}' >"$work/untitled/paper.tex"
(cd "$work/untitled" && pdflatex -interaction=batchmode paper.tex >/dev/null) || fail "the untitled paper did not build"
run 0 "pith-stamp the untitled paper" "${stamp[@]}" --pith "$number" "$work/untitled/paper.pdf"
run 4 "pith-check the untitled paper" "$bin/pith-check" --offline "$work/untitled/paper.pdf"
cp "$work/untitled/paper.pdf" "$work/untitled/before.pdf"
run 4 "pith-stamp the untitled paper again" "${stamp[@]}" "$work/untitled/paper.pdf"
grep -q "but pith-check says unbound" "$work/err" || fail "the unbound refusal: $(cat "$work/err")"
cmp -s "$work/untitled/paper.pdf" "$work/untitled/before.pdf" || fail "the unbound refusal changed the file"
# The run's trust store is loaded once (stamp/run_steps.hpp RunTrust): the
# record's verification and pith-check's judgement of the file share it, so
# a --trust-key file is opened once (twice before).
if command -v strace >/dev/null; then
  "$signer" --output key >"$work/extra-key.json"
  strace -f -qq -e trace=openat -o "$work/strace" "${stamp[@]}" --trust-key "$work/extra-key.json" "$work/untitled/paper.pdf" >/dev/null 2>&1 || true
  opened=$(grep -c 'extra-key.json"' "$work/strace" || true)
  ((opened == 1)) || fail "--trust-key file opened $opened times by one run, not once"
else
  echo "note: no strace: the trust store's one load is not counted"
fi

((failures == 0)) || { echo "$failures failure(s)" >&2; exit 1; }
echo "ok: already stamped only when pith-check says verified; otherwise what is wrong, how to fix it, nothing written"
