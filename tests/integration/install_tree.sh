#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# cmake --install into a temporary prefix, then use what was installed as a
# user and a downstream developer would: the man pages render, the bash
# completion completes `pith-check --of` to --offline, the zsh one exists,
# and tests/consumer builds against find_package(pith) and verifies the
# sample bundle. Needs PITH_BUILD_DIR (set by tests/CMakeLists.txt).
set -euo pipefail
: "${PITH_BUILD_DIR:?PITH_BUILD_DIR must name the build tree}"
: "${PITH_SOURCE_DIR:?PITH_SOURCE_DIR must name the source tree}"
: "${PITH_TEST_DATA:?PITH_TEST_DATA must name tests/data}"
source "$(dirname "$0")/../support/scratch_env.sh"  # $work, $src, $bin, $data; offline, reproducible
source "$(dirname "$0")/../support/cli_expect.sh"  # fail
prefix=$work/prefix

cmake --install "$PITH_BUILD_DIR" --prefix "$prefix" >"$work/install.log" || { cat "$work/install.log"; exit 1; }

# Man pages: each renders, with the sections written by hand and those from --help.
for page in man1/pith-check.1 man1/pith-stamp.1 man1/pith-serve.1 man7/pith.7; do
  f=$prefix/share/man/$page
  [[ -s $f ]] || { fail "$page not installed"; continue; }
  MANWIDTH=100 man -l "$f" >"$work/page" 2>"$work/err" || fail "man -l $page failed: $(cat "$work/err")"
  [[ -s $work/err ]] && fail "man -l $page warned: $(cat "$work/err")"
  for section in "EXIT STATUS" ENVIRONMENT FILES; do
    grep -q "^$section" "$work/page" || fail "$page lacks $section"
  done
done
MANWIDTH=100 man -l "$prefix/share/man/man1/pith-check.1" | grep -q -- "--offline" || fail "pith-check(1) lacks the options from --help"
# pith-corpus-merge(1), an installed script's page (lintian: no-manual-page): SYNOPSIS and options from its --help.
merge_page=$prefix/share/man/man1/pith-corpus-merge.1
if [[ -s $merge_page ]]; then
  MANWIDTH=100 man -l "$merge_page" >"$work/page" 2>"$work/err" || fail "man -l pith-corpus-merge.1 failed: $(cat "$work/err")"
  [[ -s $work/err ]] && fail "man -l pith-corpus-merge.1 warned: $(cat "$work/err")"
  for want in "^SYNOPSIS" "pith-corpus-merge \[-h\] \[--summary FILE\] SHARD.jsonl" "^EXIT STATUS" "^EXAMPLES" "--summary FILE"; do
    grep -q -- "$want" "$work/page" || fail "pith-corpus-merge(1) lacks '$want'"
  done
else
  fail "man1/pith-corpus-merge.1 not installed"
fi
MANWIDTH=100 man -l "$prefix/share/man/man1/pith-stamp.1" | grep -q "EXAMPLES" || fail "pith-stamp(1) lacks EXAMPLES"
# paragraph PAGE TEXT: the paragraph of the rendered PAGE that holds TEXT, on one line.
paragraph() {
  MANWIDTH=100 man -l "$prefix/share/man/$1" | /usr/bin/python3 -c 'import re, sys
for p in re.split(r"\n\s*\n", sys.stdin.read()):
    p = " ".join(p.split())
    if sys.argv[1] in p: print(p); break' "$2"
}
# The verdict table of --help: each code's lines one paragraph, not one per line.
[[ $(paragraph man1/pith-check.1 "the record verifies with a trusted key") == *"ties it to that record"* ]] ||
  fail "pith-check(1): the exit-code table falls apart: $(paragraph man1/pith-check.1 "the record verifies with")"
[[ $(paragraph man1/pith-check.1 "names are separated by NUL") == "-0,--null the --files-from"* ]] ||
  fail "pith-check(1): -0,--null is not an option with its description"
# --version's libraries line is not part of DESCRIPTION.
! MANWIDTH=100 man -l "$prefix/share/man/man1/pith-check.1" | grep -q "libraries: PoDoFo" ||
  fail "pith-check(1): the --version output landed in the page"
# FILES names the installed latexmk rc under the configured prefix, not /usr/share.
configured=$(sed -n 's/^CMAKE_INSTALL_PREFIX:PATH=//p' "$PITH_BUILD_DIR/CMakeCache.txt")
[[ $(paragraph man1/pith-stamp.1 "latexmk rules that run") == "$configured/share/pith/latexmkrc "* ]] ||
  fail "pith-stamp(1) FILES: the latexmk rc is not under $configured: $(paragraph man1/pith-stamp.1 "latexmk rules")"
paragraph man7/pith.7 "pith-serve(1) runs the same checks" | grep -q "/api/v1/check" || fail "pith(7) does not mention pith-serve"

