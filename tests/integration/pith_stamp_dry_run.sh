#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# pith-stamp --dry-run (issue 33): everything but the write. The record is
# resolved and verified, the update planned and checked; it says what would
# be written and exits as the real run does (0 would stamp, 1 a conflict, 3
# no number, 2 a read-only file in place); no file is created or changed, in
# place, with -o (no OUT appears) or --append. The real run after it writes
# the very bytes the dry run planned (--json: the same update_bytes and
# original_sha256). A .tex and --arxiv are refused with a usage error.
set -euo pipefail

source "$(dirname "$0")/../support/scratch_env.sh"  # $work, $src, $bin, $data; offline, reproducible
need_tools pith-stamp
source "$src/tests/support/cli_expect.sh"  # fail MESSAGE, $failures
py=/usr/bin/python3

fixture_paper "$work"
pdf="$work/paper.pdf"
cp "$pdf" "$work/before.pdf"
stamp=("$bin/pith-stamp" --offline --bundle "$bundle" --pith "$number")
other=pith:2020:WXNI57C2SJ24QK62DB7DTUREA3

unchanged() { cmp -s "$pdf" "$work/before.pdf" || fail "$1 changed the PDF"; }
# No file but the ones the script made (no OUT, no temporary file beside the PDF).
only_ours() {
  local extra
  extra=$(ls "$work" | grep -vE '^(paper\.(tex|pdf|aux|log|out)|before\.pdf|out|err|config|xdg-cache|dry\.json|real\.json|ro|stamped\.pdf)$' || true)
  [[ -z $extra ]] || fail "$1 left files behind: $extra"
}

# ---- a fresh PDF: would stamp, says so, writes nothing ---------------------------
run 0 "dry run in place" "${stamp[@]}" --dry-run "$pdf"
grep -q "would be stamped with $number" "$work/err" || fail "the dry run does not say what it would write: $(cat "$work/err")"
grep -q "dry run: nothing written" "$work/err" || fail "the dry run does not say nothing was written"
unchanged "--dry-run"
only_ours "--dry-run"
run 0 "dry run with -o" "${stamp[@]}" --dry-run -o "$work/new.pdf" "$pdf"
[[ ! -e $work/new.pdf ]] || fail "--dry-run -o created its output"
run 0 "dry run with --append" "${stamp[@]}" --dry-run --append "$pdf"
unchanged "--dry-run --append"
only_ours "--dry-run -o / --append"

# ---- the dry run plans the bytes the real run writes ------------------------------
run 0 "dry run --json" "${stamp[@]}" --dry-run --json "$pdf"
cp "$work/out" "$work/dry.json"
run 0 "the real run" "${stamp[@]}" --json -o "$work/stamped.pdf" "$pdf"
cp "$work/out" "$work/real.json"
"$py" - "$work/dry.json" "$work/real.json" <<'PY' || fail "the dry run's JSON does not announce the real run's write"
import json, sys
dry, real = (json.load(open(p)) for p in sys.argv[1:])
assert dry["dry_run"] is True and "dry_run" not in real, (dry, real)
assert dry["status"] == real["status"] == "stamped", (dry["status"], real["status"])
for key in ("update_bytes", "original_sha256", "original_length", "pith_number"):
    assert dry[key] == real[key], key
PY
unchanged "the real run with -o"

# ---- exit codes as a real run ------------------------------------------------------
run 0 "dry run on the stamped copy" "${stamp[@]}" --dry-run -v "$work/stamped.pdf"
grep -q "already stamped with $number" "$work/err" || fail "the dry run does not say already stamped: $(cat "$work/err")"
cp "$work/stamped.pdf" "$work/before.pdf"
run 1 "dry run of another number on the stamped copy" "$bin/pith-stamp" --offline --bundle "$bundle" --pith "$other" \
  --dry-run "$work/stamped.pdf"
cmp -s "$work/stamped.pdf" "$work/before.pdf" || fail "the refused dry run changed the file"
cp "$pdf" "$work/before.pdf"
run 3 "dry run with no number" "$bin/pith-stamp" --offline --bundle "$bundle" --dry-run "$pdf"
unchanged "the dry run with no number"
mkdir "$work/ro"
cp "$pdf" "$work/ro/paper.pdf"
chmod a-w "$work/ro/paper.pdf"
run 2 "dry run in place on a read-only file" "${stamp[@]}" --dry-run "$work/ro/paper.pdf"
grep -q "read-only" "$work/err" || fail "the dry run does not refuse the read-only file as a real run: $(cat "$work/err")"
chmod u+w "$work/ro/paper.pdf"

# ---- not for a .tex or --arxiv ----------------------------------------------------
run 2 "dry run of a .tex" "${stamp[@]}" --dry-run "$work/paper.tex"
grep -q -- "--dry-run is for PDFs" "$work/err" || fail "the .tex refusal does not say why: $(cat "$work/err")"
[[ ! -e $work/pith.sty ]] || fail "--dry-run on a .tex wrote pith.sty"
run 2 "dry run with --arxiv" "${stamp[@]}" --dry-run --arxiv "$work/paper.tex"
only_ours "the refusals"

((failures == 0)) || { echo "$failures failure(s)" >&2; exit 1; }
echo "ok: --dry-run resolves, verifies, plans and checks, says what it would write, exits as a real run, writes nothing"
