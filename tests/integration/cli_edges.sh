#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The command line's edges, as a new user meets them (issue 14): one
# --version format for both tools, unknown options named, a file that is
# neither PDF nor JSON described by how it starts, a network failure that
# says what to do offline, and an encrypted PDF refused with the reason.
set -euo pipefail

: "${PITH_BIN:?PITH_BIN must name the directory of the built tools}"
: "${PITH_TEST_DATA:?PITH_TEST_DATA must name tests/data}"
check="$PITH_BIN/pith-check"
stamp="$PITH_BIN/pith-stamp"
data="$PITH_TEST_DATA"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export XDG_CONFIG_HOME="$work/config" XDG_CACHE_HOME="$work/cache" NO_COLOR=1

source "$(dirname "$0")/../support/cli_expect.sh"  # fail, expect_exit, expect_out, expect_err

# 1. --version: "<tool> <version>", then the linked libraries' versions.
for tool in pith-check pith-stamp; do
  "$PITH_BIN/$tool" --version >"$work/out" 2>&1 || fail "$tool --version exited non-zero"
  grep -Eq "^$tool [0-9]+\.[0-9]+\.[0-9]+$" <(head -1 "$work/out") || fail "$tool --version line 1: $(head -1 "$work/out")"
  for lib in PoDoFo libcurl libsodium Exempi poppler; do
    grep -Eq "^libraries: .*$lib [0-9]+\.[0-9]+" "$work/out" || fail "$tool --version lacks $lib: $(cat "$work/out")"
  done
done

# 2. An unknown option is named, by both tools (pith-stamp used to say "file is required").
for tool in pith-check pith-stamp; do
  got=0
  "$PITH_BIN/$tool" --bogus >"$work/out" 2>"$work/err" </dev/null || got=$?
  [[ $got == 2 ]] || fail "$tool --bogus exited $got, expected 2"
  grep -q -- "--bogus" "$work/err" || fail "$tool --bogus: the option is not named: $(cat "$work/err")"
done
got=0
"$stamp" >"$work/out" 2>"$work/err" </dev/null || got=$?
[[ $got == 2 ]] || fail "pith-stamp without a file exited $got, expected 2"
grep -q "nothing to stamp" "$work/err" || fail "pith-stamp without a file: $(cat "$work/err")"

# 3. Neither PDF nor JSON: said so, with the first bytes shown (escaped), no parser jargon.
printf 'GIF89a\x1b[2J\x01rest of an image' >"$work/picture.gif"
expect_exit 2 "$work/picture.gif"
expect_err 'not a PDF or a registry document (starts with "GIF89a\\x1B\[2J\\x01'
grep -q "syntax error" "$work/err" && fail "parser jargon for a non-JSON file: $(cat "$work/err")"
: >"$work/empty"
expect_exit 2 "$work/empty"
expect_err "empty: not a PDF or a registry document"

# 4. A number the registry cannot be reached for: the message names the ways out.
expect_exit 2 --resolver http://127.0.0.1:9 --timeout 5 pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65
expect_err "--offline"
expect_err "--mirror"

# 5. Encrypted PDFs (a viewer opens this one: empty user password): checking
# says it needs the decrypted file; pith-stamp leaves the file untouched.
pdf=$(find /usr/share/doc -name '*.pdf' -size -200k -print -quit 2>/dev/null)
if [[ -n "$pdf" ]] && command -v qpdf >/dev/null; then
  qpdf --encrypt "" owner 256 -- "$pdf" "$work/enc.pdf"
  expect_exit 2 --offline "$work/enc.pdf"
  expect_err "encrypted"
  expect_err "checking one needs it decrypted"
  before=$(sha256sum <"$work/enc.pdf")
  got=0
  "$stamp" --offline --bundle "$data/JFLLIOJUI2M3KX3FLLGP4N2V65.bundle.json" \
    --pith pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65 "$work/enc.pdf" >"$work/out" 2>"$work/err" || got=$?
  [[ $got == 2 ]] || fail "pith-stamp on an encrypted PDF exited $got, expected 2"
  [[ $(sha256sum <"$work/enc.pdf") == "$before" ]] || fail "pith-stamp changed an encrypted PDF"
else
  echo "skip: no PDF under /usr/share/doc or no qpdf for the encrypted case"
fi

exit $((failures > 0))
