#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 26: PDFs every common reader opens, of the kinds found in other
# projects' test suites (made here by tests/support/reader_classes.py, and
# by qpdf --encrypt): pith-check reads each (exit 3: no number); pith-stamp
# stamps each, page 1 drawn as before, or refuses only damaged
# cross-reference data (naming the qpdf command that repairs it) and
# encryption (saying how to decrypt). A stamped paper encrypted afterwards
# with an owner password only (RC4 40/128-bit, AES-128, AES-256) still
# verifies; one with a user password asks for it.
set -euo pipefail

source "$(dirname "$0")/../support/scratch_env.sh"  # $work, $src, $bin, $data; offline, reproducible
need_tools pith-check pith-stamp
source "$src/tests/support/cli_expect.sh"  # fail MESSAGE, expect_exit, $failures
/usr/bin/python3 "$src/tests/support/reader_classes.py" "$work/classes"

# page_one PDF PREFIX: page 1 at 36 dpi in PREFIX.pgm, poppler's complaints in PREFIX.err.
page_one() { pdftoppm -r 36 -f 1 -l 1 -gray -singlefile "$1" "$2" 2>"$2.err"; }

for pdf in "$work"/classes/*.pdf; do
  name=$(basename "$pdf")
  pdfinfo "$pdf" >/dev/null 2>&1 || { fail "$name: poppler does not open the sample itself"; continue; }
  expect_exit 3 --offline "$pdf"
  grep -q "PoDoFo" "$work/err" && fail "$name: pith-check shows PoDoFo's words: $(cat "$work/err")"

  out="$work/stamped-$name"
  rc=0
  "$stamp" --force --bundle "$bundle" --pith "$number" -o "$out" "$pdf" 2>"$work/stamp-err" || rc=$?
  grep -q "PoDoFo\|exploit" "$work/stamp-err" && fail "$name: pith-stamp's message: $(cat "$work/stamp-err")"
  case $name in
    junk-*)
      [[ $rc == 2 && ! -e $out ]] || fail "$name: pith-stamp exited $rc, expected a refusal (2) and no file"
      grep -q "damaged cross-reference data" "$work/stamp-err" || fail "$name: the refusal does not say why"
      grep -q "qpdf '$pdf' repaired.pdf" "$work/stamp-err" || fail "$name: the refusal lacks the repair command"
      ;;
    rc4-*)
      [[ $rc == 2 && ! -e $out ]] || fail "$name: pith-stamp exited $rc, expected a refusal (2) and no file"
      grep -q "encrypted" "$work/stamp-err" && grep -q "qpdf --decrypt" "$work/stamp-err" ||
        fail "$name: the refusal does not say how to decrypt: $(cat "$work/stamp-err")"
      ;;
    *)
      if [[ $rc != 0 ]]; then
        fail "$name: pith-stamp exited $rc: $(cat "$work/stamp-err")"
        continue
      fi
      cmp -s -n "$(stat -c %s "$pdf")" "$pdf" "$out" || fail "$name: the original is not a prefix of the stamped file"
      page_one "$pdf" "$work/before" && page_one "$out" "$work/after" && cmp -s "$work/before.pgm" "$work/after.pgm" ||
        fail "$name: page 1 of the stamped file renders differently"
      grep -q "reconstruct" "$work/after.err" && fail "$name: poppler rebuilt the stamped file's xref: $(cat "$work/after.err")"
      before=0 after=0
      qpdf --check "$pdf" >/dev/null 2>&1 || before=$?
      qpdf --check "$out" >/dev/null 2>&1 || after=$?
      ((after == 0 || after <= before)) || fail "$name: qpdf --check $before -> $after"
      ;;
  esac
done

# An XMP packet that is not well-formed is replaced, saying so even when quiet.
"$stamp" --force --bundle "$bundle" --pith "$number" -o "$work/xmp.pdf" "$work/classes/bad-xmp.pdf" 2>"$work/stamp-err" ||
  fail "bad-xmp.pdf: $(cat "$work/stamp-err")"
grep -q "XMP packet is not well-formed XMP.*replaced" "$work/stamp-err" || fail "bad-xmp.pdf: no warning: $(cat "$work/stamp-err")"
pdfinfo -meta "$work/xmp.pdf" 2>/dev/null | grep -q "$number" || fail "bad-xmp.pdf: the new packet lacks the number"

# After a cross-reference stream, the update is one too.
tail -c +"$(($(stat -c %s "$work/classes/xrefstream.pdf") + 1))" "$work/stamped-xrefstream.pdf" | grep -aq "/Type /XRef" ||
  fail "xrefstream.pdf: the update is not a cross-reference stream"
tail -c +"$(($(stat -c %s "$work/classes/gen65536.pdf") + 1))" "$work/stamped-gen65536.pdf" | grep -aq "^xref" ||
  fail "gen65536.pdf: the update after a classic table is not a classic table"

# fontconfig, started by poppler for a form font the file does not embed,
# with no cache of the user's: the sandboxed children are not stopped.
mkdir -p "$work/home"
HOME="$work/home" XDG_CACHE_HOME="$work/home/.cache" "$stamp" --badge --force --bundle "$bundle" --pith "$number" \
  -o "$work/form-badge.pdf" "$work/classes/form-fonts.pdf" 2>"$work/stamp-err" ||
  fail "form-fonts.pdf with an empty HOME: $(cat "$work/stamp-err")"

# ---- a stamped paper, encrypted afterwards -------------------------------------
cat >"$work/paper.tex" <<'TEX'
\documentclass{article}
\usepackage{hyperref}
\begin{document}\title{Layered gradient accumulation and modular pipeline parallelism: fast and efficient training of large language models}\author{A}\maketitle Text.\end{document}
TEX
(cd "$work" && pdflatex -interaction=batchmode paper.tex >/dev/null 2>&1)
"$stamp" --bundle "$bundle" --pith "$number" -o "$work/stamped.pdf" "$work/paper.pdf"
for mode in "40" "128 --use-aes=n" "128 --use-aes=y" "256"; do
  # shellcheck disable=SC2086  # the mode's words are qpdf's arguments
  qpdf --allow-weak-crypto --encrypt "" owner $mode -- "$work/stamped.pdf" "$work/enc.pdf"
  expect_exit 0 --offline "$work/enc.pdf"
  expect_out "verified $number"
  expect_out "isolation.parent.verified"
  # shellcheck disable=SC2086
  qpdf --allow-weak-crypto --encrypt "secret" owner $mode -- "$work/stamped.pdf" "$work/locked.pdf"
  expect_exit 2 --offline "$work/locked.pdf"
  expect_err "user password"
  expect_err "qpdf --decrypt --password="
done

((failures == 0)) || exit 1
echo "reader classes: all checks passed"
