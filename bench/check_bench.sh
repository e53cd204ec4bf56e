#!/usr/bin/env bash
# bench/check_bench.sh BUILD_DIR — what checking a stamped PDF costs.
#
#  1. Per file, on the typical 10-page paper and the 1,200-page file of the
#     PDF zoo, stamped: pith-check --offline (full verification of the
#     embedded bundle, title and byte binding, in an isolated child process)
#     against pdfinfo -meta (poppler: prints the XMP) and exiftool -XMP:all.
#     Wall time from hyperfine (mean ± σ), peak RSS from /usr/bin/time.
#  2. A corpus: 500 stamped PDFs of assorted sizes (the zoo's producers,
#     1 to 1,200 pages) checked by ONE pith-check process: files per second.
# Prints Markdown.
set -euo pipefail

build=$(cd "${1:?usage: check_bench.sh BUILD_DIR}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
check="$build/tools/pith-check"
stamp="$build/tools/pith-stamp"
bundle="$here/../tests/data/JFLLIOJUI2M3KX3FLLGP4N2V65.bundle.json"
number=pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65
runs=${RUNS:-20}
corpus_size=${CORPUS:-500}
for tool in hyperfine exiftool pdfinfo; do
  command -v "$tool" >/dev/null || { echo "check_bench: $tool is missing" >&2; exit 2; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export SOURCE_DATE_EPOCH=1700000000 XDG_CONFIG_HOME="$work/config"

zoo=${PITH_ZOO_DIR:-$build/tests/zoo}
"$here/../tests/support/pdf_zoo.sh" "$zoo"
stamped=()
while IFS=$'\t' read -r file pages title features; do
  [[ $file == file || $file == other-title.pdf ]] && continue
  "$stamp" --pith "$number" --bundle "$bundle" -o "$work/s-$file" "$zoo/$file"
  stamped+=("$work/s-$file")
done <"$zoo/zoo.tsv"

peak_rss_mb() {
  /usr/bin/time -f %M bash -c "exec $1" 2>&1 >/dev/null | tail -1 | awk '{printf "%.1f", $1/1024}'
}

echo "## Per file"
echo
echo "| file | pages | size | command | wall time (ms) | peak RSS (MB) |"
echo "|---|---|---|---|---|---|"
for name in paper large; do
  pdf="$work/s-$name.pdf"
  pages=$(pdfinfo "$pdf" | awk '/^Pages:/ {print $2}')
  size=$(du -h --apparent-size "$pdf" | cut -f1)
  labels=("pith-check --offline" "pdfinfo -meta" "exiftool -XMP:all")
  commands=("'$check' --offline '$pdf'" "pdfinfo -meta '$pdf'" "exiftool -XMP:all '$pdf'")
  for i in "${!labels[@]}"; do
    hyperfine -N --style none --warmup 2 --runs "$runs" --export-json "$work/h.json" "${commands[$i]}" >/dev/null
    wall=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][0]; print("%.1f ± %.1f" % (r["mean"]*1000, r["stddev"]*1000))' "$work/h.json")
    echo "| $name.pdf | $pages | $size | ${labels[$i]} | $wall | $(peak_rss_mb "${commands[$i]}") |"
  done
done

echo
echo "## Corpus: $corpus_size stamped PDFs, one pith-check process, offline"
echo
mkdir "$work/corpus"
for ((i = 0; i < corpus_size; i++)); do
  cp "${stamped[$((i % ${#stamped[@]}))]}" "$work/corpus/$i.pdf"
done
bytes=$(du -sh --apparent-size "$work/corpus" | cut -f1)
start=$(date +%s.%N)
rc=0
"$check" --offline --json "$work"/corpus/*.pdf >"$work/out.jsonl" 2>/dev/null || rc=$?
end=$(date +%s.%N)
verified=$(grep -c '"verdict":"verified"' "$work/out.jsonl" || true)
python3 - "$start" "$end" "$corpus_size" "$verified" "$bytes" "$rc" <<'EOF'
import sys
start, end, n, ok, size, rc = float(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], sys.argv[6]
t = end - start
print(f"{n} files ({size}, 13 producers, 1–1,200 pages): {t:.2f} s, {n / t:.0f} files/s, "
      f"{ok} verified, exit {rc}")
EOF
echo
echo "(pith-check has no -j yet: one worker; each PDF is checked in a forked child with limits.)"