# texdoc pith: the manual of pith.sty, found in the installed TEXMF tree as TeX finds pith.sty there.
manual=$prefix/share/texmf/doc/latex/pith/pith.pdf
[[ -s $manual ]] || fail "pith.sty's manual is not installed at $manual"
if command -v texdoc >/dev/null; then
  listed=$(TEXMFHOME=$prefix/share/texmf texdoc -l -I pith 2>&1 | awk '{print $2}' | head -n1)
  [[ $listed == "$manual" ]] || fail "texdoc -l pith (TEXMFHOME=$prefix/share/texmf) lists '$listed', not the installed manual"
  [[ $(TEXMFHOME=$prefix/share/texmf kpsewhich pith.sty) == "$prefix/share/texmf/tex/latex/pith/pith.sty" ]] ||
    fail "kpsewhich does not find the installed pith.sty beside its manual"
fi
if command -v pdftotext >/dev/null; then
  pdftotext "$manual" - | grep -q 'pithnumber' || fail "pith.sty's manual does not document \\pithnumber"
fi

# What the docs use is installed: the corpus merge script, the README's picture.
[[ -x $prefix/bin/pith-corpus-merge ]] || fail "pith-corpus-merge is not installed"
printf '%s\n' '{"file":"a.pdf","verdict":"verified","checks":[]}' '{"file":"a.pdf","verdict":"verified","checks":[]}' >"$work/shard.jsonl"
[[ $("$prefix/bin/pith-corpus-merge" "$work/shard.jsonl" 2>/dev/null | wc -l) == 1 ]] || fail "the installed pith-corpus-merge does not merge"
grep -q '(docs/img/pith-serve.png)' "$prefix/share/doc/pith/README.md" || fail "the installed README no longer shows docs/img/pith-serve.png"
[[ -s $prefix/share/doc/pith/docs/img/pith-serve.png ]] || fail "docs/img/pith-serve.png (the installed README's picture) is not installed"

# bash: the installed completion, loaded as bash-completion would, completes options and choices.
completion=$prefix/share/bash-completion/completions/pith-check
bash -c 'source "$1" && complete -p pith-check >/dev/null &&
  COMP_WORDS=(pith-check --of) COMP_CWORD=1 && _pith_check && echo "${COMPREPLY[*]}"' _ "$completion" >"$work/out" 2>&1 ||
  fail "the bash completion did not load: $(cat "$work/out")"
[[ $(cat "$work/out") == --offline ]] || fail "pith-check --of completed to '$(cat "$work/out")', not --offline"
bash -c 'source "$1" && COMP_WORDS=(pith-stamp --compiler x) COMP_CWORD=2 && COMP_WORDS[2]=lua && _pith_stamp && echo "${COMPREPLY[*]}"' \
  _ "$prefix/share/bash-completion/completions/pith-stamp" >"$work/out" 2>&1
[[ $(cat "$work/out") == lualatex ]] || fail "pith-stamp --compiler lua completed to '$(cat "$work/out")'"
zsh_file=$prefix/share/zsh/vendor-completions/_pith-check
grep -q "^#compdef pith-check" "$zsh_file" && grep -q -- "--offline\[" "$zsh_file" || fail "zsh completion of pith-check incomplete"
if command -v zsh >/dev/null; then zsh -n "$zsh_file" || fail "zsh completion does not parse"; fi

# A downstream CMake project: find_package(pith), pith::pith, nothing else.
cmake -S "$PITH_SOURCE_DIR/tests/consumer" -B "$work/consumer" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_BUILD_TYPE=Release >"$work/consumer.log" 2>&1 || { cat "$work/consumer.log"; fail "the consumer does not configure"; exit 1; }
cmake --build "$work/consumer" >>"$work/consumer.log" 2>&1 || { cat "$work/consumer.log"; fail "the consumer does not build"; exit 1; }
"$work/consumer/verify-bundle" "$PITH_TEST_DATA/JFLLIOJUI2M3KX3FLLGP4N2V65.bundle.json" >"$work/out" ||
  fail "the consumer did not verify the sample bundle"
grep -q "verified pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65" "$work/out" || fail "consumer said: $(cat "$work/out")"

# A build without CMake: pkg-config --cflags --libs pith, from the installed pith.pc alone.
pc_dir=$(dirname "$(find "$prefix" -name pith.pc -path '*/pkgconfig/*' | head -n1)")
[[ -f $pc_dir/pith.pc ]] || fail "pith.pc is not installed"
grep -qx "prefix=$prefix" "$pc_dir/pith.pc" || fail "pith.pc does not name the prefix installed into: $(grep '^prefix=' "$pc_dir/pith.pc")"
if flags=$(PKG_CONFIG_PATH=$pc_dir pkg-config --cflags --libs pith 2>"$work/pc.err"); then
  # shellcheck disable=SC2086  # the flags are words
  c++ -o "$work/verify-bundle-pc" "$PITH_SOURCE_DIR/tests/consumer/verify_bundle.cpp" $flags 2>"$work/pc.err" ||
    fail "the consumer does not build with pkg-config's flags ($flags): $(head -c 2000 "$work/pc.err")"
  [[ $("$work/verify-bundle-pc" "$PITH_TEST_DATA/JFLLIOJUI2M3KX3FLLGP4N2V65.bundle.json") == "verified pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65" ]] ||
    fail "the pkg-config consumer did not verify the sample bundle"
else
  fail "pkg-config --cflags --libs pith failed: $(cat "$work/pc.err")"
fi

exit $((failures > 0))
