#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# latexmk with the shipped rc (latex/latexmkrc, loaded by samples/latexmkrc)
# on every engine latexmk drives: -pdf, -pdfxe, -pdflua, -pdfdvi, -pdfps.
# Each cell builds a fresh copy of samples/ offline from the sample's
# registry mirror; pith-stamp paper.tex runs exactly once (before the first
# pass), pith-stamp paper.pdf once after the build, the PDF verifies
# offline, and a second latexmk does nothing (no loop). Then, on one cell:
# a user's own $success_cmd still runs; the fallback for a latexmk without
# hook stacks works; with no registry reachable a valid pith.sty is kept
# with one warning and the build goes on; a missing or wrong one stops it.
# About 20-35 s on the shared 2-core machine (lualatex is the slowest cell).
set -euo pipefail
source "$(dirname "$0")/../support/scratch_env.sh"  # $work, $src, $bin, $data; offline, reproducible
need_tools pith-stamp pith-check
[[ -f "$PITH_BIN/../share/pith/latexmkrc" ]] || fail "the build tree has no share/pith/latexmkrc"
export PATH="$PITH_BIN:$PATH"
# Every pith-stamp the rc runs, logged (then the real one).
cat > "$work/pith-stamp-logged" <<LOG
#!/usr/bin/env bash
echo "\$*" >> stamp-calls.log
exec "$PITH_BIN/pith-stamp" "\$@"
LOG
chmod +x "$work/pith-stamp-logged"
export PITH_STAMP="$work/pith-stamp-logged"

fresh_sample() {  # $1: directory
  mkdir -p "$1"
  cp -r "$PITH_SOURCE_DIR/samples/paper.tex" "$PITH_SOURCE_DIR/samples/latexmkrc" "$PITH_SOURCE_DIR/samples/registry" "$1/"
}
calls() { grep -c -- "$1" stamp-calls.log || true; }  # pith-stamp calls naming $1

for engine in pdf pdfxe pdflua pdfdvi pdfps; do
  cell="$work/$engine"
  fresh_sample "$cell"
  cd "$cell"
  latexmk -r latexmkrc "-$engine" -interaction=nonstopmode paper.tex > latexmk.out 2>&1 \
    || { tail -40 latexmk.out; fail "$engine: latexmk failed"; }
  [[ -f pith.sty && -f paper.pdf ]] || fail "$engine: no pith.sty or paper.pdf"
  [[ $(calls 'paper.tex') == 1 ]] || { cat stamp-calls.log; fail "$engine: pith-stamp paper.tex did not run exactly once"; }
  [[ $(calls 'paper.pdf') == 1 ]] || { cat stamp-calls.log; fail "$engine: pith-stamp paper.pdf did not run once after the build"; }
  if grep -q "^latexmkrc: .* failed" latexmk.out; then grep 'pith-stamp\|latexmkrc' latexmk.out; fail "$engine: a pith-stamp step failed"; fi
  grep -q 'pith.sty carries the signed record of' paper.log || fail "$engine: the log does not say the record is baked in"
  pith-check --offline paper.pdf > check.out 2>&1 || { cat check.out; fail "$engine: pith-check --offline paper.pdf"; }
  # No loop: a second latexmk has nothing to do, and runs no pith-stamp paper.tex.
  latexmk -r latexmkrc "-$engine" -interaction=nonstopmode paper.tex > again.out 2>&1 || fail "$engine: second latexmk failed"
  grep -q 'All targets .* are up-to-date\|All targets (.*) are up-to-date' again.out || { cat again.out; fail "$engine: second latexmk rebuilt"; }
  [[ $(calls 'paper.tex') == 1 ]] || fail "$engine: the second latexmk ran pith-stamp paper.tex again"
  echo "ok: latexmk -$engine"
done

