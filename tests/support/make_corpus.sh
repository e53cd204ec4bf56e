#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# make_corpus.sh OUTDIR COPIES — a generated corpus for the corpus-scale tests
# and bench/corpus_bench.sh (issue 15), offline: COPIES each of
#   s-*   stamped zoo PDFs (verified)
#   u-*   the same PDFs unstamped (not_found)
#   t-*   stamped PDFs with a byte of the stamped prefix changed (failed)
#   r-*   a bare canonical record (unverifiable), b-* a tampered bundle
#         (failed), g-* garbage (error)
# plus the crafted hostile PDFs of hostile_pdfs.py (h-*; not objstm-bomb).
# OUTDIR/expected.tsv: name, expected verdict ("-" for the hostile ones).
# Needs PITH_BIN (the built tools), PITH_TEST_DATA, PITH_ZOO_DIR (or ./zoo).
set -euo pipefail
out=${1:?usage: make_corpus.sh OUTDIR COPIES}
copies=${2:?usage: make_corpus.sh OUTDIR COPIES}
bin=${PITH_BIN:?PITH_BIN must be set}
data=${PITH_TEST_DATA:?PITH_TEST_DATA must be set}
here=$(cd "$(dirname "$0")" && pwd)
zoo=${PITH_ZOO_DIR:-$PWD/zoo}
"$here/pdf_zoo.sh" "$zoo" >/dev/null
bundle="$data/JFLLIOJUI2M3KX3FLLGP4N2V65.bundle.json"
number=pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65
mkdir -p "$out"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for name in paper classic hyperxmp pdflatex; do
  env -u PITH_RESOLVER "$bin/pith-stamp" --offline --pith "$number" --bundle "$bundle" -o "$scratch/$name.pdf" \
    "$zoo/$name.pdf" >/dev/null
done
cp "$data/WXNI57C2SJ24QK62DB7DTUREA3.canonical_record.json" "$scratch/record.json"
sed 's/Layered gradient/Layered gradients/' "$bundle" >"$scratch/tampered.bundle.json"
/usr/bin/python3 "$here/hostile_pdfs.py" "$scratch/hostile" >/dev/null
/usr/bin/python3 - "$scratch" "$zoo" "$out" "$copies" <<'PY'
import os, shutil, sys
scratch, zoo, out, copies = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
rows = []
def put(name, data, verdict):
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)
    rows.append((name, verdict))
read = lambda p: open(p, "rb").read()
for i in range(copies):
    for name in ("paper", "classic", "hyperxmp", "pdflatex"):
        stamped = read(f"{scratch}/{name}.pdf")
        put(f"s-{i:04d}-{name}.pdf", stamped, "verified")
        put(f"u-{i:04d}-{name}.pdf", read(f"{zoo}/{name}.pdf"), "not_found")
        # A byte inside the original (stamped-over) prefix: the bytes binding breaks.
        original = os.path.getsize(f"{zoo}/{name}.pdf")
        at = stamped.find(b"stream", stamped.find(b"stream", stamped.find(b"stream") + 1) + 1) + 40
        assert at < original
        t = bytearray(stamped)
        t[at] = ord("Z") if t[at] != ord("Z") else ord("Y")
        put(f"t-{i:04d}-{name}.pdf", bytes(t), "failed")
    put(f"r-{i:04d}.json", read(f"{scratch}/record.json"), "unverifiable")
    put(f"b-{i:04d}.bundle.json", read(f"{scratch}/tampered.bundle.json"), "failed")
    put(f"g-{i:04d}.txt", b"not a pith document\n", "error")
for h in sorted(os.listdir(f"{scratch}/hostile")):
    if h != "objstm-bomb.pdf":
        put(f"h-{h}", read(f"{scratch}/hostile/{h}"), "-")
with open(os.path.join(out, "expected.tsv"), "w") as f:
    for name, verdict in rows:
        f.write(f"{name}\t{verdict}\n")
PY
