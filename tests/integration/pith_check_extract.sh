#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# pith-check --extract DIR FILE.pdf (pdfdetach / c2patool --detailed, issue
# 33): the sample paper built with pith.sty, and a PDF stamped by pith-stamp,
# give DIR/pith-bundle.json byte for byte the bundle they were stamped with
# (verified again by pith-check and by tests/vectors/independent_check.py,
# written from the docs alone), DIR/pith-record.json (the XMP record, whose
# SHA-256 is the record's canonical_sha256) and DIR/metadata.xmp; the record
# is shown, never called verified. A PDF with no stamp is exit 3 and writes
# nothing; a file already in DIR is never replaced without --force. Offline.
set -euo pipefail

source "$(dirname "$0")/../support/scratch_env.sh"  # $work, $src, $bin, $data; offline, reproducible
need_tools pith-check pith-stamp
source "$(dirname "$0")/../support/cli_expect.sh"  # fail, expect_exit, expect_out, expect_err
use_zoo >/dev/null

sample_bundle="$src/samples/registry/$body.bundle.json"
canonical_sha256=$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["canonical_sha256"])' "$sample_bundle")
independent() { /usr/bin/python3 "$src/tests/vectors/independent_check.py" "$data/pith-signing-key.json" -- "$1"; }

# extracted_ok DIR PDF: the three parts, the bundle the one stamped, verified by both verifiers.
extracted_ok() {
  local dir=$1 pdf=$2
  expect_exit 0 --extract "$dir" "$pdf"
  for name in pith-bundle.json pith-record.json metadata.xmp; do
    [[ -s $dir/$name ]] || fail "--extract $pdf wrote no $name"
    expect_out "^wrote $dir/$name: "
  done
  cmp -s "$dir/pith-bundle.json" "$sample_bundle" || fail "$dir/pith-bundle.json is not the bundle $pdf was stamped with"
  [[ $(sha256sum <"$dir/pith-record.json" | cut -d' ' -f1) == "$canonical_sha256" ]] ||
    fail "$dir/pith-record.json is not the canonical record (its SHA-256 is not canonical_sha256)"
  grep -q '<x:xmpmeta' "$dir/metadata.xmp" && grep -q 'pith:canonicalRecord' "$dir/metadata.xmp" ||
    fail "$dir/metadata.xmp is not the XMP packet"
  expect_out '^the record as carried (not verified here: '
  expect_out '"title_canon_sha256": '
  grep -v 'not verified here' "$work/out" | grep -qw verified && fail "--extract printed a verdict"
  "$bin/pith-check" --offline "$dir/pith-bundle.json" >"$work/check.out" 2>&1 ||
    fail "pith-check rejects the extracted bundle: $(cat "$work/check.out")"
  head -1 "$work/check.out" | grep -q "verified $number" || fail "the extracted bundle is not verified: $(head -1 "$work/check.out")"
  [[ $(independent "$dir/pith-bundle.json") == "verified 0" ]] ||
    fail "the independent checker does not verify the extracted bundle: $(independent "$dir/pith-bundle.json")"
}

# --- the sample paper, built with pith.sty -----------------------------------
s="$work/sample"
mkdir -p "$s"
cp "$src/samples/paper.tex" "$s/"
"$bin/pith-stamp" --offline --bundle "$sample_bundle" "$s/paper.tex" >/dev/null 2>&1 || fail "pith-stamp paper.tex failed"
(cd "$s" && pdflatex -interaction=batchmode paper.tex >/dev/null) || fail "the sample did not build"
extracted_ok "$work/from-sample" "$s/paper.pdf"

# --- a PDF stamped by pith-stamp ---------------------------------------------
env -u PITH_RESOLVER "$bin/pith-stamp" --offline --pith "$number" --bundle "$sample_bundle" -o "$work/stamped.pdf" "$zoo/paper.pdf" >/dev/null
cp "$work/stamped.pdf" "$work/stamped.before"
extracted_ok "$work/from-stamped" "$work/stamped.pdf"
cmp -s "$work/stamped.pdf" "$work/stamped.before" || fail "--extract changed the PDF"

# --- never replaced without --force --------------------------------------------
echo "mine" >"$work/from-stamped/pith-record.json"
expect_exit 2 --extract "$work/from-stamped" "$work/stamped.pdf"
expect_err "^pith-check: $work/from-stamped/pith-bundle.json: already exists: nothing extracted (--force replaces it)$"
[[ $(cat "$work/from-stamped/pith-record.json") == mine ]] || fail "--extract replaced a file without --force"
expect_exit 0 --extract "$work/from-stamped" --force "$work/stamped.pdf"
[[ $(sha256sum <"$work/from-stamped/pith-record.json" | cut -d' ' -f1) == "$canonical_sha256" ]] || fail "--force did not replace the file"
ls -A "$work/from-stamped" | grep -q '^\.' && fail "--extract left a temporary file: $(ls -A "$work/from-stamped")"

# --- no stamp, not a PDF, not one input ------------------------------------------
expect_exit 3 --extract "$work/from-plain" "$zoo/paper.pdf"
expect_err "^pith-check: $zoo/paper.pdf: carries no Pith record to extract (no embedded pith-bundle.json, no XMP pith:canonicalRecord)"
[[ ! -e $work/from-plain ]] || fail "--extract of a PDF with no stamp created its directory"
expect_exit 2 --extract "$work/from-json" "$sample_bundle"
expect_err "not a PDF"
expect_exit 2 --extract "$work/from-two" "$work/stamped.pdf" "$zoo/paper.pdf"
expect_err "takes one PDF"
expect_exit 2 --force "$work/stamped.pdf"
expect_err "goes with --extract"

((failures == 0)) || exit 1
echo "pith_check_extract: ok"
