#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The command line's edges, as a new user meets them (issue 14): one
# --version format for both tools, unknown options named, a file that is
# neither PDF nor JSON described by how it starts, a network failure that
# says what to do offline, and encrypted PDFs: checked when a viewer opens
# them without a password, else refused with the reason; never stamped.
set -euo pipefail

source "$(dirname "$0")/../support/scratch_env.sh"  # $work, $src, $bin, $data; offline, reproducible
need_tools pith-check pith-stamp

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

# 5. Encrypted PDFs. One any viewer opens (empty user password) is checked
# like its unencrypted rewrite: same verdict, same report codes. One with a
# user password: checking says it needs the password. pith-stamp modifies neither.
pdf=$(find /usr/share/doc -name '*.pdf' -size -200k -print -quit 2>/dev/null)
if [[ -n "$pdf" ]] && command -v qpdf >/dev/null; then
  bundle="$data/JFLLIOJUI2M3KX3FLLGP4N2V65.bundle.json"
  got=0
  "$stamp" --offline --force --bundle "$bundle" --pith pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65 -o "$work/stamped.pdf" "$pdf" \
    >"$work/out" 2>&1 || got=$?
  [[ $got == 0 ]] || fail "could not stamp $pdf for the encrypted cases: $(cat "$work/out")"
  qpdf "$work/stamped.pdf" "$work/rewritten.pdf"
  codes() { "$check" --offline --json "$1" | python3 -c 'import json,sys; r=json.load(sys.stdin); print(r.get("verdict"), sorted({c["code"] for c in r.get("checks", [])}))'; }
  qpdf --encrypt "" owner 256 -- "$work/stamped.pdf" "$work/enc.pdf"
  want_exit=0; "$check" --offline "$work/rewritten.pdf" >/dev/null 2>&1 || want_exit=$?
  expect_exit "$want_exit" --offline "$work/enc.pdf"
  expect_out "pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65"
  [[ $(codes "$work/enc.pdf") == "$(codes "$work/rewritten.pdf")" ]] ||
    fail "encrypted (AES-256, empty user password) is not checked like its rewrite: $(codes "$work/enc.pdf") vs $(codes "$work/rewritten.pdf")"
  # RC4 and AES-128 (R2-R4) derive keys with RC4, which OpenSSL 3 keeps in its
  # legacy provider (pith loads it): checked like the rewrite (issue 26).
  qpdf --allow-weak-crypto --encrypt "" owner 40 -- "$work/stamped.pdf" "$work/rc4.pdf"
  qpdf --allow-weak-crypto --encrypt "" owner 128 --use-aes=y -- "$work/stamped.pdf" "$work/aes128.pdf"
  for f in rc4 aes128; do
    [[ $(codes "$work/$f.pdf") == "$(codes "$work/rewritten.pdf")" ]] ||
      fail "$f.pdf is not checked like its rewrite: $(codes "$work/$f.pdf") vs $(codes "$work/rewritten.pdf")"
  done
  qpdf --encrypt "secret" owner 256 -- "$work/stamped.pdf" "$work/locked.pdf"
  expect_exit 2 --offline "$work/locked.pdf"
  expect_err "encrypted with a user password"
  expect_err "checking it needs the password"
  for f in enc locked; do
    before=$(sha256sum <"$work/$f.pdf")
    got=0
    "$stamp" --offline --bundle "$bundle" --pith pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65 "$work/$f.pdf" >"$work/out" 2>"$work/err" || got=$?
    [[ $got == 2 ]] || fail "pith-stamp on $f.pdf exited $got, expected 2"
    grep -q "encrypted" "$work/err" || fail "pith-stamp on $f.pdf: $(cat "$work/err")"
    [[ $(sha256sum <"$work/$f.pdf") == "$before" ]] || fail "pith-stamp changed the encrypted $f.pdf"
  done
else
  echo "skip: no PDF under /usr/share/doc or no qpdf for the encrypted cases"
fi

exit $((failures > 0))
