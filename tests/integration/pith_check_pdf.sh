#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# pith-check on real PDFs: every file of the zoo stamped by pith-stamp
# verifies offline; then the tampering cases of the check issue, each with its
# verdict and exit code: an edited embedded bundle, an edited XMP record, a
# different Info number only (conflict), bytes changed inside the stamped
# prefix, later edits by exiftool (a warning; a title edited later too), the
# stamp's own title edited, metadata copied into another paper (title
# mismatch), and a PDF with no pith data (exit 3). Also a PDF made with
# pith.sty (metadata compiled in by LaTeX): verified, byte binding unbound;
# and online, the registry's current bundle compared with the PDF's copy.
set -euo pipefail

source "$(dirname "$0")/../support/scratch_env.sh"  # $work, $src, $bin, $data; offline, reproducible
need_tools pith-check pith-stamp
use_zoo

source "$src/tests/support/cli_expect.sh"  # fail MESSAGE, $failures

# stamp IN OUT [OPTION...]
stamp() { "$bin/pith-stamp" --pith "$number" --bundle "$bundle" "${@:3}" -o "$2" "$1"; }

# check FILE EXPECTED_EXIT EXPECTED_VERDICT [CODE STATUS]...: runs
# pith-check "${check_args[@]}" --json (--offline unless a case says
# otherwise) and asserts the exit code, the verdict and that each named check
# is present with that status.
check_args=(--offline)
check() {
  local file=$1 want_exit=$2 want_verdict=$3
  shift 3
  local out rc=0
  out=$("$bin/pith-check" "${check_args[@]}" --json "$file" 2>"$work/stderr") || rc=$?
  [[ $rc == "$want_exit" ]] || fail "$(basename "$file"): exit $rc, expected $want_exit: $(cat "$work/stderr") $out"
  printf '%s' "$out" >"$work/last.json"
  local verdict
  verdict=$(json_query "$work/last.json" 'r["verdict"]' || echo "?")
  [[ $verdict == "$want_verdict" ]] || fail "$(basename "$file"): verdict $verdict, expected $want_verdict"
  while (($# >= 2)); do
    local code=$1 status=$2
    shift 2
    [[ $(json_query "$work/last.json" \
      "any(c['code'] == '$code' and c['status'] == '$status' for c in r['checks'])") == True ]] ||
      fail "$(basename "$file"): no check $code with status $status"
  done
}

# json_query FILE EXPR: evaluates a Python expression over the JSON report r.
json_query() {
  python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

# replace FILE OLD NEW [FROM]: same-length, in-place byte replacement of the
# first OLD at or after byte FROM (python: binary-safe).
replace() {
  python3 - "$@" <<'EOF'
import sys
path, old, new = sys.argv[1], sys.argv[2].encode(), sys.argv[3].encode()
start = int(sys.argv[4]) if len(sys.argv) > 4 else 0
assert len(old) == len(new), "replacement must keep the length"
data = bytearray(open(path, "rb").read())
at = data.find(old, start)
if at < 0:
    sys.exit(f"replace: {old!r} not found in {path}")
data[at:at + len(old)] = new
open(path, "wb").write(data)
EOF
}

# ---- round trip: every zoo file, stamped, verifies -----------------------
while IFS=$'\t' read -r file pages title features; do
  [[ $file == file ]] && continue
  name=${file%.pdf}
  force=()
  [[ $name == other-title ]] && force=(--force)  # another paper's title: refused without --force
  stamp "$zoo/$file" "$work/$name.pdf" "${force[@]}" || { fail "$file: pith-stamp failed"; continue; }
  if [[ $name == other-title ]]; then
    # The bundle's record is another paper: title mismatch.
    check "$work/$name.pdf" 1 failed pdf.title.mismatch fail
  else
    check "$work/$name.pdf" 0 verified pdf.number.found pass pdf.record.source pass \
      pdf.number.matches_record pass pdf.metadata.matches_record pass pdf.title.match pass \
      pdf.bytes.prefix_intact pass pdf.bytes.later_revisions pass bundle.signature.valid pass
    [[ $(json_query "$work/last.json" \
      "{'embedded_bundle', 'xmp_number', 'info_number'} <= {s['source'] for s in r['details']['pith_sources']}") == True ]] ||
      fail "$file: not every place was reported"
  fi
  # The original, never stamped: no number.
  check "$zoo/$file" 3 not_found
done <"$zoo/zoo.tsv"

paper="$work/paper.pdf"
original_length=$(stat -c %s "$zoo/paper.pdf")

# ---- tampering --------------------------------------------------------------
t="$work/t-bundle.pdf"
cp "$paper" "$t"
replace "$t" '"built_at":"2026-08-09' '"built_at":"2027-08-09' "$original_length"
check "$t" 1 failed bundle.hash.mismatch fail

t="$work/t-xmp-record.pdf"
cp "$paper" "$t"
replace "$t" '"cs.AI"' '"cs.XX"' "$(grep -abo '<pith:canonicalRecord>' "$t" | sed -n 1p | cut -d: -f1)"
check "$t" 1 failed pdf.metadata.matches_record fail

t="$work/t-info-number.pdf"
cp "$paper" "$t"
replace "$t" "/PithNumber ($number)" "/PithNumber (pith:2020:WXNI57C2SJ24QK62DB7DTUREA3)" "$original_length"
check "$t" 1 failed pdf.number.conflict fail
[[ $(json_query "$work/last.json" \
  "any('Info /PithNumber names pith:2020:WXNI57C2SJ24QK62DB7DTUREA3' in c['detail'] for c in r['checks'])") == True ]] ||
  fail "the conflict does not name the Info number"

t="$work/t-prefix.pdf"
cp "$paper" "$t"
offset=$(($(grep -abo 'stream' "$t" | sed -n '3p' | cut -d: -f1) + 40))
((offset < original_length)) || fail "test setup: offset $offset not in the prefix"
printf 'Z' | dd of="$t" bs=1 seek="$offset" conv=notrunc status=none
check "$t" 1 failed pdf.bytes.prefix_broken fail

t="$work/t-later-edit.pdf"
cp "$paper" "$t"
exiftool -q -overwrite_original -Keywords=edited "$t"
check "$t" 0 verified pdf.bytes.prefix_intact pass pdf.bytes.later_revisions warn pdf.title.match pass

t="$work/t-later-title.pdf"
cp "$paper" "$t"
exiftool -q -overwrite_original -Title=x "$t"
check "$t" 0 verified pdf.bytes.later_revisions warn pdf.title.changed_after_stamping warn

t="$work/t-stamp-title.pdf"
stamp "$zoo/hyperxmp.pdf" "$t"
# The stamp's own XMP says another title (same length): no later revision.
# Page 1 still shows the record's title: the metadata (a hint) is wrong, a
# warning; what a reader sees is the registered paper.
replace "$t" '>Layered gradient' '>Layered gradiens' "$(stat -c %s "$zoo/hyperxmp.pdf")"
check "$t" 0 verified pdf.title.mismatch warn pdf.title.visible_match pass

# Metadata copied from one paper into another (besides other-title stamped
# with this record, above): exiftool copies the stamped paper's whole XMP
# packet (record, receipt, number) into the other paper.
t="$work/t-copied.pdf"
cp "$zoo/other-title.pdf" "$t"
exiftool -q -overwrite_original -tagsFromFile "$paper" -xmp "$t"
[[ $(exiftool -s3 -XMP-pith:Number "$t") == *JFLL* ]] || fail "test setup: exiftool did not copy the pith XMP"
check "$t" 1 failed pdf.title.mismatch fail

# ---- a PDF made with pith.sty (the metadata compiled in, not stamped) -------
# pith-stamp paper.tex writes pith.sty with the record; pdflatex puts the
# number, record, receipt and bundle into the PDF itself. There is no
# "before", so byte binding is unbound; everything else verifies.
mkdir "$work/sty"
cp "$src/samples/paper.tex" "$work/sty/"
if (cd "$work/sty" && "$bin/pith-stamp" paper.tex --bundle "$bundle" &&
  pdflatex -interaction=batchmode -halt-on-error paper.tex >/dev/null 2>&1 &&
  pdflatex -interaction=batchmode -halt-on-error paper.tex >/dev/null 2>&1); then
  check "$work/sty/paper.pdf" 0 verified pdf.record.source pass pdf.number.matches_record pass \
    pdf.metadata.matches_record pass pdf.bytes.unbound skip
  [[ $(json_query "$work/last.json" "'link_annotation' in {s['source'] for s in r['details']['pith_sources']}") == True ]] ||
    fail "pith.sty PDF: the page-1 badge link was not reported"
else
  fail "pith.sty PDF: pith-stamp paper.tex or pdflatex failed"
fi

# ---- online: the registry's current bundle (a file:// mirror) ---------------
mirror="$work/mirror"
mkdir -p "$mirror/pith/JFLLIOJUI2M3KX3FLLGP4N2V65"
cp "$bundle" "$mirror/pith/JFLLIOJUI2M3KX3FLLGP4N2V65/bundle.json"
check_args=(--resolver "file://$mirror" --cache-dir "$work/cache")
check "$paper" 0 verified online.verified pass online.events.newer pass pdf.title.match pass
[[ $(json_query "$work/last.json" "r['details']['online']['event_count']") == 2 ]] ||
  fail "online: the current bundle's events were not counted"
# The registry unreachable (nothing listens on port 9 of loopback): a warning, not a failure.
check_args=(--resolver "http://127.0.0.1:9" --cache-dir "$work/cache-empty" --timeout 5)
check "$paper" 0 verified online.unavailable warn
check_args=(--offline)

if ((failures > 0)); then
  echo "pith_check_pdf: $failures failure(s)" >&2
  exit 1
fi
echo "pith_check_pdf: ok"
