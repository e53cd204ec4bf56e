#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The libraries a run loads only when it needs them (issue 32): libcurl when
# going online (resolver/curl_library), Tesseract for OCR
# (pdf/tesseract_library), libarchive for a tar (base/archive_library). None
# of them is a link-time dependency of a tool (readelf: no NEEDED entry, so
# a start does not load them and what they bring: libarchive's libxml2 and
# ICU, libcurl's TLS, Tesseract's Leptonica), a run that needs none of them
# loads none (the dynamic loader's own log, LD_DEBUG), a run with a tar
# does load libarchive (so the log is seen to name what it loads), and
# without libarchive says what to install.
set -euo pipefail

source "$(dirname "$0")/../support/scratch_env.sh"  # $work, $src, $bin, $data; offline, reproducible
need_tools pith-check pith-stamp pith-serve
source "$(dirname "$0")/../support/cli_expect.sh"  # fail, run
command -v readelf >/dev/null || { echo "FAIL: readelf (binutils) is needed" >&2; exit 1; }

on_demand='lib(archive|curl|tesseract|xml2|icuuc|icudata|lept)\.so'

# 1. No tool is linked with them.
for tool in pith-check pith-stamp pith-serve; do
  readelf -d "$bin/$tool" | grep -F '(NEEDED)' >"$work/needed" || fail "$tool: readelf -d shows no NEEDED entry"
  if grep -Eo "$on_demand[^]]*" "$work/needed" >"$work/linked"; then
    fail "$tool is linked with what it should load on demand: $(tr '\n' ' ' <"$work/linked")"
  fi
done

# loaded NAME CMD...: the shared objects CMD (and its children) loaded, one a
# line, in $work/NAME.loaded (LD_DEBUG=files logs each file it maps).
loaded() {
  local name=$1
  shift
  rm -f "$work/ld-$name".*
  LD_DEBUG=files LD_DEBUG_OUTPUT="$work/ld-$name" "$@" >"$work/out" 2>"$work/err" </dev/null || true
  cat "$work/ld-$name".* 2>/dev/null | sed -n 's/.*file=\([^ ;]*\).*/\1/p' | sort -u >"$work/$name.loaded"
  [[ -s $work/$name.loaded ]] || fail "$name: the loader logged nothing (LD_DEBUG unsupported?)"
}

# 2. Runs that need none of them load none of them.
printf 'plain text, not a PDF\n' >"$work/notes.txt"
loaded check-version "$bin/pith-check" --version
loaded stamp-version "$bin/pith-stamp" --version
loaded serve-version "$bin/pith-serve" --version
loaded check-file "$bin/pith-check" --offline "$work/notes.txt"
for name in check-version stamp-version serve-version check-file; do
  if grep -E "$on_demand" "$work/$name.loaded" >"$work/extra"; then
    fail "$name loaded what it does not need: $(tr '\n' ' ' <"$work/extra")"
  fi
done

# 3. A run with a tar loads libarchive (and the log shows it).
(cd "$work" && tar -cf corpus.tar notes.txt)
loaded check-tar "$bin/pith-check" --offline --tar "$work/corpus.tar"
grep -q 'libarchive\.so' "$work/check-tar.loaded" || fail "pith-check --tar did not load libarchive: $(tr '\n' ' ' <"$work/check-tar.loaded")"
cat "$work/out" "$work/err" | grep -q "corpus.tar:notes.txt" || fail "pith-check --tar did not read the member: $(cat "$work/out" "$work/err")"

# 4. Without libarchive (an empty file over it, in a mount namespace of this
# run's own: root only), --tar says what to install, and the rest still runs.
lib=$(ldconfig -p | awk '$1 == "libarchive.so.13" { print $NF; exit }')
if [[ -n $lib ]] && unshare -m true 2>/dev/null; then
  run 2 "pith-check --tar without libarchive" unshare -m sh -c \
    'mount --bind /dev/null "$1" && shift && exec "$@"' sh "$lib" "$bin/pith-check" --offline --tar "$work/corpus.tar"
  grep -q "^pith-check: --tar $work/corpus.tar: cannot load libarchive, which reading or writing a tar needs (.*): install it (Debian: apt install libarchive13) (skipped)\$" "$work/err" ||
    fail "pith-check --tar without libarchive: $(cat "$work/err")"
else
  echo "loaded_libraries: no mount namespace (not root?) or no libarchive.so.13 in ldconfig: the run without libarchive is not tried" >&2
fi

((failures == 0)) || exit 1
echo "loaded_libraries: ok"
