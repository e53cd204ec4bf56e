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
for page in man1/pith-check.1 man1/pith-stamp.1 man7/pith.7; do
  f=$prefix/share/man/$page
  [[ -s $f ]] || { fail "$page not installed"; continue; }
  MANWIDTH=100 man -l "$f" >"$work/page" 2>"$work/err" || fail "man -l $page failed: $(cat "$work/err")"
  [[ -s $work/err ]] && fail "man -l $page warned: $(cat "$work/err")"
  for section in "EXIT STATUS" ENVIRONMENT FILES; do
    grep -q "^$section" "$work/page" || fail "$page lacks $section"
  done
done
MANWIDTH=100 man -l "$prefix/share/man/man1/pith-check.1" | grep -q -- "--offline" || fail "pith-check(1) lacks the options from --help"
MANWIDTH=100 man -l "$prefix/share/man/man1/pith-stamp.1" | grep -q "EXAMPLES" || fail "pith-stamp(1) lacks EXAMPLES"

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

exit $((failures > 0))
