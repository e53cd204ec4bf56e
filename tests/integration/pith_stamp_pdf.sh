#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# pith-stamp on real PDFs, judged by readers we did not write: qpdf --check,
# poppler (pdfinfo, pdfdetach), exiftool. Every producer of the PDF zoo
# (tests/support/pdf_zoo.sh) when it is there, else a few made here. Then the
# edges: re-stamp, determinism, -o, --append, number discovery, refusals
# (unverified, wrong record, encrypted, damaged) leaving the file untouched,
# and kill -9 at random moments never changing the original.
set -euo pipefail

source "$(dirname "$0")/../support/scratch_env.sh"  # $work, $src, $bin, $data; offline, reproducible
need_tools pith-stamp pith-check
source "$src/tests/support/cli_expect.sh"  # fail MESSAGE, $failures
size_of() { stat -c %s "$1"; }

# ---- the PDFs --------------------------------------------------------------
pdfs=()
declare -A features
if [[ -x $src/tests/support/pdf_zoo.sh ]]; then
  use_zoo
  while IFS=$'\t' read -r file pages title feats; do
    [[ $file == file ]] && continue
    pdfs+=("$zoo/$file")
    features["$zoo/$file"]=$feats
  done <"$zoo/zoo.tsv"
else
  mkdir -p "$work/made"
  cat >"$work/made/paper.tex" <<'EOF'
