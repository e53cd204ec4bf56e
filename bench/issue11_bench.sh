#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/issue11_bench.sh BUILD_DIR [BASELINE_BUILD_DIR] — the figures issue 11
# asks for, in one run (hyperfine medians; record them as indicative unless
# the machine is quiet):
#   stamp -o of a large file      against cp, cp + fsync, and cp + exiftool
#   stamp --append                against exiftool writing XMP in place
#   pith-check --offline          on a stamped 10-page paper, against pdfinfo -meta
#   start-up (--version)          pith-check, pith-stamp (and BASELINE's), pdfinfo -v;
#                                 shared libraries and relocations (LD_DEBUG=statistics),
#                                 instructions (valgrind --tool=callgrind, when installed)
# BIG_PDF=FILE uses that file as the large one (default: a 43 MB PDF made here).
set -euo pipefail

source "$(dirname "$0")/bench_env.sh" "${1:?usage: issue11_bench.sh BUILD_DIR [BASELINE_BUILD_DIR]}"
baseline=${2:+$(cd "$2" && pwd)}
runs=${RUNS:-15}
need_commands hyperfine pdflatex exiftool pdfinfo

big=${BIG_PDF:-$work/big.pdf}
if [[ -z ${BIG_PDF:-} ]]; then
  /usr/bin/python3 - "$here/../tests/support" "$big" <<'PY'
import os, sys
sys.path.insert(0, sys.argv[1])
from hostile_pdfs import BASE, pdf, stream
data = os.urandom(43 << 20)
open(sys.argv[2], "wb").write(pdf(BASE + [(4, stream(b"<< /Length %d >>" % len(data), data))]))
PY
fi
lipsum_pdf paper 10
"$stamp" --bundle "$bundle" --pith "$number" -o "$work/stamped.pdf" "$work/paper.pdf"

median_ms() {  # median_ms PREPARE COMMAND [HYPERFINE OPTION]
  hyperfine -N --style none --warmup 2 --runs "$runs" ${3:-} --prepare "$1" --export-json "$work/h.json" "$2" >/dev/null 2>&1
  /usr/bin/python3 -c "import json; r=json.load(open('$work/h.json'))['results'][0]; print('%.1f' % (r['median']*1000))"
}
row() { printf '| %s | %s ms |\n' "$1" "$2"; }

o="$work/o.pdf"
w="$work/w.pdf"
echo "big file: $(du -h --apparent-size "$big" | cut -f1)"
echo "| job | median |"
echo "|---|---|"
cp_ms=$(median_ms "rm -f '$o'" "cp '$big' '$o'")
row "cp" "$cp_ms"
row "cp + fsync (dd conv=fsync)" "$(median_ms "rm -f '$o'" "dd if='$big' of='$o' bs=4M conv=fsync status=none")"
cpx_ms=$(median_ms "rm -f '$o'" "bash -c \"cp '$big' '$o' && exiftool -q -overwrite_original -XMP-dc:Identifier=x '$o'\"")
row "cp + exiftool" "$cpx_ms"
so_ms=$(median_ms "rm -f '$o'" "'$stamp' --bundle '$bundle' --pith $number -o '$o' '$big'")
row "pith-stamp -o" "$so_ms"
[[ -n $baseline ]] && row "pith-stamp -o (BASELINE)" "$(median_ms "rm -f '$o'" "'$baseline/tools/pith-stamp' --bundle '$bundle' --pith $number -o '$o' '$big'")"
# What any stamp must do besides copying: the SHA-256 of the whole original
# (pith:originalSha256), at the CPU's SHA-NI speed.
row "openssl dgst -sha256 (the whole-file hash a stamp records)" "$(median_ms true "openssl dgst -sha256 '$big'")"
# In-place jobs start from a file already on disk, as a paper written more
# than 30 s ago is (the kernel's writeback): without the sync, the fsync a
# stamp must do would also write the 44 MB cp has just left dirty.
ex_ms=$(median_ms "bash -c \"cp '$big' '$w' && sync\"" "exiftool -q -overwrite_original -XMP-dc:Identifier=x '$w'")
row "exiftool in place" "$ex_ms"
ap_ms=$(median_ms "bash -c \"cp '$big' '$w' && sync\"" "'$stamp' --append --bundle '$bundle' --pith $number '$w'")
row "pith-stamp --append" "$ap_ms"
[[ -n $baseline ]] && row "pith-stamp --append (BASELINE)" "$(median_ms "bash -c \"cp '$big' '$w' && sync\"" "'$baseline/tools/pith-stamp' --append --bundle '$bundle' --pith $number '$w'")"
# The lipsum paper is not the record's paper: pith-check says `unbound`
# (exit 4) after the whole check, which is what is timed.
pc_ms=$(median_ms "true" "'$check' --offline '$work/stamped.pdf'" --ignore-failure)
row "pith-check --offline (10-page stamped paper)" "$pc_ms"
[[ -n $baseline ]] && row "pith-check --offline (BASELINE)" "$(median_ms "true" "'$baseline/tools/pith-check' --offline '$work/stamped.pdf'" --ignore-failure)"
# What the check must do that pdfinfo -meta does not: page 1's text (poppler).
row "pdftotext -f 1 -l 1 (page 1's text alone, same file)" "$(median_ms "true" "pdftotext -f 1 -l 1 '$work/stamped.pdf' /dev/null")"
pm_ms=$(median_ms "true" "pdfinfo -meta '$work/stamped.pdf'")
row "pdfinfo -meta (same file)" "$pm_ms"
for exe in "$check" "$stamp" ${baseline:+"$baseline/tools/pith-check" "$baseline/tools/pith-stamp"}; do
  libs=$(ldd "$exe" | wc -l)
  relocs=$(LD_DEBUG=statistics "$exe" --version 2>&1 >/dev/null | sed -n 's/.*final number of relocations: *//p' | head -1)
  # Instructions are what a shared machine cannot blur (callgrind, when installed).
  instr=
  if command -v valgrind >/dev/null; then
    instr=", $(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$exe" --version 2>&1 >/dev/null |
      sed -n 's/.*Collected : *//p') instructions"
  fi
  row "start-up: $exe --version ($libs libraries, $relocs relocations$instr)" "$(median_ms true "'$exe' --version")"
done
row "start-up: pdfinfo -v" "$(median_ms true "pdfinfo -v")"
/usr/bin/python3 - "$cp_ms" "$so_ms" "$cpx_ms" "$ex_ms" "$ap_ms" "$pc_ms" "$pm_ms" <<'PY'
import sys
cp, so, cpx, ex, ap, pc, pm = map(float, sys.argv[1:])
print(f"\nstamp -o / cp = {so/cp:.2f}x (goal <= 1.3); cp+exiftool / stamp -o = {cpx/so:.2f}x (goal >= 5)")
print(f"exiftool / stamp --append = {ex/ap:.2f}x (goal >= 10); pith-check / pdfinfo -meta = {pc/pm:.2f}x (goal <= 1.0)")
PY
