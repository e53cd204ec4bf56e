#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 13 from the command line: nothing a hostile file carries can draw on
# the terminal (an ANSI payload in a file name, a bundle and a PDF: escaped in
# the text output, exact in --json); a FIFO given as input is refused, not
# waited on; a key directory or key file others can write adds no trust; a
# second embedded pith-bundle.json and a look-alike resolver host are reported;
# a PDF's verdict is anchored by the parent's own verification.
set -euo pipefail

source "$(dirname "$0")/../support/scratch_env.sh"  # $work, $src, $bin, $data; offline, reproducible
need_tools pith-check
key="$data/test-signing-key.json"
source "$(dirname "$0")/../support/cli_expect.sh"

payload=$'\e[1A\e[2K\r\e[32m\xE2\x9C\x93 verified\e[0m'
no_raw_escape() {  # no_raw_escape FILE WHAT
  if grep -q $'\e' "$1" || grep -q $'\r' "$1"; then
    fail "$2: a raw control character reached the text output: $(cat -v "$1")"
  fi
}

# 1. A file name and a key id carrying the payload.
"$signer" >"$work/good.json"
/usr/bin/python3 - "$work/good.json" "$work/evil${payload}.json" "$payload" <<'PY'
import json, sys
b = json.load(open(sys.argv[1]))
b["bundle_signature"]["key_id"] = "pith-test-2026" + sys.argv[3]
open(sys.argv[2], "w").write(json.dumps(b))
PY
evil="$work/evil${payload}.json"
expect_exit 1 --offline --trust-key "$key" "$evil"
no_raw_escape "$work/out" "bundle (text)"
no_raw_escape "$work/err" "bundle (stderr)"
expect_out '\\x1B\[2K'
"$check" --offline --trust-key "$key" --json "$evil" >"$work/json" 2>/dev/null || true
/usr/bin/python3 - "$work/json" "$evil" "$payload" <<'PY' || fail "bundle (--json): the values are not exact"
import json, sys
r = json.loads(open(sys.argv[1]).read())
assert r["file"] == sys.argv[2], r["file"]
assert any(sys.argv[3] in c["detail"] for c in r["checks"]), "payload not in any detail"
PY

# 2. A PDF named with the payload, whose Info /PithURL and /Title carry it
# too (the PDF layer quotes those; the file name reaches the report as is).
evil_pdf="$work/evil${payload}.pdf"
/usr/bin/python3 - "$evil_pdf" "$payload" <<'PY'
import pikepdf, sys
pdf = pikepdf.new()
pdf.add_blank_page()
pdf.docinfo["/PithURL"] = "https://pith.science/pith/JFLLIOJUI2M3KX3FLLGP4N2V65#" + sys.argv[2]
pdf.docinfo["/Title"] = "Title" + sys.argv[2]
pdf.save(sys.argv[1])
PY
"$check" --offline "$evil_pdf" >"$work/out" 2>"$work/err" || true
no_raw_escape "$work/out" "PDF (text)"
no_raw_escape "$work/err" "PDF (stderr)"
grep -q 'evil\\x1B\[1A' "$work/out" || fail "PDF: the escaped file name is not shown: $(cat -v "$work/out")"
"$check" --offline --json "$evil_pdf" >"$work/json" 2>/dev/null || true
/usr/bin/python3 - "$work/json" "$evil_pdf" <<'PY' || fail "PDF (--json): the file name is not exact"
import json, sys
r = json.loads(open(sys.argv[1]).read())
assert r["file"] == sys.argv[2], r["file"]
PY

# 3. A FIFO is refused at once (nobody ever writes to it).
mkfifo "$work/input.fifo"
rc=0
timeout 20 "$check" --offline "$work/input.fifo" >"$work/out" 2>"$work/err" || rc=$?
[[ $rc != 124 ]] || fail "a FIFO input blocked pith-check"
[[ $rc == 2 ]] || fail "FIFO: exit $rc, expected 2"
expect_err "not a regular file"

