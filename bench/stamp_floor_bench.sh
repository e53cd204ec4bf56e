#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/stamp_floor_bench.sh BUILD_DIR [BASELINE_BUILD_DIR] — issue 32's
# first goal: `pith-stamp -o` on a 43 MB / 1,560-page file against its floors,
# each run in the same hyperfine session (so a shared machine's drift falls on
# all alike):
#   - cp + fsync (dd conv=fsync): the floor of any durable copy;
#   - SHA-256 of the file (openssl dgst): the hash the stamp records;
#   - pdftotext -raw -l 200: the text of the 200 pages the fingerprint reads
#     (pdf/page_fingerprint.hpp), in one process;
#   - cp + exiftool -XMP-dc:Title=…: the peer that writes metadata;
#   - pith-stamp -o, this build and the baseline's;
# and the same for a 10-page paper. The big file: lipsum pages with their
# streams uncompressed, and 33 MB of random bytes in one stream (what images
# weigh in a real thesis). Prints a Markdown table: median (min) wall time and
# the user+sys CPU of the process tree. RUNS (default 15) sets hyperfine's runs.
set -euo pipefail

source "$(dirname "$0")/bench_env.sh" "${1:?usage: stamp_floor_bench.sh BUILD_DIR [BASELINE_BUILD_DIR]}"
baseline=${2:+$(cd "$2" && pwd)}
runs=${RUNS:-15}
need_commands hyperfine pdflatex exiftool openssl pdftotext

head -c 33000000 /dev/urandom >"$work/random.bin"
lipsum_pdf big 1560 '\pdfcompresslevel=0 \pdfobjcompresslevel=0 \immediate\pdfobj stream file {random.bin}'
lipsum_pdf paper 10

measure() {  # measure LABEL PREPARE COMMAND
  hyperfine -N -i --warmup 2 --runs "$runs" --prepare "$2" --export-json "$work/h.json" "$3" >/dev/null 2>&1 ||
    { echo "| $1 | failed | |"; return; }
  /usr/bin/python3 - "$1" "$work/h.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[2]))["results"][0]
print(f"| {sys.argv[1]} | {r['median'] * 1000:.1f} ({r['min'] * 1000:.1f}) | {(r['user'] + r['system']) * 1000:.1f} |")
PY
}

echo "| what | wall, median (min) ms | CPU of the tree (ms) |"
echo "|---|---|---|"
for name in big paper; do
  in="$work/$name.pdf"
  pages=$(pdfinfo "$in" | awk '/^Pages:/ {print $2}')
  size=$(du -h --apparent-size "$in" | cut -f1)
  out="$work/out.pdf"
  measure "$name ($size, $pages pages): cp + fsync" "rm -f $out" "dd if=$in of=$out bs=4M conv=fsync status=none"
  measure "$name: SHA-256 (openssl)" "true" "openssl dgst -sha256 $in"
  measure "$name: pdftotext -raw -l 200" "true" "pdftotext -raw -l 200 $in /dev/null"
  measure "$name: cp + exiftool -XMP-dc:Title" "cp $in $out" "exiftool -q -overwrite_original -XMP-dc:Title=x $out"
  measure "$name: pith-stamp -o (this)" "rm -f $out" "$build/tools/pith-stamp --offline --bundle $bundle --pith $number -o $out $in"
  [[ -n $baseline ]] &&
    measure "$name: pith-stamp -o (baseline)" "rm -f $out" "$baseline/tools/pith-stamp --offline --bundle $bundle --pith $number -o $out $in"
done
echo
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
