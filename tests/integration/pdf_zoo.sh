#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The PDF zoo (tests/support/pdf_zoo.sh) is what the stamp and check tests
# stand on: check that every file is a clean PDF with the structure, page
# count, title and features its manifest promises, and that a second run
# keeps the files as they are.
set -euo pipefail

source "$(dirname "$0")/../support/scratch_env.sh"  # $work, $src, $bin, $data; offline, reproducible
use_zoo
source "$src/tests/support/cli_expect.sh"  # fail MESSAGE, $failures

has_feature() { [[ ",$1," == *",$2,"* ]]; }
count_matches() { grep -acE -- "$1" "$2" || true; }

link_count() {
  qpdf --qdf --object-streams=disable "$1" - 2>/dev/null | grep -ac '/Subtype /Link' || true
}
embedded_count() {
  (pdfdetach -list "$1" 2>/dev/null || echo "0 embedded files") | sed -n '1s/^\([0-9]*\) embedded files.*/\1/p'
}

rows=0
while IFS=$'\t' read -r file pages title features; do
  [[ $file == file ]] && continue
  rows=$((rows + 1))
  pdf="$zoo/$file"
  [[ -s $pdf ]] || { fail "$file: missing"; continue; }

  # qpdf --check: exit 0 means no errors and no warnings (3 = warnings).
  qpdf --check "$pdf" >/dev/null 2>&1 || fail "$file: qpdf --check is not clean"

  got_pages=$(qpdf --show-npages "$pdf" 2>/dev/null || echo unreadable)
  [[ $got_pages == "$pages" ]] || fail "$file: $got_pages pages, expected $pages"

  got_title=$( (pdfinfo "$pdf" 2>/dev/null || true) | sed -n 's/^Title: *//p')
  [[ $got_title == "$title" ]] || fail "$file: Info title '$got_title', expected '$title'"

  xref_streams=$(count_matches '/Type ?/XRef' "$pdf")
  object_streams=$(count_matches '/Type ?/ObjStm' "$pdf")
  revisions=$(count_matches '^startxref' "$pdf")
  if has_feature "$features" classic; then
    ((xref_streams == 0 && object_streams == 0)) || fail "$file: expected classic tables only"
  fi
  if has_feature "$features" xrefstream; then
    ((xref_streams > 0)) || fail "$file: expected a cross-reference stream"
  fi
  if has_feature "$features" objstm; then
    ((object_streams > 0)) || fail "$file: expected object streams"
  else
    ((object_streams == 0)) || fail "$file: unexpected object streams"
  fi
  linearization=$(qpdf --check-linearization "$pdf" 2>&1 || true)
  if has_feature "$features" linearized; then
    [[ $linearization == *"no linearization errors"* ]] || fail "$file: expected linearized: $linearization"
  else
    [[ $linearization == *"not linearized"* ]] || fail "$file: unexpectedly linearized"
  fi
  if has_feature "$features" incremental; then
    ((revisions >= 2)) || fail "$file: expected an incremental update, found $revisions revision(s)"
  else
    ((revisions == 1)) || fail "$file: expected one revision, found $revisions"
  fi
  if has_feature "$features" xmp; then
    # dc:title may be x-default or a single language (hyperxmp with pdflang).
    xmp_title=$(exiftool -s3 -XMP-dc:Title -XMP-dc:Title-en "$pdf" | sed -n 1p)
    [[ $xmp_title == "$title" ]] || fail "$file: XMP dc:title '$xmp_title', expected '$title'"
    [[ -n $(exiftool -s3 -XMP-dc:Creator "$pdf") ]] || fail "$file: XMP dc:creator missing"
  fi
  attachments=$(embedded_count "$pdf")
  if has_feature "$features" attachment; then
    ((${attachments:-0} >= 1)) || fail "$file: expected an embedded file"
  else
    ((${attachments:-0} == 0)) || fail "$file: unexpected embedded files ($attachments)"
  fi
  if has_feature "$features" links; then
    (($(link_count "$pdf") >= 1)) || fail "$file: expected link annotations"
  fi
done <"$zoo/zoo.tsv"

((rows >= 14)) || fail "zoo.tsv lists $rows files, expected at least 14"

# The large file really is large (the point of it is the object count).
(($(qpdf --show-npages "$zoo/large.pdf") >= 1000)) || fail "large.pdf has fewer than 1,000 pages"

# Idempotent: a second run keeps every file byte for byte.
before=$(cd "$zoo" && sha256sum ./*.pdf)
use_zoo
after=$(cd "$zoo" && sha256sum ./*.pdf)
[[ $before == "$after" ]] || fail "a second run changed the zoo"

if ((failures > 0)); then
  echo "pdf_zoo: $failures failure(s)" >&2
  exit 1
fi
echo "pdf_zoo: $rows files checked"
