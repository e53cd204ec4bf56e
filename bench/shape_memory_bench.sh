#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 34's cost: the glyph check with the shape memory, against a build
# before the glyph check (BASE_BUILD_DIR), in the same run.
#
# A corpus of COUNT distinct papers (default 60): pdflatex, article class,
# one title each (words drawn in a fixed order from a fixed list), in three
# font setups cycled (Computer Modern Type 1, Latin Modern T1, Times by
# mathptmx), each stamped with its own bundle signed by pith-test-sign.
#   cold     pith-check -q -j 2 over the corpus with an empty memory (OCR
#            teaches it as it goes, in this one process and in its file)
#   warm     the same again: the memory knows the fonts
#   from memory alone  warm, with OCR impossible (TESSDATA_PREFIX naming no
#            model): the papers that verify were read without OCR
#   base     BASE_BUILD_DIR's pith-check over the same corpus (no glyph check)
# and one paper checked alone: cold (memory removed before each run), warm,
# base (hyperfine). Prints Markdown.
#   bench/shape_memory_bench.sh BUILD_DIR BASE_BUILD_DIR [COUNT]
set -euo pipefail
source "$(dirname "$0")/bench_env.sh" "${1:?usage: shape_memory_bench.sh BUILD_DIR BASE_BUILD_DIR [COUNT]}"
base_check="$(cd "${2:?usage: shape_memory_bench.sh BUILD_DIR BASE_BUILD_DIR [COUNT]}" && pwd)/tools/pith-check"
count=${3:-60}
need_commands pdflatex hyperfine
need_built "$check" "$stamp" "$signer" "$base_check"
memory="$XDG_CACHE_HOME/pith-shapes/memory"

words=(accurate adaptive algebraic analysis approach bounded causal coherent compact convex dense
  discrete dynamic efficient elastic entropy exact fast federated finite flexible fluid formal gradient
  graph hidden hybrid implicit inference kernel latent layered linear local lossless manifold markov
  modular neural optimal parallel partial quantum random robust scalable sparse spectral stable
  stochastic structured symbolic temporal uniform variational weighted)
fonts=('' '\usepackage[T1]{fontenc}\usepackage{lmodern}' '\usepackage{mathptmx}')
mkdir -p "$work/papers" "$work/corpus"
: >"$work/list"
for ((i = 0; i < count; i++)); do
  title=""
  for ((w = 0; w < 7; w++)); do title+="${title:+ }${words[$(((i * 7 + w * 13 + i / 3) % ${#words[@]}))]}"; done
  title="${title^}"
  d="$work/papers/$i" && mkdir -p "$d"
  printf '%s\n' '\documentclass{article}' "${fonts[$((i % 3))]}" "\\title{$title}" '\author{A. Author}' \
    '\date{1 March 2021}' '\begin{document}' '\maketitle' 'Text of the paper.' '\end{document}' >"$d/paper.tex"
  (cd "$d" && pdflatex -interaction=batchmode paper.tex >/dev/null)
  arxiv=$(printf '2405.%05d' "$i")
  "$signer" --title "$title" --arxiv "$arxiv" >"$d/bundle.json"
  number=$("$signer" --title "$title" --arxiv "$arxiv" --output number)
  "$stamp" --offline --trust-key "$key" --pith "$number" --bundle "$d/bundle.json" -o "$work/corpus/$i.pdf" "$d/paper.pdf"
  echo "$work/corpus/$i.pdf" >>"$work/list"
done

batch() {  # batch LABEL CHECK [ENV...]: wall, files/s, CPU per file (children included), verdicts
  local label=$1 tool=$2
  shift 2
  /usr/bin/python3 - "$label" "$count" "$work/list" "$tool" "$key" "$@" <<'PY'
import collections, json, os, resource, subprocess, sys, time
label, count, listing, tool, key = sys.argv[1:6]
env = dict(os.environ)
for assignment in sys.argv[6:]:
    k, v = assignment.split("=", 1)
    env[k] = v
before = resource.getrusage(resource.RUSAGE_CHILDREN)
start = time.monotonic()
out = subprocess.run([tool, "--offline", "--trust-key", key, "--json", "-j", "2", "--files-from", listing],
                     env=env, capture_output=True, text=True).stdout
wall = time.monotonic() - start
after = resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
verdicts = collections.Counter(json.loads(l)["verdict"] for l in out.splitlines() if l.strip())
n = int(count)
print(f"| {label} | {wall:.2f} | {n / wall:.0f} | {cpu * 1000 / n:.1f} | "
      + ", ".join(f"{c} {v}" for v, c in sorted(verdicts.items())) + " |")
PY
}

echo "## $count distinct stamped papers, pith-check --offline -j 2 (load before: $(cut -d' ' -f1-3 /proc/loadavg))"
echo
echo "| run | wall (s) | files/s | CPU per file (ms) | verdicts |"
echo "|---|---|---|---|---|"
rm -rf "$XDG_CACHE_HOME/pith-shapes"
batch "cold: empty memory" "$check"
batch "warm" "$check"
batch "from memory alone (no OCR model)" "$check" TESSDATA_PREFIX="$work/no-tessdata"
batch "base: no glyph check" "$base_check"
echo
echo "memory: $(wc -l <"$memory") glyph shapes, $(wc -c <"$memory") bytes"
echo
# On first sight, in order from an empty memory: which papers the memory
# read before OCR had seen them (each checked first with OCR impossible,
# then as usual, which teaches the memory).
rm -rf "$XDG_CACHE_HOME/pith-shapes"
first_sight=""
needed=0
for f in $(cat "$work/list"); do
  if TESSDATA_PREFIX="$work/no-tessdata" "$check" --offline --trust-key "$key" -q "$f" >/dev/null 2>&1; then
    first_sight+="."
  else
    first_sight+="O"
    needed=$((needed + 1))
  fi
  "$check" --offline --trust-key "$key" -q "$f" >/dev/null 2>&1 || true
done
echo "on first sight, in order (O: OCR needed, .: read from memory): $first_sight"
echo "OCR needed for $needed of $count papers"
echo
echo "## One paper alone ($(basename "$(head -1 "$work/list")"))"
echo
one=$(head -1 "$work/list")
hyperfine -N --style none --warmup 2 --runs 15 --export-markdown "$work/one.md" \
  --prepare "rm -f $memory" --prepare true --prepare true \
  -n "cold (memory removed each run)" "$check --offline --trust-key $key -q $one" \
  -n "warm" "$check --offline --trust-key $key -q $one" \
  -n "base: no glyph check" "$base_check --offline --trust-key $key -q $one" >/dev/null 2>&1
cat "$work/one.md"
for label in warm base; do
  tool=$check && [[ $label == base ]] && tool=$base_check
  echo "peak RSS, $label: $(/usr/bin/time -f %M "$tool" --offline --trust-key "$key" -q "$one" 2>&1 >/dev/null | tail -1) KB"
done
