#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 22, item 5 and issue 31, item 1: rewrites and edits you can tell
# apart. pith-stamp records a fingerprint of every page's text (XMP
# pith:pageTextSha256); after a full rewrite pith-check says "rewritten, text
# unchanged" (qpdf --linearize, AES-256 with an empty password, arXiv's
# watermark, a badged stamp: verified, exit 0) or "text changed on pages …"
# (a word replaced on page 3, on pages 3 and 7, a page removed, the issue's
# qpdf --qdf + fix-qdf edit, an edit appended by an incremental update): the
# verdict `altered`, exit 5, on the headline, in the JSON and in the batch
# HTML; a stamp without a fingerprint says nothing new.
set -euo pipefail

source "$(dirname "$0")/../support/scratch_env.sh"  # $work, $src, $bin, $data; offline, reproducible
need_tools pith-check pith-stamp
py=/usr/bin/python3  # Debian's python3-pikepdf
source "$src/tests/support/cli_expect.sh"  # fail MESSAGE, $failures

use_zoo >/dev/null
stamp() { "$bin/pith-stamp" --offline --bundle "$data/${number##*:}.bundle.json" --pith "$number" "$@"; }

# check FILE EXIT VERDICT [CODE STATUS]...: pith-check --offline --json.
check() {
  local file=$1 want_exit=$2 want_verdict=$3 rc=0
  shift 3
  "$bin/pith-check" --offline --json "$file" >"$work/last.json" 2>"$work/stderr" || rc=$?
  [[ $rc == "$want_exit" ]] || fail "$(basename "$file"): exit $rc, expected $want_exit: $(cat "$work/stderr")"
  [[ $(q 'r["verdict"]') == "$want_verdict" ]] || fail "$(basename "$file"): verdict $(q 'r["verdict"]'), expected $want_verdict"
  while (($# >= 2)); do
    [[ $(q "any(c['code'] == '$1' and c['status'] == '$2' for c in r['checks'])") == True ]] ||
      fail "$(basename "$file"): no $1 ($2): $(q "[(c['code'], c['status']) for c in r['checks'] if c['code'].startswith('pdf.bytes')]")"
    shift 2
  done
}
q() { $py -c 'import json, sys; r = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$work/last.json" "$1"; }
detail() { q "[c['detail'] for c in r['checks'] if c['code'] == '$1'][0]"; }
no_text_finding() { [[ $(q "[c['code'] for c in r['checks'] if c['code'].startswith('pdf.bytes.rewritten_text')]") == "[]" ]] || fail "$1: a rewritten_text finding"; }

# edit IN OUT PAGE...: a word replaced in each page's content stream, saved by pikepdf (a full rewrite).
edit() {
  $py - "$@" <<'PY'
import sys, pikepdf
src, dst, pages = sys.argv[1], sys.argv[2], [int(p) for p in sys.argv[3:]]
with pikepdf.open(src) as pdf:
    for n in pages:
        page = pdf.pages[n - 1]
        data = page.Contents.read_bytes()
        at = data.find(b"(e")
        assert at >= 0, f"no word to edit on page {n}"
        page.Contents.write(data[:at + 1] + b"X" + data[at + 2:])
    pdf.save(dst)
PY
}

# ---- the stamp records one hash per page --------------------------------------------
stamp -o "$work/s.pdf" "$zoo/paper.pdf" || fail "pith-stamp failed"
value=$(exiftool -s3 -XMP-pith:PageTextSha256 "$work/s.pdf")
[[ $value =~ ^pith-text-1\ 10(\ [0-9a-f]{64}){10}$ ]] || fail "XMP pith:pageTextSha256: '$value'"
check "$work/s.pdf" 0 verified pdf.bytes.prefix_intact pass
no_text_finding "the stamped file"

# ---- re-saves: text unchanged ----------------------------------------------------------
qpdf --linearize "$work/s.pdf" "$work/linearized.pdf"
check "$work/linearized.pdf" 0 verified pdf.bytes.rewritten warn pdf.bytes.rewritten_text_unchanged pass pdf.title.match pass
[[ $(detail pdf.bytes.rewritten_text_unchanged) == *"all 10 pages"*unsigned* ]] || fail "unchanged: $(detail pdf.bytes.rewritten_text_unchanged)"
# A classic cross-reference table, linearized: two `%%EOF`s, one revision (not "bytes inserted").
stamp -o "$work/classic.pdf" "$zoo/classic.pdf" || fail "pith-stamp classic.pdf failed"
qpdf --linearize "$work/classic.pdf" "$work/classic-linearized.pdf"
check "$work/classic-linearized.pdf" 0 verified pdf.bytes.rewritten warn pdf.bytes.rewritten_text_unchanged pass
qpdf --encrypt "" owner 256 -- "$work/s.pdf" "$work/aes.pdf"
check "$work/aes.pdf" 0 verified pdf.bytes.rewritten_text_unchanged pass
stamp --badge -o "$work/badged.pdf" "$zoo/paper.pdf" || fail "pith-stamp --badge failed"
qpdf --linearize "$work/badged.pdf" "$work/badged-linearized.pdf"
check "$work/badged-linearized.pdf" 0 verified pdf.bytes.rewritten_text_unchanged pass
# arXiv's watermark down page 1's margin, saved by pikepdf.
$py - "$work/s.pdf" "$work/arxiv.pdf" <<'PY'
import sys, pikepdf
from pikepdf import Name, Dictionary
with pikepdf.open(sys.argv[1]) as pdf:
    page = pdf.pages[0]
    page.obj.Resources.Font[Name.FArXiv] = Dictionary(Type=Name.Font, Subtype=Name.Type1, BaseFont=Name.Times_Roman)
    mark = b"q 0.5 g BT /FArXiv 20 Tf 0 1 -1 0 32 240 Tm (arXiv:2106.02679v1  [cs.LG]  4 Jun 2021) Tj ET Q"
    page.contents_add(pikepdf.Stream(pdf, mark), prepend=False)
    pdf.save(sys.argv[2], compress_streams=True)
PY
check "$work/arxiv.pdf" 0 verified pdf.bytes.rewritten_text_unchanged pass pdf.arxiv.match pass
[[ $(detail pdf.bytes.rewritten_text_unchanged) == *"arXiv-style watermark"* ]] || fail "the watermark is not named"

# ---- edits: text changed, on the pages named ----------------------------------------
edit "$work/s.pdf" "$work/page3.pdf" 3
check "$work/page3.pdf" 5 altered pdf.bytes.rewritten warn pdf.bytes.rewritten_text_changed warn pdf.title.match pass
[[ $(detail pdf.bytes.rewritten_text_changed) == "text changed on page 3 since stamping, rewritten "* ]] ||
  fail "page 3: $(detail pdf.bytes.rewritten_text_changed)"
[[ $(q 'r["details"]["page_text"]["changed_pages"]') == "[3]" ]] || fail "page 3: details.page_text"
[[ $(q 'r["warnings"]') == "['pdf.bytes.rewritten', 'pdf.bytes.rewritten_text_changed']" ]] || fail "page 3: warnings $(q 'r["warnings"]')"
edit "$work/s.pdf" "$work/pages37.pdf" 3 7
check "$work/pages37.pdf" 5 altered pdf.bytes.rewritten_text_changed warn
[[ $(detail pdf.bytes.rewritten_text_changed) == *"text changed on pages 3, 7"* ]] || fail "pages 3, 7: $(detail pdf.bytes.rewritten_text_changed)"
qpdf "$work/s.pdf" --pages . 1-9 -- "$work/nine.pdf"
check "$work/nine.pdf" 5 altered pdf.bytes.rewritten_text_changed warn
[[ $(detail pdf.bytes.rewritten_text_changed) == *"had 10 pages, this file has 9"* ]] || fail "a page removed: $(detail pdf.bytes.rewritten_text_changed)"

# The issue's own edit: qpdf --qdf, one word changed on page 3 in the
# uncompressed content, fix-qdf. The headline says altered and where.
qpdf --qdf --object-streams=disable "$work/s.pdf" "$work/qdf.pdf"
$py - "$work/qdf.pdf" <<'PY'
import re, sys
path = sys.argv[1]
data = open(path, 'rb').read()
pages = [m.start() for m in re.finditer(rb'%% Contents for page \d+', data)]
assert len(pages) >= 3, 'qpdf --qdf wrote no page comments'
at = data.find(b'(e', pages[2])
assert at > 0, 'no word to edit on page 3'
open(path, 'wb').write(data[:at + 1] + b'X' + data[at + 2:])
PY
fix-qdf "$work/qdf.pdf" >"$work/qdf-fixed.pdf"
check "$work/qdf-fixed.pdf" 5 altered pdf.bytes.rewritten_text_changed warn
rc=0
"$bin/pith-check" --offline "$work/qdf-fixed.pdf" >"$work/qdf.txt" 2>&1 || rc=$?
((rc == 5)) || fail "qdf edit, text output: exit $rc"
head -1 "$work/qdf.txt" | grep -q '^✗ .*qdf-fixed.pdf: altered pith:20[0-9][0-9]:[A-Z0-9]* — text changed on page 3 since stamping' ||
  fail "qdf edit: the headline does not say altered and where: $(head -1 "$work/qdf.txt")"

# An edit appended as an incremental update (the stamped bytes intact): the
# same comparison, its own codes.
/usr/bin/python3 "$src/tests/support/forgeries.py" edit-page "$work/s.pdf" "$work/incremental.pdf" 3
check "$work/incremental.pdf" 5 altered pdf.bytes.prefix_intact pass pdf.bytes.later_revisions warn pdf.bytes.edited_text_changed warn
[[ $(detail pdf.bytes.edited_text_changed) == "text changed on page 3 since stamping, edited after stamping"* ]] ||
  fail "incremental edit: $(detail pdf.bytes.edited_text_changed)"
# pith-stamp does not call it "already stamped": refused, exit 1, saying why.
rc=0
stamp "$work/incremental.pdf" 2>"$work/stamp.err" || rc=$?
((rc == 1)) || fail "pith-stamp on an altered stamped PDF: exit $rc, expected 1"
grep -q "but pith-check says altered (pdf.bytes.edited_text_changed" "$work/stamp.err" ||
  fail "pith-stamp on an altered stamped PDF: $(cat "$work/stamp.err")"
# An incremental update that changes no page's text (exiftool's metadata
# edit) stays verified, its warnings on the headline.
cp "$work/s.pdf" "$work/keywords.pdf"
exiftool -q -overwrite_original -Keywords=edited "$work/keywords.pdf"
check "$work/keywords.pdf" 0 verified pdf.bytes.later_revisions warn pdf.bytes.edited_text_unchanged pass
"$bin/pith-check" --offline "$work/keywords.pdf" >"$work/keywords.txt" || fail "keywords edit: pith-check failed"
head -1 "$work/keywords.txt" | grep -q ': verified pith:[^ ]* — 1 warning: pdf.bytes.later_revisions$' ||
  fail "keywords edit: the headline does not name the warning: $(head -1 "$work/keywords.txt")"

# The batch's HTML lists the altered papers with what changed; the exit code of the batch is 5.
rc=0
"$bin/pith-check" --offline --quiet --html "$work/report.html" "$work/s.pdf" "$work/page3.pdf" "$work/linearized.pdf" || rc=$?
((rc == 5)) || fail "batch of one altered paper: exit $rc, expected 5"
grep -q 'page3.pdf' "$work/report.html" || fail "the HTML report does not list the altered paper"
grep -q 'data-verdict="altered"' "$work/report.html" || fail "the HTML report has no altered count"

# ---- a stamp without a fingerprint (an older pith-stamp): nothing new is said -----------
$py - "$work/s.pdf" "$work/old-rewritten.pdf" <<'PY'
import sys, pikepdf
with pikepdf.open(sys.argv[1]) as pdf:
    with pdf.open_metadata(set_pikepdf_as_editor=False, update_docinfo=False) as meta:
        del meta["{https://pith.science/ns/1.0/}pageTextSha256"]
    pdf.save(sys.argv[2])
PY
[[ -z $(exiftool -s3 -XMP-pith:PageTextSha256 "$work/old-rewritten.pdf") ]] || fail "pikepdf did not remove pith:pageTextSha256"
check "$work/old-rewritten.pdf" 0 verified pdf.bytes.rewritten warn
no_text_finding "a stamp without a fingerprint"

((failures == 0)) || { echo "$failures failure(s)" >&2; exit 1; }
echo "ok: full rewrites say whether the text changed, and on which pages"
