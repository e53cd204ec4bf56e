#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# pith-stamp --remove (issue 33): the original back, byte for byte, only when
# the bytes prove it; later revisions refused without --force; no output on refusal.
set -euo pipefail
source "$(dirname "$0")/../support/scratch_env.sh"
need_tools pith-stamp
source "$src/tests/support/cli_expect.sh"
stamp=$bin/pith-stamp
cd "$work"
printf '%s\n' '\documentclass{article}\begin{document}\title{Paper}\author{A}\maketitle Text.\end{document}' >p.tex
pdflatex -interaction=batchmode p.tex >/dev/null 2>&1
cp p.pdf orig.pdf
"$stamp" --bundle "$bundle" --pith "$number" --force --badge -o st.pdf orig.pdf 2>/dev/null || fail "stamp failed"
"$stamp" --remove -o back.pdf st.pdf || fail "remove failed"
cmp -s back.pdf orig.pdf || fail "removed is not the original"
rc=0; "$stamp" --remove -o x.pdf orig.pdf 2>err.txt || rc=$?
[[ $rc == 3 && ! -e x.pdf ]] || fail "never stamped: rc=$rc"
grep -q "orig.pdf: carries no pith-stamp update" err.txt || fail "never stamped: $(cat err.txt)"
# a byte flipped inside the original part
python3 -c 'import sys; b=bytearray(open("st.pdf","rb").read()); b[200]^=1; open("bad.pdf","wb").write(b)'
rc=0; "$stamp" --remove -o y.pdf bad.pdf 2>err.txt || rc=$?
[[ $rc == 1 && ! -e y.pdf ]] || fail "altered prefix: rc=$rc $(cat err.txt)"
# a revision appended after the stamp
/usr/bin/python3 -c 'import pikepdf; p=pikepdf.open("st.pdf"); p.docinfo["/Subject"]="edited"; p.save("ed.pdf", incremental=True)' 2>/dev/null \
  || { cp st.pdf ed.pdf; printf 'xref\n0 1\n0000000000 65535 f \ntrailer<</Size 1>>\nstartxref\n%s\n%%%%EOF\n' "$(stat -c %s st.pdf)" >>ed.pdf; }
rc=0; "$stamp" --remove -o z.pdf ed.pdf 2>err.txt || rc=$?
[[ $rc == 1 && ! -e z.pdf ]] || fail "edited: rc=$rc"
grep -q "a revision appended after the stamp (bytes" err.txt || fail "edited not named: $(cat err.txt)"
"$stamp" --remove --force -o z.pdf ed.pdf 2>/dev/null || fail "--force failed"
cmp -s z.pdf orig.pdf || fail "--force result is not the original"
# in place
cp st.pdf inplace.pdf; "$stamp" --remove -o inplace.pdf inplace.pdf || fail "in place"
cmp -s inplace.pdf orig.pdf || fail "in place result"
((failures == 0)) || { echo "$failures failure(s)" >&2; exit 1; }
echo ok
