# SPDX-License-Identifier: GPL-3.0-or-later
# The one header of the bench scripts, as tests/support/scratch_env.sh (which
# it sources) is the shell tests'. Every bench/*.sh that times a build
# sources it right after `set -euo pipefail`, naming the build:
#   source "$(dirname "$0")/bench_env.sh" "${1:?usage: NAME.sh BUILD_DIR ...}"
# and then has what scratch_env.sh gives ($work removed at exit, at_exit and
# kill_at_exit; $src, $data; $bin, $check, $stamp, $signer, $test_server;
# the fixture record $number and $bundle; start_test_server; the offline
# environment that gives the same bytes every run), with $bin the build's
# tools, and
# - $build (BUILD_DIR, absolute), $here (bench/) and $key (the key
#   pith-test-sign signs with, tests/data/test-signing-key.json);
# - need_commands TOOL...: stops (exit 2) naming the first one not installed;
# - need_built FILE...: stops (exit 2) naming the first one not built;
# - lipsum_pdf NAME PAGES [PREAMBLE]: $work/NAME.pdf, PAGES pages of lipsum
#   by pdflatex (PREAMBLE before \usepackage{lipsum});
# - stamped_corpus ZOO COUNT: COUNT PDFs of the zoo ZOO (cycled), each
#   stamped with its own bundle signed by pith-test-sign (COUNT distinct
#   numbers), into $work/corpus; their paths, one a line, in $work/list.
build=$(cd "${1:?usage: $(basename "$0") BUILD_DIR ...}" && pwd)
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export PITH_BIN="$build/tools"
source "$here/../tests/support/scratch_env.sh"
key="$data/test-signing-key.json"
bench_name=$(basename "$0" .sh)

need_commands() {
  local tool
  for tool in "$@"; do
    command -v "$tool" >/dev/null || { echo "$bench_name: $tool is missing" >&2; exit 2; }
  done
}

need_built() {
  local exe
  for exe in "$@"; do
    [[ -x $exe ]] || { echo "$bench_name: $exe is not built" >&2; exit 2; }
  done
}

lipsum_pdf() {
  local name=$1 pages=$2 preamble=${3:-}
  cat >"$work/$name.tex" <<EOF
\\documentclass{article}
$preamble
\\usepackage{lipsum}
\\usepackage{hyperref}
\\begin{document}
\\newcount\\n \\n=0
\\loop \\section{Part \\the\\n} \\lipsum[1-4] \\newpage \\advance\\n by 1 \\ifnum\\n<$pages \\repeat
\\end{document}
EOF
  (cd "$work" && pdflatex -interaction=batchmode "$name.tex" >/dev/null 2>&1)
  [[ -s $work/$name.pdf ]] || { echo "$bench_name: could not make $name.pdf" >&2; exit 2; }
}

stamped_corpus() {
  local zoo=$1 count=$2 i file pages title features name arxiv number
  local -a rows
  mapfile -t rows < <(tail -n +2 "$zoo/zoo.tsv")
  mkdir -p "$work/corpus" "$work/bundles"
  : >"$work/list"
  for ((i = 0; i < count; i++)); do
    IFS=$'\t' read -r file pages title features <<<"${rows[$((i % ${#rows[@]}))]}"
    name=$(printf 'p%03d-%s' "$i" "$file")
    arxiv=$(printf '2405.%05d' "$i")
    "$signer" --title "$title" --arxiv "$arxiv" >"$work/bundles/$i.json"
    number=$("$signer" --title "$title" --arxiv "$arxiv" --output number)
    "$stamp" --offline --trust-key "$key" --pith "$number" --bundle "$work/bundles/$i.json" \
      -o "$work/corpus/$name" "$zoo/$file"
    echo "$work/corpus/$name" >>"$work/list"
  done
}