# 4. Keys others can write add no trust.
"$signer" >"$work/bundle.json"
mkdir -p "$XDG_CONFIG_HOME/pith/keys"
cp "$key" "$XDG_CONFIG_HOME/pith/keys/test.json"
chmod 0700 "$XDG_CONFIG_HOME/pith/keys"
chmod 0600 "$XDG_CONFIG_HOME/pith/keys/test.json"
expect_exit 0 --offline "$work/bundle.json"
chmod 0777 "$XDG_CONFIG_HOME/pith/keys"
expect_exit 4 --offline "$work/bundle.json"
expect_err "writable by others (mode 0777)"
chmod 0700 "$XDG_CONFIG_HOME/pith/keys"
chmod 0666 "$XDG_CONFIG_HOME/pith/keys/test.json"
expect_exit 4 --offline "$work/bundle.json"
expect_err "writable by others (mode 0666)"
cp "$key" "$work/open-key.json"
chmod 0666 "$work/open-key.json"
expect_exit 2 --offline --trust-key "$work/open-key.json" "$work/bundle.json"
expect_err "chmod go-w"
chmod 0600 "$XDG_CONFIG_HOME/pith/keys/test.json"

# 5. A stamped PDF with a second embedded pith-bundle.json, and one whose
# Info /PithURL points at a look-alike registry host.
"$signer" >"$work/sb.json"
num=$("$signer" --output number)
/usr/bin/python3 -c 'import pikepdf, sys; p = pikepdf.new(); p.add_blank_page(); p.save(sys.argv[1])' "$work/plain.pdf"
"$bin/pith-stamp" --trust-key "$key" --bundle "$work/sb.json" --pith "$num" -o "$work/stamped.pdf" "$work/plain.pdf" ||
  fail "stamping the test PDF failed"
/usr/bin/python3 - "$work/stamped.pdf" "$work/dup.pdf" "$work/lookalike.pdf" <<'PY'
import pikepdf, sys
pdf = pikepdf.open(sys.argv[1])
names = pdf.Root.Names.EmbeddedFiles.Names
second = pdf.make_stream(b'{"other": "bundle"}')
second.Type = pikepdf.Name.EmbeddedFile
spec = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Filespec, F=pikepdf.String("pith-bundle.json"),
                                            EF=pikepdf.Dictionary(F=second)))
names.append(pikepdf.String("pith-bundle.json"))
names.append(spec)
pdf.save(sys.argv[2])
pdf = pikepdf.open(sys.argv[1])
url = str(pdf.docinfo["/PithURL"])
pdf.docinfo["/PithURL"] = url.replace("://pith.science/", "://pith.sclence/").replace("://127.0.0.1:9/", "://pith.sclence/")
pdf.save(sys.argv[3])
PY
has_check() {  # has_check FILE CODE STATUS: pith-check --json FILE has CODE with STATUS
  "$check" --offline --trust-key "$key" --json "$1" >"$work/json" 2>/dev/null || true
  /usr/bin/python3 - "$work/json" "$2" "$3" <<'PY' || fail "$(basename "$1"): no $2 ($3): $(cat "$work/json")"
import json, sys
r = json.loads(open(sys.argv[1]).read())
assert any(c["code"] == sys.argv[2] and c["status"] == sys.argv[3] for c in r["checks"])
PY
}
has_check "$work/stamped.pdf" isolation.parent.verified pass
has_check "$work/dup.pdf" pdf.bundle.duplicate warn
has_check "$work/lookalike.pdf" pdf.resolver.unknown_host warn
"$check" --offline --trust-key "$key" --json "$work/stamped.pdf" | grep -q unknown_host &&
  fail "the stamped PDF's own resolver link was reported as unknown"

((failures == 0)) || { echo "$failures failure(s)" >&2; exit 1; }
echo "trust_hardening: all passed"
