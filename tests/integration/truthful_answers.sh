#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 31, replayed as a newcomer would type it: every command of the
# issue's items, each asserting the truthful answer (the verdict, the exit
# code and what the headline says), on files made here from the bundled
# sample and the PDF zoo.
#   1  a word changed on page 3 (qpdf --qdf, an edit, fix-qdf): altered, exit 5,
#      on the headline, in --json and in the batch --html report
#   7  a wrong-year number exits 2 naming the number with that body; a
#      verified PDF with a warning names it on the headline
# (Items 2–6 have their own suites too: pith_check_batch.sh, pith_check_tar.sh,
# pith_stamp_pdf.sh, number_sources.sh, arxiv_upload.sh.)
set -euo pipefail

source "$(dirname "$0")/../support/scratch_env.sh"  # $work, $src, $bin, $data; offline, reproducible
need_tools pith-check pith-stamp
source "$src/tests/support/cli_expect.sh"  # fail, expect_exit, expect_out, expect_err
check="$bin/pith-check"
py=/usr/bin/python3
use_zoo >/dev/null
stamp() { "$bin/pith-stamp" --offline --bundle "$data/${number##*:}.bundle.json" --pith "$number" "$@"; }
json() { $py -c 'import json, sys; r = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$work/out" "$1"; }

cd "$work"
stamp -o paper.pdf "$zoo/paper.pdf" || fail "pith-stamp the zoo's paper"

# ---- 1. The body changed after stamping --------------------------------------
qpdf --qdf --object-streams=disable paper.pdf qdf.pdf
$py - qdf.pdf <<'PY'
import re, sys
data = open(sys.argv[1], 'rb').read()
page3 = [m.start() for m in re.finditer(rb'%% Contents for page \d+', data)][2]
at = data.find(b'(e', page3)
open(sys.argv[1], 'wb').write(data[:at + 1] + b'X' + data[at + 2:])
PY
fix-qdf qdf.pdf >edited.pdf
expect_exit 5 --offline edited.pdf
head -1 "$work/out" | grep -q "^✗ edited.pdf: altered $number — text changed on page 3 since stamping, rewritten; 2 warnings: " ||
  fail "1: the headline: $(head -1 "$work/out")"
expect_exit 5 --offline --json edited.pdf
[[ $(json 'r["verdict"], r["details"]["page_text"]["changed_pages"]') == "('altered', [3])" ]] || fail "1: the JSON verdict"
expect_exit 5 --offline --quiet --html report.html paper.pdf edited.pdf
grep -q 'edited.pdf' report.html || fail "1: the HTML report does not list the altered paper"
# The unchanged paper is still verified, exit 0, nothing on its headline.
expect_exit 0 --offline paper.pdf
[[ $(head -1 "$work/out") == "✓ paper.pdf: verified $number" ]] || fail "1: the stamped paper: $(head -1 "$work/out")"

# ---- 7. Smaller untruths ------------------------------------------------------
# A wrong year with the right body: the asker's typo, exit 2 like any other.
mkdir -p mirror/pith/"${number##*:}"
cp "$data/${number##*:}.bundle.json" mirror/pith/"${number##*:}"/bundle.json
year=${number:5:4}
wrong="pith:$((year == 2020 ? 2021 : 2020)):${number##*:}"
expect_exit 2 --offline --resolver "file://$work/mirror" --cache-dir "$work/cache" "$wrong"
expect_err "no record is $wrong: the record with this body is $number; check the year"
# A warning is never below the headline only.
cp paper.pdf keywords.pdf
exiftool -q -overwrite_original -Keywords=edited keywords.pdf
expect_exit 0 --offline keywords.pdf
[[ $(head -1 "$work/out") == "✓ keywords.pdf: verified $number — 1 warning: pdf.bytes.later_revisions" ]] ||
  fail "7: the warning is not on the headline: $(head -1 "$work/out")"

((failures == 0)) || { echo "$failures failure(s)" >&2; exit 1; }
echo "ok: every answer of issue 31 replayed is true and whole"
