#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# make ctan (issue 33): <build>/pith.zip is pith.sty as CTAN takes an upload —
# one top-level directory pith/ holding the package, the manual's source and
# PDF, README.md and LICENSE, no generated file, no executable bit — the same
# bytes from two builds, and a manual that builds from the zip's own source.
# scripts/ctan-zip check refuses each thing CTAN would (tried on zips made
# wrong on purpose). Needs PITH_BUILD_DIR (the manual is built there).
set -euo pipefail

source "$(dirname "$0")/../support/scratch_env.sh"  # $work, $src, $bin, $data; offline, reproducible
source "$(dirname "$0")/../support/cli_expect.sh"  # fail
: "${PITH_BUILD_DIR:?PITH_BUILD_DIR must name the build directory}"
zip=$PITH_BUILD_DIR/pith.zip
ctan_zip=$src/scripts/ctan-zip

# --- the target, as make ctan runs it ------------------------------------------
rm -f "$zip"
cmake --build "$PITH_BUILD_DIR" --target ctan >"$work/build.log" 2>&1 || { cat "$work/build.log"; fail "the ctan target failed"; exit 1; }
grep -q "ctan-zip: $zip: ok (6 entries under pith/)" "$work/build.log" || fail "the ctan target did not check its zip: $(cat "$work/build.log")"
cp "$zip" "$work/first.zip"
cmake --build "$PITH_BUILD_DIR" --target ctan >/dev/null 2>&1
cmp -s "$zip" "$work/first.zip" || fail "two builds of pith.zip differ"

/usr/bin/python3 - "$zip" "$src" <<'PY' || fail "pith.zip's layout: $(unzip -l "$zip")"
import sys, zipfile
z = zipfile.ZipFile(sys.argv[1]); src = sys.argv[2]
names = sorted(z.namelist())
assert names == ["pith/", "pith/LICENSE", "pith/README.md", "pith/pith-doc.tex", "pith/pith.pdf", "pith/pith.sty"], names
assert z.read("pith/pith.sty") == open(f"{src}/latex/pith.sty", "rb").read(), "pith.sty is not latex/pith.sty"
assert z.read("pith/pith-doc.tex") == open(f"{src}/latex/pith-doc.tex", "rb").read()
assert z.read("pith/README.md") == open(f"{src}/latex/README.md", "rb").read()
assert z.testzip() is None
for info in z.infolist():
    assert info.is_dir() or (info.external_attr >> 16) & 0o777 == 0o644, (info.filename, oct(info.external_attr >> 16))
PY

# The manual builds from what the zip holds, as a CTAN user (or TeX Live's builder) would build it.
mkdir "$work/unpacked"
(cd "$work/unpacked" && unzip -q "$zip" && cd pith &&
  pdflatex -interaction=batchmode -halt-on-error -jobname=pith pith-doc.tex >/dev/null) ||
  fail "the manual does not build from the zip's pith-doc.tex"
[[ -s $work/unpacked/pith/pith.pdf ]] || fail "no pith.pdf from the zip's source"

# --- the check refuses what CTAN refuses ------------------------------------------
# bad NAME PYTHON: a copy of pith.zip changed by PYTHON (z_in, z_out), which check must refuse, naming WANT.
bad() {
  local name=$1 want=$2 edit=$3
  /usr/bin/python3 - "$zip" "$work/$name.zip" <<PY
import sys, zipfile
z_in = zipfile.ZipFile(sys.argv[1]); z_out = zipfile.ZipFile(sys.argv[2], "w")
$edit
PY
  local rc=0
  "$ctan_zip" check "$work/$name.zip" >"$work/out" 2>"$work/err" || rc=$?
  [[ $rc == 1 ]] || fail "check of the $name zip exited $rc, not 1"
  grep -q -- "$want" "$work/err" || fail "check of the $name zip does not say '$want': $(cat "$work/err")"
}
copy_all='for i in z_in.infolist(): z_out.writestr(i, z_in.read(i))'
bad junk "pith/pith.log: a generated file" "$copy_all
z_out.writestr('pith/pith.log', b'This is pdfTeX')"
bad top "pith-0.1/pith.sty: outside the top-level directory pith/" "$copy_all
z_out.writestr('pith-0.1/pith.sty', b'x')"
bad readme "pith/README.md: missing" "[z_out.writestr(i, z_in.read(i)) for i in z_in.infolist() if i.filename != 'pith/README.md']"
bad hidden "pith/.DS_Store: a hidden or system file" "$copy_all
z_out.writestr('pith/.DS_Store', b'x')"
bad executable "pith/pith.sty: executable" "[z_out.writestr(i, z_in.read(i)) for i in z_in.infolist() if i.filename != 'pith/pith.sty']
i = zipfile.ZipInfo('pith/pith.sty'); i.external_attr = 0o100755 << 16; z_out.writestr(i, z_in.read('pith/pith.sty'))"
"$ctan_zip" check "$zip" >/dev/null || fail "check refuses the good zip"

((failures == 0)) || exit 1
echo "ctan_zip: ok"