# A user's own $success_cmd, set after pith's rc, runs too (and first).
cell="$work/user-success"; fresh_sample "$cell"; cd "$cell"
printf '%s\n' '$success_cmd = "echo user >> stamp-calls.log";' > user.rc
latexmk -r latexmkrc -r user.rc -pdf -interaction=nonstopmode paper.tex > latexmk.out 2>&1 || { tail -30 latexmk.out; fail "user success_cmd: latexmk failed"; }
[[ "$(grep -x -e user -e '.*paper.pdf.*' stamp-calls.log | head -1)" == user ]] || { cat stamp-calls.log; fail "the user's \$success_cmd did not run (first)"; }
[[ $(calls 'paper.pdf') == 1 ]] || fail "with a user's \$success_cmd, pith-stamp paper.pdf did not run"
echo "ok: a user's \$success_cmd is kept"

# A latexmk without hook stacks: the engine commands are wrapped instead.
cell="$work/no-hooks"; fresh_sample "$cell"; cd "$cell"
printf '%s\n' 'no warnings; undef &main::add_hook;' > no-hooks.rc
latexmk -r no-hooks.rc -r latexmkrc -pdfxe -interaction=nonstopmode paper.tex > latexmk.out 2>&1 || { tail -30 latexmk.out; fail "fallback: latexmk failed"; }
[[ $(calls 'paper.tex') -ge 1 && $(calls 'paper.pdf') == 1 ]] || { cat stamp-calls.log; fail "fallback: pith-stamp not run"; }
pith-check --offline paper.pdf > /dev/null 2>&1 || fail "fallback: the PDF does not verify"
echo "ok: fallback without add_hook"

# Offline: no mirror, the registry unreachable (PITH_RESOLVER from ctest, or
# a closed port), a valid pith.sty present: kept, one warning, build goes on.
cd "$work/pdf"
rm -rf registry stamp-calls.log paper.pdf
export PITH_RESOLVER=http://127.0.0.1:9
export XDG_CACHE_HOME="$work/empty-cache"   # nothing cached from the mirror builds above
sum=$(sha256sum pith.sty)
echo '% edited' >> paper.tex
latexmk -r latexmkrc -pdf -interaction=nonstopmode paper.tex > offline.out 2>&1 || { cat offline.out; fail "offline with a valid pith.sty: latexmk failed"; }
[[ $(grep -c 'warning:' offline.out) == 1 ]] || { cat offline.out; fail "offline: not exactly one warning"; }
grep -q 'could not be reached' offline.out || fail "offline: the warning does not say the registry could not be reached"
[[ "$(sha256sum pith.sty)" == "$sum" ]] || fail "offline: pith.sty changed"
pith-check --offline paper.pdf > /dev/null 2>&1 || fail "offline: the PDF does not verify"
echo "ok: offline with a valid pith.sty: kept, one warning"

# Offline and no pith.sty: an error with the next step, and no PDF.
rm -f pith.sty paper.pdf; echo '% edited again' >> paper.tex
status=0; latexmk -r latexmkrc -pdf -interaction=nonstopmode paper.tex > missing.out 2>&1 || status=$?
[[ $status == 12 ]] || { cat missing.out; fail "offline without pith.sty: latexmk exit $status, not 12"; }
grep -q "Connect to the registry and run 'pith-stamp paper.tex' again" missing.out || { cat missing.out; fail "offline without pith.sty: no next step"; }
echo "ok: offline without pith.sty stops with the next step"

# Offline and a pith.sty for another number: an error too.
"$PITH_BIN/pith-stamp" paper.tex --bundle "$PITH_SOURCE_DIR/samples/registry/JFLLIOJUI2M3KX3FLLGP4N2V65.bundle.json" > /dev/null
sed -i 's/\\pithnumber{JFLLIOJUI2M3KX3FLLGP4N2V65}/\\pithnumber{WXNI57C2SJ24QK62DB7DTUREA3}/' paper.tex
if latexmk -r latexmkrc -pdf -interaction=nonstopmode paper.tex > wrong.out 2>&1; then fail "offline with another number's pith.sty: latexmk succeeded"; fi
grep -q 'carries the record of pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65' wrong.out || { cat wrong.out; fail "offline, wrong pith.sty: not named"; }
echo "ok: offline with another number's pith.sty stops"
