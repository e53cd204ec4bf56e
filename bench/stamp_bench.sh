#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/stamp_bench.sh BUILD_DIR — what stamping a PDF costs, against what
# other tools cost for a comparable job, on a typical 10-page paper and on
# 1,000+ page files. Wall time from hyperfine (median and minimum: robust on a
# shared machine), peak RSS from
# /usr/bin/time -v. Prints a Markdown table.
#
#   cp                 copying the file (the floor for any rewrite)
#   cp + fsync         the same, flushed to disk as pith-stamp does (dd conv=fsync)
#   pith-stamp -o      verify the bundle + incremental update into a copy
#   pith-stamp         the same, in place (temporary file, fsync, rename)
#   pith-stamp --append  in place, appended directly (no copy)
#   pdf_stamp_bench    the PDF half of pith-stamp in one process (the bundle verified, no resolver, no children)
#   exiftool           -XMP-dc:Identifier=x (also an incremental update)
#   qpdf               a full rewrite (qpdf in.pdf out.pdf)
#   podofo WriteUpdate PoDoFo's whole-document load + update (Info key)
set -euo pipefail

source "$(dirname "$0")/bench_env.sh" "${1:?usage: stamp_bench.sh BUILD_DIR}"
runs=${RUNS:-15}
need_commands hyperfine pdflatex exiftool qpdf

lipsum_pdf paper 10
lipsum_pdf thesis 1200
# A heavier 1,000+ page file: uncompressed streams, classic xref table.
lipsum_pdf tome 1200 '\pdfcompresslevel=0 \pdfobjcompresslevel=0 \usepackage{graphicx}'

peak_rss_mb() {  # peak_rss_mb PREPARE COMMAND
  bash -c "$1" >/dev/null 2>&1
  /usr/bin/time -f %M bash -c "exec $2" 2>&1 >/dev/null | tail -1 | awk '{printf "%.1f", $1/1024}'
}

echo "| file | pages | size | command | wall time, median (min) ms | peak RSS (MB) |"
echo "|---|---|---|---|---|---|"
for name in paper thesis tome; do
  in="$work/$name.pdf"
  pages=$(pdfinfo "$in" | awk '/^Pages:/ {print $2}')
  size=$(du -h --apparent-size "$in" | cut -f1)
  w="$work/w-$name.pdf"
  o="$work/o-$name.pdf"
  reset="cp '$in' '$w'"
  declare -a labels=() prepares=() commands=()
  add() { labels+=("$1"); prepares+=("$2"); commands+=("$3"); }
  add "cp" "rm -f '$o'" "cp '$in' '$o'"
  add "cp + fsync (the floor for a durable copy)" "rm -f '$o'" "dd if='$in' of='$o' bs=4M conv=fsync status=none"
  add "pith-stamp -o" "rm -f '$o'" "'$stamp' --bundle '$bundle' --pith $number -o '$o' '$in'"
  add "pith-stamp (in place)" "$reset" "'$stamp' --bundle '$bundle' --pith $number '$w'"
  add "pith-stamp --append" "$reset" "'$stamp' --append --bundle '$bundle' --pith $number '$w'"
  add "PDF half only (in one process)" "rm -f '$o'" "'$build/bench/pdf_stamp_bench' '$bundle' '$in' '$o'"
  add "exiftool -XMP-dc:Identifier=x" "$reset" "exiftool -q -overwrite_original -XMP-dc:Identifier=x '$w'"
  add "qpdf rewrite" "rm -f '$o'" "qpdf '$in' '$o'"
  add "PoDoFo WriteUpdate" "rm -f '$o'" "'$build/bench/podofo_writeupdate_bench' '$in' '$o'"
  for i in "${!labels[@]}"; do
    json="$work/h.json"
    hyperfine -N --style none --warmup 2 --runs "$runs" --prepare "${prepares[$i]}" --export-json "$json" \
      "${commands[$i]}" >/dev/null 2>&1 || { echo "| $name | $pages | $size | ${labels[$i]} | failed | |"; continue; }
    timing=$(python3 -c "import json,sys; r=json.load(open('$json'))['results'][0]; print('%.1f (%.1f)' % (r['median']*1000, r['min']*1000))")
    rss=$(peak_rss_mb "${prepares[$i]}" "${commands[$i]}")
    echo "| $name | $pages | $size | ${labels[$i]} | $timing | $rss |"
  done
  unset labels prepares commands
done
