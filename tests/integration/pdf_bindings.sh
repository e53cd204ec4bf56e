#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Binding a record to the PDF a reader sees (issue 10): papers built here by
# every engine (pdflatex, xelatex, lualatex, latex+dvips+ps2pdf) with a title
# that spans lines and carries ligatures, math and accents — their visible
# title is found on page 1 and binds the record (verified, even with no
# title metadata). The same record transplanted into other PDFs (no title, a
# placeholder, an ASCII or a non-ASCII title of another paper, page 1
# replaced after stamping) is never verified. Full rewrites (qpdf, a pikepdf
# save adding arXiv's link) are pdf.bytes.rewritten warnings, not forgeries;
# a watermark naming another arXiv id fails.
set -euo pipefail

source "$(dirname "$0")/../support/scratch_env.sh"  # $work, $src, $bin, $data; offline, reproducible
need_tools pith-check pith-stamp
key="$data/test-signing-key.json"
py=/usr/bin/python3  # Debian's python3-pikepdf
source "$src/tests/support/cli_expect.sh"  # fail MESSAGE, $failures

title='Efficient fine-tuning of affine flows in O(n log n) time: Schrödinger bridges for naïve differential equations'
tex_title='Efficient fine-tuning of affine flows in $O(n\log n)$ time: Schr\"odinger bridges for na\"{\i}ve differential equations'
abstract='We study the official workflow of difficult problems.'
"$signer" --title "$title" --arxiv 2601.00001 --version 1 --abstract "$abstract" >"$work/bundle.json"
number=$("$signer" --title "$title" --arxiv 2601.00001 --version 1 --abstract "$abstract" --output number)

# paper DIR ENGINE TITLE [PREAMBLE [ABSTRACT]]: a two-page article built in DIR.
paper() {
  local dir=$1 engine=$2 t=$3 preamble=${4:-} abstract=${5:-$abstract}
  mkdir -p "$dir"
  cat >"$dir/paper.tex" <<TEX
\documentclass{article}
$( [[ $engine == pdflatex || $engine == latex ]] && echo '\usepackage[T1]{fontenc}\usepackage{lmodern}' )
$preamble
\title{$t}
\author{A. Author}
\begin{document}
\maketitle
\begin{abstract}
$abstract
\end{abstract}
\section{Introduction}
Text of the paper.
\newpage
Page two.
\end{document}
TEX
  (
    cd "$dir"
    if [[ $engine == latex ]]; then
      latex -interaction=batchmode paper.tex >/dev/null && dvips -q paper.dvi -o paper.ps && ps2pdf paper.ps paper.pdf
    else
      "$engine" -interaction=batchmode paper.tex >/dev/null
    fi
  ) || fail "$engine: the paper in $dir did not build"
}