\documentclass{article}
\usepackage{hyperref}
\begin{document}\title{Paper}\author{A}\maketitle Text \url{https://example.org}.\newpage Two.\end{document}
EOF
  (cd "$work/made" && pdflatex -interaction=batchmode paper.tex >/dev/null 2>&1)
  qpdf --object-streams=disable "$work/made/paper.pdf" "$work/made/classic.pdf"
  qpdf --linearize "$work/made/paper.pdf" "$work/made/linearized.pdf"
  qpdf --object-streams=generate "$work/made/classic.pdf" "$work/made/objstm.pdf"
  pdfs=("$work/made/paper.pdf" "$work/made/classic.pdf" "$work/made/linearized.pdf" "$work/made/objstm.pdf")
fi
((${#pdfs[@]} > 0)) || { echo "FAIL: no PDFs to test" >&2; exit 1; }

# ---- every PDF: stamp, then independent readers agree ------------------------
for pdf in "${pdfs[@]}"; do
  name=$(basename "$pdf" .pdf)
  d="$work/$name"
  mkdir -p "$d"
  cp "$pdf" "$d/orig.pdf"
  cp "$pdf" "$d/x.pdf"
  chmod 640 "$d/x.pdf"
  attachments_before=$( (pdfdetach -list "$d/orig.pdf" 2>/dev/null || echo 0) | sed -n '1s/^\([0-9]*\) embedded.*/\1/p')
  title_before=$(exiftool -s3 -XMP-dc:Title "$d/orig.pdf" 2>/dev/null || true)

  force=()
  [[ $name == other-title ]] && force=(--force)  # another paper's title: refused without --force (issue 10)
  out=$("$stamp" --bundle "$bundle" --pith "$number" --badge "${force[@]}" "$d/x.pdf" 2>&1) || { fail "$name: pith-stamp failed: $out"; continue; }
  [[ -z $out || ${#force[@]} -gt 0 ]] || fail "$name: not quiet on success: $out"  # --force warns
  cmp -s -n "$(size_of "$d/orig.pdf")" "$d/orig.pdf" "$d/x.pdf" || fail "$name: the original is not a prefix"
  (($(size_of "$d/x.pdf") > $(size_of "$d/orig.pdf"))) || fail "$name: nothing appended"
  [[ $(stat -c %a "$d/x.pdf") == 640 ]] || fail "$name: mode not kept"
  qpdf --check "$d/x.pdf" >/dev/null 2>&1 || fail "$name: qpdf --check is not clean"
  # (captured first: `| grep -q` under pipefail fails when grep exits before the writer)
  meta=$(pdfinfo -meta "$d/x.pdf" 2>/dev/null || true)
  [[ $meta == *"$number"* ]] || fail "$name: pdfinfo -meta does not show the number"
  [[ $(exiftool -s3 -XMP-pith:Number "$d/x.pdf") == "$number" ]] || fail "$name: exiftool XMP-pith:Number"
  [[ $(exiftool -s3 -PDF:PithNumber "$d/x.pdf") == "$number" ]] || fail "$name: exiftool PDF:PithNumber"
  [[ $(exiftool -s3 -XMP-pith:OriginalLength "$d/x.pdf") == "$(size_of "$d/orig.pdf")" ]] || fail "$name: originalLength"
  [[ $(exiftool -s3 -XMP-pith:OriginalSha256 "$d/x.pdf") == "$(sha256sum <"$d/orig.pdf" | cut -d' ' -f1)" ]] ||
    fail "$name: originalSha256"
  pdfdetach -savefile pith-bundle.json -o "$d/detached.json" "$d/x.pdf" >/dev/null 2>&1 || fail "$name: pdfdetach"
  cmp -s "$d/detached.json" "$bundle" || fail "$name: embedded bundle differs"
  attachments_after=$(pdfdetach -list "$d/x.pdf" | sed -n '1s/^\([0-9]*\) embedded.*/\1/p')
  [[ $attachments_after == $((${attachments_before:-0} + 1)) ]] ||
    fail "$name: attachments $attachments_before -> $attachments_after"
  if [[ -n $title_before ]]; then
    [[ $(exiftool -s3 -XMP-dc:Title "$d/x.pdf") == "$title_before" ]] || fail "$name: dc:title lost"
  fi

  # Re-stamp: a no-op, number found in the PDF itself — "already stamped"
  # only when pith-check says verified (issue 22): not for another paper's
  # title stamped with --force (exit 1, what is wrong and what to do).
  cp "$d/x.pdf" "$d/x1.pdf"
  if [[ $name == other-title ]]; then
    rc=0
    out=$("$stamp" -v --bundle "$bundle" "$d/x.pdf" 2>&1) || rc=$?
    [[ $rc == 1 && $out == *"but pith-check says failed (pdf.title.mismatch"*"--force"* ]] ||
      fail "$name: re-stamp of a PDF pith-check fails: exit $rc: $out"
  else
    out=$("$stamp" -v --bundle "$bundle" "$d/x.pdf" 2>&1) || fail "$name: re-stamp failed: $out"
    [[ $out == *"already stamped"* ]] || fail "$name: re-stamp did not say already stamped: $out"
  fi
  cmp -s "$d/x.pdf" "$d/x1.pdf" || fail "$name: re-stamp changed the file"

  # Deterministic: a copy made with -o is byte-identical; the source is untouched.
  "$stamp" --bundle "$bundle" --pith "$number" --badge "${force[@]}" -o "$d/copy.pdf" "$d/orig.pdf" || fail "$name: -o failed"
  cmp -s "$d/copy.pdf" "$d/x.pdf" || fail "$name: not deterministic"
  cmp -s "$d/orig.pdf" "$pdf" || fail "$name: -o changed its input"

  # --append writes the very same bytes.
  cp "$d/orig.pdf" "$d/app.pdf"
  "$stamp" --append --bundle "$bundle" --pith "$number" --badge "${force[@]}" "$d/app.pdf" || fail "$name: --append failed"
  cmp -s "$d/app.pdf" "$d/x.pdf" || fail "$name: --append differs from the atomic write"
done

# ---- refusals leave the file untouched ----------------------------------------
base="${pdfs[0]}"
r="$work/refuse"
mkdir -p "$r"
expect() {  # expect CODE DESCRIPTION FILE -- command...
  local code=$1 what=$2 file=$3
  shift 4
  cp "$file" "$r/before"
  local rc=0
  "$@" >"$r/out" 2>&1 || rc=$?
  [[ $rc == "$code" ]] || fail "$what: exit $rc, expected $code: $(cat "$r/out")"
  cmp -s "$file" "$r/before" || fail "$what: the file changed"
}

cp "$base" "$r/plain.pdf"
expect 3 "no number" "$r/plain.pdf" -- "$stamp" --bundle "$bundle" "$r/plain.pdf"
grep -q -- "--pith" "$r/out" || fail "no number: the message does not say how to give one"

printf '%% \\pithnumber{AAAAAAAAAAAAAAAAAAAAAAAAAA}\n\\pithnumber{JFLLIOJUI2M3KX3FLLGP4N2V65}\n' >"$r/plain.tex"
cp "$base" "$r/plain.pdf"
"$stamp" --bundle "$bundle" "$r/plain.pdf" || fail "number from the .tex beside the PDF"
[[ $(exiftool -s3 -PDF:PithNumber "$r/plain.pdf") == "$number" ]] || fail ".tex number not stamped"
# The .tex beside is read by pith-stamp itself, never in the sandboxed
# child: named by a relative path (the child was killed by its sandbox for
# the getcwd that needed: issue 31), unreadable, too large, or beside a PDF
# that names its own number (the PDF's wins: the .tex is not read).
t="$r/beside"
mkdir -p "$t"
printf '\\pithnumber{JFLLIOJUI2M3KX3FLLGP4N2V65}\n' >"$t/rel.tex"
cp "$base" "$t/rel.pdf"
(cd "$t" && "$stamp" --bundle "$bundle" -o rel-out.pdf rel.pdf >"$r/out" 2>&1) || fail "relative .tex beside: $(cat "$r/out")"
[[ $(exiftool -s3 -PDF:PithNumber "$t/rel-out.pdf" 2>/dev/null) == "$number" ]] || fail "relative .tex beside: number not stamped"
# Unreadable: root reads past chmod 000, so for root the .tex is a symbolic
# link to itself (ELOOP for every user); a fifo must be refused unopened
# (opening it would wait for a writer).
cp "$base" "$t/locked.pdf"
if (($(id -u) == 0)); then ln -s locked.tex "$t/locked.tex"; else cp "$t/rel.tex" "$t/locked.tex" && chmod 000 "$t/locked.tex"; fi
expect 2 "unreadable .tex beside" "$t/locked.pdf" -- "$stamp" --bundle "$bundle" "$t/locked.pdf"
grep -q "locked.tex.*cannot be read.*--pith" "$r/out" || fail "unreadable .tex beside: message: $(cat "$r/out")"
cp "$base" "$t/fifo.pdf"
mkfifo "$t/fifo.tex"
expect 2 "fifo .tex beside" "$t/fifo.pdf" -- timeout 20 "$stamp" --bundle "$bundle" "$t/fifo.pdf"
grep -q "fifo.tex.*not a regular file" "$r/out" || fail "fifo .tex beside: message: $(cat "$r/out")"
cp "$base" "$t/huge.pdf"
truncate -s 17M "$t/huge.tex"
expect 2 "huge .tex beside" "$t/huge.pdf" -- "$stamp" --bundle "$bundle" "$t/huge.pdf"
grep -q "huge.tex.*larger than 16777216 bytes" "$r/out" || fail "huge .tex beside: message: $(cat "$r/out")"
printf '\\pithnumber{WXNI57C2SJ24QK62DB7DTUREA3}\n' >"$t/own.tex"
"$stamp" --bundle "$bundle" --pith "$number" -o "$t/own.pdf" "$base" >"$r/out" 2>&1 || fail "stamp for own.pdf: $(cat "$r/out")"
cp "$t/own.pdf" "$t/own.before"
"$stamp" --bundle "$bundle" "$t/own.pdf" >"$r/out" 2>&1 || fail "PDF with its number beside another .tex: $(cat "$r/out")"
cmp -s "$t/own.pdf" "$t/own.before" || fail "PDF with its number beside another .tex: changed"

cp "$base" "$r/wrong.pdf"
expect 1 "wrong record" "$r/wrong.pdf" -- "$stamp" --bundle "$bundle" --pith pith:2020:WXNI57C2SJ24QK62DB7DTUREA3 "$r/wrong.pdf"

sed 's/Layered gradient/Layered Gradient/' "$bundle" >"$r/tampered.json"
cmp -s "$r/tampered.json" "$bundle" && fail "tampering did not change the bundle"
cp "$base" "$r/tampered.pdf"
expect 1 "tampered bundle" "$r/tampered.pdf" -- "$stamp" --bundle "$r/tampered.json" --pith "$number" "$r/tampered.pdf"

qpdf --encrypt user owner 256 -- "$base" "$r/enc.pdf"
expect 2 "encrypted" "$r/enc.pdf" -- "$stamp" --bundle "$bundle" --pith "$number" "$r/enc.pdf"
grep -q "qpdf --decrypt" "$r/out" || fail "encrypted: no advice: $(cat "$r/out")"

cp "$base" "$r/damaged.pdf"
python3 - "$r/damaged.pdf" <<'EOF'
import sys
p = sys.argv[1]
b = bytearray(open(p, 'rb').read())
i = b.rfind(b'startxref')
b[i:] = b'startxref\n17\n%%EOF\n'
open(p, 'wb').write(b)
EOF
expect 2 "damaged" "$r/damaged.pdf" -- "$stamp" --bundle "$bundle" --pith "$number" "$r/damaged.pdf"
grep -q "byte 17" "$r/out" || fail "damaged: the message does not name the offset: $(cat "$r/out")"

# ---- damaged inputs through the CLI: stamped with the original as a prefix, or refused untouched
m="$work/mutated"
mkdir -p "$m"
python3 - "$base" "$m" <<'PY'
import random, sys
src, out = sys.argv[1], sys.argv[2]
data = open(src, 'rb').read()
rng = random.Random(20261202)
for i in range(30):
    b = bytearray(data)
    kind = i % 3
    if kind == 0:
        for _ in range(6):
            b[rng.randrange(len(b))] ^= 1 << rng.randrange(8)
    elif kind == 1:
        tail = min(len(b), 3000)
        for _ in range(6):
            b[len(b) - 1 - rng.randrange(tail)] = rng.choice(b'0123456789 /<>[]Rnfobj')
    else:
        del b[rng.randrange(len(b)):]
    open(f"{out}/m{i}.pdf", 'wb').write(bytes(b))
PY
stamped_mutants=0
for f in "$m"/m*.pdf; do
  cp "$f" "$f.orig"
  rc=0
  "$stamp" --bundle "$bundle" --pith "$number" "$f" >"$m/out" 2>&1 || rc=$?
  if ((rc == 0)); then
    stamped_mutants=$((stamped_mutants + 1))
    cmp -s -n "$(size_of "$f.orig")" "$f.orig" "$f" || fail "$(basename "$f"): stamped, but the original is not a prefix"
  else
    # 2: damaged; 1: a flipped bit landed in the title metadata, which no
    # longer names the record (refused like any other paper's title).
    ((rc == 2)) || { ((rc == 1)) && [[ $(cat "$m/out") == *"is not the record's title"* ]]; } ||
      fail "$(basename "$f"): exit $rc on a damaged file: $(cat "$m/out")"
    cmp -s "$f" "$f.orig" || fail "$(basename "$f"): refused, but the file changed"
    [[ $(cat "$m/out") == *"nothing written"* ]] || fail "$(basename "$f"): refusal does not say nothing was written"
  fi
done
echo "damaged inputs: $stamped_mutants of 30 stamped (damage outside what the update touches), the rest refused untouched"

# ---- test-signed records: --trust-key, conflicts and --force, a state document
signer=""
for s in "$bin/../tests/pith-test-sign" "$bin/pith-test-sign"; do [[ -x $s ]] && signer=$s && break; done
if [[ -n $signer ]]; then
  t="$work/signed"
  mkdir -p "$t"
  key="$data/test-signing-key.json"
  "$signer" --title "Paper A" --arxiv 2401.00001 >"$t/a.json"
  "$signer" --title "Paper B" --arxiv 2401.00002 >"$t/b.json"
  "$signer" --title "Paper B" --arxiv 2401.00002 --output state >"$t/b-state.json"
  num_a=$("$signer" --title "Paper A" --arxiv 2401.00001 --output number)
  num_b=$("$signer" --title "Paper B" --arxiv 2401.00002 --output number)
  cp "$base" "$t/x.pdf"
  rc=0
  "$stamp" --bundle "$t/a.json" --pith "$num_a" "$t/x.pdf" >"$t/out" 2>&1 || rc=$?
  ((rc != 0)) || fail "a bundle signed by an untrusted key was stamped"
  cmp -s "$t/x.pdf" "$base" || fail "untrusted key: the file changed"
  # Paper A's record into a PDF titled otherwise: --force (the title check is
  # tested in pdf_bindings.sh; this is about the key).
  "$stamp" --force --trust-key "$key" --bundle "$t/a.json" --pith "$num_a" "$t/x.pdf" || fail "--trust-key: stamp failed"
  [[ $(exiftool -s3 -XMP-pith:Number "$t/x.pdf") == "$num_a" ]] || fail "--trust-key: number not in XMP"
  expect 1 "conflicting number" "$t/x.pdf" -- "$stamp" --trust-key "$key" --bundle "$t/b.json" --pith "$num_b" "$t/x.pdf"
  grep -q -- "--force" "$r/out" || fail "conflict: the message does not mention --force: $(cat "$r/out")"
  "$stamp" --force --trust-key "$key" --bundle "$t/b.json" --pith "$num_b" "$t/x.pdf" || fail "--force failed"
  [[ $(exiftool -s3 -XMP-pith:Number "$t/x.pdf") == "$num_b" ]] || fail "--force: XMP number not replaced"
  [[ $(exiftool -s3 -PDF:PithNumber "$t/x.pdf") == "$num_b" ]] || fail "--force: Info number not replaced"
  [[ $(pdfdetach -list "$t/x.pdf" | grep -c pith-bundle.json) == 1 ]] || fail "--force: pith-bundle.json duplicated"
  pdfdetach -savefile pith-bundle.json -o "$t/got.json" "$t/x.pdf" >/dev/null 2>&1
  cmp -s "$t/got.json" "$t/b.json" || fail "--force: embedded bundle is not the new one"
  qpdf --check "$t/x.pdf" >/dev/null 2>&1 || fail "--force: qpdf --check is not clean"
  # A state alone is not signed (issue 13): refused, nothing embedded, the
  # message names the bundle to give instead.
  cp "$base" "$t/s.pdf"
  expect 2 "state document" "$t/s.pdf" -- "$stamp" --force --trust-key "$key" --bundle "$t/b-state.json" --pith "$num_b" "$t/s.pdf"
  grep -q "not signed" "$r/out" && grep -q "bundle.json" "$r/out" ||
    fail "state document: the refusal does not say why and what to give: $(cat "$r/out")"
else
  fail "pith-test-sign not found next to $bin"
fi

# ---- the record from a resolver (a file:// base, offline: no network in tests)
help_text=$("$stamp" --help)
if [[ $help_text == *--offline* ]]; then
  v="$work/resolved"
  # The registry serves short forms as aliases of the same bundle.
  for id in JFLLIOJUI2M3KX3FLLGP4N2V65 JFLLIOJU; do
    mkdir -p "$v/base/pith/$id"
    cp "$bundle" "$v/base/pith/$id/bundle.json"
  done
  cp "$base" "$v/x.pdf"
  "$stamp" --offline --cache-dir "$v/cache" --resolver "file://$v/base" --pith JFLLIOJU "$v/x.pdf" ||
    fail "resolved: stamp with a short form failed"
  [[ $(exiftool -s3 -PDF:PithNumber "$v/x.pdf") == "$number" ]] || fail "resolved: full number not written"
  [[ $(exiftool -s3 -PDF:PithURL "$v/x.pdf") == "https://pith.science/pith/JFLLIOJUI2M3KX3FLLGP4N2V65" ]] ||
    fail "resolved: a file:// base leaked into /PithURL"
  cp "$base" "$v/y.pdf"
  expect 2 "resolved: unknown number" "$v/y.pdf" -- "$stamp" --offline --cache-dir "$v/cache2" --resolver "file://$v/base" \
    --pith pith:2020:WXNI57C2SJ24QK62DB7DTUREA3 "$v/y.pdf"
else
  echo "note: pith-stamp built without the resolver: resolver checks skipped"
fi

# ---- .tex dispatch (the latex side writes pith.sty)
x="$work/tex"
mkdir -p "$x"
printf '\\documentclass{article}\n\\pithnumber{JFLLIOJUI2M3KX3FLLGP4N2V65}\n\\begin{document}x\\end{document}\n' >"$x/paper.tex"
rc=0
"$stamp" --bundle "$bundle" "$x/paper.tex" >"$x/out" 2>&1 || rc=$?
if grep -q "not supported by this build" "$x/out"; then
  echo "note: pith-stamp built without .tex support: .tex checks skipped"
else
  ((rc == 0)) || fail ".tex: exit $rc: $(cat "$x/out")"
  [[ -s $x/pith.sty ]] || fail ".tex: no pith.sty written"
  printf 'no number here\n' >"$x/none.tex"
  rc=0
  "$stamp" --bundle "$bundle" "$x/none.tex" >"$x/out" 2>&1 || rc=$?
  ((rc == 3)) || fail ".tex without \\pithnumber: exit $rc, expected 3"
  # Exit codes: I/O 2 (nothing overwritten), a record that is not the paper's 1.
  rc=0
  "$stamp" --bundle "$bundle" "$x/missing.tex" >"$x/out" 2>&1 || rc=$?
  ((rc == 2)) || fail ".tex unreadable: exit $rc, expected 2: $(cat "$x/out")"
  f="$work/tex-foreign"
  mkdir -p "$f"
  cp "$x/paper.tex" "$f/paper.tex"
  printf '%% somebody else'"'"'s pith.sty\n' >"$f/pith.sty"
  cp "$f/pith.sty" "$f/pith.sty.before"
  rc=0
  "$stamp" --bundle "$bundle" "$f/paper.tex" >"$x/out" 2>&1 || rc=$?
  ((rc == 2)) || fail ".tex with a foreign pith.sty: exit $rc, expected 2: $(cat "$x/out")"
  cmp -s "$f/pith.sty" "$f/pith.sty.before" || fail ".tex: a foreign pith.sty was overwritten"
  if ((EUID != 0)); then  # root writes anywhere
    ro="$work/tex-readonly"
    mkdir -p "$ro"
    cp "$x/paper.tex" "$ro/paper.tex"
    chmod a-w "$ro"
    rc=0
    "$stamp" --bundle "$bundle" "$ro/paper.tex" >"$x/out" 2>&1 || rc=$?
    chmod u+w "$ro"
    ((rc == 2)) || fail ".tex in an unwritable directory: exit $rc, expected 2: $(cat "$x/out")"
    [[ ! -e $ro/pith.sty ]] || fail ".tex in an unwritable directory: pith.sty appeared"
  fi
  w="$work/tex-wrong"
  mkdir -p "$w"
  printf '\\documentclass{article}\n\\pithnumber{WXNI57C2SJ24QK62DB7DTUREA3}\n\\begin{document}x\\end{document}\n' >"$w/paper.tex"
  rc=0
  "$stamp" --bundle "$bundle" "$w/paper.tex" >"$x/out" 2>&1 || rc=$?
  ((rc == 1)) || fail ".tex with another paper's bundle: exit $rc, expected 1: $(cat "$x/out")"
  [[ ! -e $w/pith.sty ]] || fail ".tex with another paper's bundle: pith.sty written"
  # The badge and /PithURL link to a web --resolver; a file:// base is never published.
  hex_of() { printf '%s' "$1" | od -An -tx1 | tr -d ' \n'; }
  "$stamp" --bundle "$bundle" --resolver https://mirror.example "$x/paper.tex" >"$x/out" 2>&1 ||
    fail ".tex --resolver: $(cat "$x/out")"
  sty=$(tr 'A-F' 'a-f' <"$x/pith.sty")
  [[ $sty == *"{resolver} {$(hex_of https://mirror.example)}"* ]] ||
    fail ".tex --resolver https://mirror.example: not the generated pith.sty's resolver"
  "$stamp" --bundle "$bundle" --resolver "file://$x" "$x/paper.tex" >"$x/out" 2>&1 ||
    fail ".tex --resolver file://: $(cat "$x/out")"
  sty=$(tr 'A-F' 'a-f' <"$x/pith.sty")
  [[ $sty == *"{resolver} {$(hex_of https://pith.science)}"* ]] ||
    fail ".tex --resolver file://: pith.sty does not link to https://pith.science"
fi

# ---- kill -9 at random moments: the original never changes --------------------
big=""
for pdf in "${pdfs[@]}"; do
  if [[ -z $big || $(size_of "$pdf") -gt $(size_of "$big") ]]; then big=$pdf; fi
done
k="$work/kill"
mkdir -p "$k"
cp "$big" "$k/orig.pdf"
cp "$big" "$k/ref.pdf"
t0=$(date +%s%N)
"$stamp" --bundle "$bundle" --pith "$number" "$k/ref.pdf" || fail "kill: reference stamp failed"
# Kill moments spread over 1.5x the time a whole run takes here.
span_ms=$(( ($(date +%s%N) - t0) * 3 / 2 / 1000000 + 1 ))
random_delay() {
  local ms=$((RANDOM * span_ms / 32768))
  printf '%d.%03d' $((ms / 1000)) $((ms % 1000))
}
untouched=0
done_count=0
for i in $(seq 1 40); do
  cp "$k/orig.pdf" "$k/x.pdf"
  "$stamp" --bundle "$bundle" --pith "$number" "$k/x.pdf" 2>/dev/null &
  pid=$!
  sleep "$(random_delay)"
  kill -9 "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  if cmp -s "$k/x.pdf" "$k/orig.pdf"; then
    untouched=$((untouched + 1))
  elif cmp -s "$k/x.pdf" "$k/ref.pdf"; then
    done_count=$((done_count + 1))
  else
    fail "kill -9 run $i left a file that is neither the original nor the stamped one"
  fi
  rm -f "$k"/.x.pdf.pith-*  # a killed run may leave its temporary file (documented)
done
echo "kill -9: $untouched runs left the original, $done_count completed, 40 in all"

# --append under kill -9: the original bytes stay an exact prefix.
for i in $(seq 1 20); do
  cp "$k/orig.pdf" "$k/a.pdf"
  "$stamp" --append --bundle "$bundle" --pith "$number" "$k/a.pdf" 2>/dev/null &
  pid=$!
  sleep "$(random_delay)"
  kill -9 "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  cmp -s -n "$(size_of "$k/orig.pdf")" "$k/orig.pdf" "$k/a.pdf" || fail "--append kill -9 run $i damaged the original bytes"
done

if ((failures > 0)); then
  echo "$failures failure(s)" >&2
  exit 1
fi
echo "pith-stamp PDF integration: ${#pdfs[@]} PDFs, all checks passed"