check_args=(--offline --trust-key "$key")
# check FILE EXIT VERDICT [CODE STATUS]...
check() {
  local file=$1 want_exit=$2 want_verdict=$3
  shift 3
  local rc=0
  "$bin/pith-check" "${check_args[@]}" --json "$file" >"$work/last.json" 2>"$work/stderr" || rc=$?
  [[ $rc == "$want_exit" ]] || fail "$file: exit $rc, expected $want_exit: $(cat "$work/stderr")"
  local verdict
  verdict=$(json_query 'r["verdict"]' || echo "?")
  [[ $verdict == "$want_verdict" ]] || fail "$file: verdict $verdict, expected $want_verdict"
  while (($# >= 2)); do
    [[ $(json_query "any(c['code'] == '$1' and c['status'] == '$2' for c in r['checks'])") == True ]] ||
      fail "$file: no check $1 with status $2: $(json_query "[(c['code'], c['status']) for c in r['checks']]")"
    shift 2
  done
}
json_query() { $py -c 'import json, sys; r = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$work/last.json" "$1"; }
stamp() { "$bin/pith-stamp" --offline --trust-key "$key" --bundle "$work/bundle.json" --pith "$number" "$@"; }

# ---- every engine: the visible title binds the record ----------------------
hyperref='\usepackage{hyperref}\hypersetup{pdftitle={'"$title"'}}'
for engine in pdflatex xelatex lualatex latex; do
  pre=""
  [[ $engine == pdflatex ]] && pre=$hyperref  # one with title metadata, for the page-1 replacement below
  paper "$work/$engine" "$engine" "$tex_title" "$pre"
  stamp -o "$work/$engine.pdf" "$work/$engine/paper.pdf" || fail "$engine: pith-stamp failed"
  check "$work/$engine.pdf" 0 verified pdf.title.visible_match pass pdf.abstract.visible_match pass
  [[ $(json_query "r['details']['bindings']['visible_title']['state']") == match ]] || fail "$engine: bindings say no visible match"
  [[ $(json_query "r['schema_version']") == 3 ]] || fail "no schema_version 3"
done
"$bin/pith-check" "${check_args[@]}" "$work/xelatex.pdf" | grep -q '^  bindings (record to this PDF): visible title match' ||
  fail "the human report has no bindings line"

# ---- transplants: the record in another paper is never verified ------------
other_abstract='Another abstract, about something else.'
paper "$work/other" pdflatex 'A completely different paper' '' "$other_abstract"
stamp -o "$work/t-none.pdf" "$work/other/paper.pdf" 2>"$work/stderr"  # nothing to compare: a warning
grep -q 'warning: could not confirm' "$work/stderr" || fail "no warning when the title cannot be compared"
check "$work/t-none.pdf" 4 unbound pdf.title.visible_not_found warn
"$bin/pith-check" "${check_args[@]}" "$work/t-none.pdf" >"$work/human" || true
grep -q '^  unbound: the record is genuine' "$work/human" ||
  fail "the human report does not say what unbound means"

paper "$work/other-dvi" latex 'A completely different paper' '' "$other_abstract"  # Info /Title (paper.dvi)
stamp -o "$work/t-placeholder.pdf" "$work/other-dvi/paper.pdf"
check "$work/t-placeholder.pdf" 4 unbound pdf.title.undetermined warn

paper "$work/other-ascii" pdflatex 'A completely different paper' '\usepackage[pdfusetitle]{hyperref}' "$other_abstract"
# pith-stamp refuses it (exit 1, naming the paper's title), writes nothing; --force stamps.
rc=0
stamp -o "$work/t-ascii.pdf" "$work/other-ascii/paper.pdf" 2>"$work/stderr" || rc=$?
[[ $rc == 1 && ! -e $work/t-ascii.pdf ]] || fail "stamping another paper's PDF: exit $rc, expected 1 and nothing written"
grep -q '"A completely different paper" is not the record.s title.*arXiv:2601.00001v1.*has another title.*--force' "$work/stderr" ||
  fail "the refusal does not name both papers: $(cat "$work/stderr")"
stamp --force -o "$work/t-ascii.pdf" "$work/other-ascii/paper.pdf" 2>/dev/null || fail "--force did not stamp"
check "$work/t-ascii.pdf" 1 failed pdf.title.mismatch fail

paper "$work/other-utf" xelatex 'Über die Grenzen des Wachstums' '\usepackage[pdfusetitle]{hyperref}' "$other_abstract"
stamp --force -o "$work/t-utf.pdf" "$work/other-utf/paper.pdf" 2>/dev/null || true
[[ -f $work/t-utf.pdf ]] && check "$work/t-utf.pdf" 4 unbound pdf.title.undetermined warn

# Page 1 replaced by a later incremental update (its title metadata still matches).
$py - "$work/pdflatex.pdf" "$work/t-page1.pdf" <<'PY'
import sys, pikepdf
src, dst = sys.argv[1], sys.argv[2]
data = open(src, "rb").read()
with pikepdf.open(src) as pdf:
    page = pdf.pages[0].obj
    num, gen = page.objgen
    size = int(pdf.trailer.Size)
    root = pdf.trailer.Root.objgen
    font = sorted(page.Resources.Font.keys())[0]
    content = f"BT {font} 12 Tf 72 700 Td (A replaced first page) Tj ET".encode()
    page.Contents = pdf.make_indirect(pikepdf.Stream(pdf, b""))  # only to unparse a reference
    body = page.unparse(resolved=True).decode("latin-1")
    import re
    body = re.sub(r"/Contents \d+ 0 R", f"/Contents {size} 0 R", body)
    startxref = data.rfind(b"startxref")
    prev = int(data[startxref + 9:].split()[0])
out = bytearray(data)
offsets = {}
offsets[num] = len(out); out += f"\n{num} {gen} obj\n{body}\nendobj\n".encode("latin-1")
offsets[size] = len(out); out += f"{size} 0 obj\n<< /Length {len(content)} >>\nstream\n".encode() + content + b"\nendstream\nendobj\n"
xref = len(out)
out += b"xref\n"
for n in sorted(offsets):
    out += f"{n} 1\n{offsets[n]:010d} {gen if n == num else 0:05d} n \n".encode()
out += f"trailer\n<< /Size {size + 1} /Root {root[0]} {root[1]} R /Prev {prev} >>\nstartxref\n{xref}\n%%EOF\n".encode()
open(dst, "wb").write(out)
PY
check "$work/t-page1.pdf" 4 unbound pdf.page1.changed_after_stamping warn pdf.title.visible_not_found warn

# ---- rewrites are not forgeries ---------------------------------------------
qpdf --linearize "$work/xelatex.pdf" "$work/r-qpdf.pdf"
check "$work/r-qpdf.pdf" 0 verified pdf.bytes.rewritten warn pdf.title.visible_match pass

# arXiv's watermark: a page-1 link to the abstract page, saved as a full rewrite.
watermark() {  # IN OUT ID: a grey vertical margin line and a link, as arXiv adds them
  $py - "$@" <<'PY'
import sys, pikepdf
from pikepdf import Name, Dictionary, Array
src, dst, ident = sys.argv[1:4]
with pikepdf.open(src) as pdf:
    page = pdf.pages[0]
    if Name.Font not in page.obj.Resources:
        page.obj.Resources.Font = Dictionary()
    page.obj.Resources.Font[Name.FArXiv] = Dictionary(Type=Name.Font, Subtype=Name.Type1, BaseFont=Name.Times_Roman)
    text = f"arXiv:{ident}  [cs.LG]  1 Jan 2026"
    page.contents_add(pikepdf.Stream(pdf, f"q 0.5 g BT /FArXiv 20 Tf 0 1 -1 0 32 240 Tm ({text}) Tj ET Q".encode()), prepend=False)
    link = Dictionary(Type=Name.Annot, Subtype=Name.Link, Rect=[12, 240, 32, 600], Border=[0, 0, 0],
                      A=Dictionary(S=Name.URI, URI=pikepdf.String(f"https://arxiv.org/abs/{ident}")))
    if Name.Annots not in page.obj:
        page.obj.Annots = pdf.make_indirect(Array())
    page.obj.Annots.append(pdf.make_indirect(link))
    pdf.save(dst, compress_streams=True)
PY
}
watermark "$work/latex.pdf" "$work/r-arxiv.pdf" 2601.00001v1
check "$work/r-arxiv.pdf" 0 verified pdf.bytes.rewritten warn pdf.arxiv.match pass pdf.title.visible_match pass
watermark "$work/latex.pdf" "$work/r-arxiv-other.pdf" 2601.99999v1
check "$work/r-arxiv-other.pdf" 1 failed pdf.arxiv.mismatch fail
# The transplant with arXiv's watermark of the record's id: the id binds it.
watermark "$work/t-none.pdf" "$work/t-arxiv.pdf" 2601.00001v1
check "$work/t-arxiv.pdf" 0 verified pdf.arxiv.match pass

# ---- one number identity (pith-stamp) ---------------------------------------
# The sample built with plain latex/pith.sty (body-only \pithnumber: the PDF
# says pith:BODY) stamps with the sample's bundle (pith:2021:BODY): one number.
src=${PITH_SOURCE_DIR:?PITH_SOURCE_DIR must be set}
mkdir -p "$work/sample"
cp "$src/samples/paper.tex" "$work/sample/"
(cd "$work/sample" && TEXINPUTS="$src/latex//:" pdflatex -interaction=batchmode paper.tex >/dev/null) ||
  fail "the sample did not build with latex/pith.sty"
sample_bundle="$src/samples/registry/JFLLIOJUI2M3KX3FLLGP4N2V65.bundle.json"
rc=0
"$bin/pith-stamp" --offline --bundle "$sample_bundle" -o "$work/sample-stamped.pdf" "$work/sample/paper.pdf" 2>"$work/stderr" || rc=$?
[[ $rc == 0 ]] || fail "pith-stamp refused the sample built with pith.sty (exit $rc): $(cat "$work/stderr")"
check_args=(--offline)
check "$work/sample-stamped.pdf" 0 verified pdf.title.match pass pdf.title.visible_match pass
check_args=(--offline --trust-key "$key")
# --pith garbage: exit 2, "malformed Pith Number", nothing written.
for input in "$work/sample/paper.pdf" "$work/sample/paper.tex"; do
  rc=0
  "$bin/pith-stamp" --offline --bundle "$sample_bundle" --pith garbage -o "$work/g.pdf" "$input" 2>"$work/stderr" || rc=$?
  [[ $rc == 2 ]] || fail "--pith garbage on $(basename "$input"): exit $rc, expected 2"
  grep -q 'malformed Pith Number' "$work/stderr" || fail "--pith garbage: no 'malformed Pith Number': $(cat "$work/stderr")"
done
# --pith on a .tex is honoured when it names the paper's number, refused (exit 2) when not.
rc=0
"$bin/pith-stamp" --offline --bundle "$sample_bundle" --pith pith:JFLLIOJUI2M3KX3FLLGP4N2V65 "$work/sample/paper.tex" 2>"$work/stderr" || rc=$?
[[ $rc == 0 && -f $work/sample/pith.sty ]] || fail "--pith naming the paper's number: exit $rc: $(cat "$work/stderr")"
rm -f "$work/sample/pith.sty"
rc=0
"$bin/pith-stamp" --offline --bundle "$sample_bundle" --pith pith:2020:WXNI57C2SJ24QK62DB7DTUREA3 "$work/sample/paper.tex" 2>"$work/stderr" || rc=$?
[[ $rc == 2 && ! -f $work/sample/pith.sty ]] || fail "--pith naming another number on a .tex: exit $rc, expected 2"
grep -q 'but --pith names' "$work/stderr" || fail "--pith conflict on a .tex: $(cat "$work/stderr")"

# --badge on a PDF already stamped with the record adds the badge.
cp "$work/xelatex.pdf" "$work/badged.pdf"
stamp --badge "$work/badged.pdf" || fail "--badge on a stamped PDF failed"
$py -c 'import pikepdf, sys
p = pikepdf.open(sys.argv[1])
uris = [str(a.A.URI) for a in p.pages[0].get("/Annots", []) if "/A" in a and "/URI" in a.A]
sys.exit(0 if any("/pith/" in u for u in uris) else 1)' "$work/badged.pdf" || fail "--badge added no badge to a stamped PDF"
check "$work/badged.pdf" 0 verified

# A .tex whose plain \title is not the record's: refused before pith.sty is written.
mkdir -p "$work/wrong-tex"
sed 's/^\\title{Layered gradient accumulation and modular pipeline parallelism:/\\title{Another paper:/' \
  "$src/samples/paper.tex" >"$work/wrong-tex/paper.tex"
rc=0
"$bin/pith-stamp" --offline --bundle "$sample_bundle" "$work/wrong-tex/paper.tex" 2>"$work/stderr" || rc=$?
[[ $rc == 1 && ! -e $work/wrong-tex/pith.sty ]] || fail "a .tex with another title: exit $rc, expected 1: $(cat "$work/stderr")"
grep -q '\\title "Another paper:' "$work/stderr" || fail "the .tex refusal does not show its title: $(cat "$work/stderr")"

# ---- a number-only PDF (plain pith.sty, no record) verifies in one run --------
body=JFLLIOJUI2M3KX3FLLGP4N2V65
mkdir -p "$work/mirror/pith/$body"
cp "$sample_bundle" "$work/mirror/pith/$body/bundle.json"
check_args=(--offline --cache-dir "$work/empty-cache")
check "$work/sample/paper.pdf" 4 unverifiable online.unavailable warn pdf.record.resolved skip
# The human headline still names the number it could not verify (as the PDF
# writes it), and why: the warning that the registry was not reached.
headline=$("$bin/pith-check" "${check_args[@]}" "$work/sample/paper.pdf" 2>/dev/null | head -1 || true)
[[ $headline == "✗ $work/sample/paper.pdf: unverifiable pith:$body — 1 warning: online.unavailable" ]] ||
  fail "unverifiable headline without the number: $headline"
check_args=(--offline --resolver "file://$work/mirror" --cache-dir "$work/cache")
check "$work/sample/paper.pdf" 0 verified pdf.record.resolved pass receipt.signature.valid pass \
  pdf.number.matches_record pass pdf.title.visible_match pass
[[ ! -e $work/cache ]] || fail "--offline wrote the cache"
check_args=(--resolver "file://$work/mirror" --cache-dir "$work/cache")  # online from a file:// base: cached
check "$work/sample/paper.pdf" 0 verified pdf.record.resolved pass
check_args=(--offline --resolver http://127.0.0.1:9 --cache-dir "$work/cache")  # now from the cache only
check "$work/sample/paper.pdf" 0 verified pdf.record.resolved pass pdf.title.match pass
[[ $(json_query "'cache' in [c['detail'] for c in r['checks'] if c['code'] == 'pdf.record.resolved'][0]") == True ]] ||
  fail "the number-only PDF was not resolved from the cache"

((failures == 0)) || { echo "$failures failure(s)" >&2; exit 1; }
echo "ok: visible bindings on 4 engines, transplants unbound or failed, rewrites verified with a warning"
