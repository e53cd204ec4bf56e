#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# pith-serve's API on loopback (docs/serve.md): a stamped sample is verified
# and its JSON is pith-check --json's; a tampered copy fails (raw body and
# multipart); hostile PDFs are verdict error and the server stays up; an
# oversize upload is 413, malformed multipart 400, busy 503 with Retry-After;
# the record lookup (200, 400 a malformed id, 404 a number not served), the
# badge (ETag, 304, escaping), the page's CSP, the
# metrics, --keep, and exit 0 on SIGTERM.
set -euo pipefail

source "$(dirname "$0")/../support/scratch_env.sh"  # $work, $src, $bin, $data; offline, reproducible
need_tools pith-serve pith-stamp pith-check
kill_at_exit serve_pid

source "$src/tests/support/cli_expect.sh"  # fail MESSAGE, $failures
source "$src/tests/support/serve_fixture.sh"

# json FILE EXPR: a Python expression over the JSON object r in FILE.
json() { /usr/bin/python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }

# post OUT CURL_ARGS...: POST /api/v1/check; prints the HTTP status.
post() {
  local out=$1
  shift
  curl -sS -o "$out" -w '%{http_code}' "$@" "$base/api/v1/check"
}

make_serve_samples
mkdir "$work/kept"
start_serve --jobs 2 --queue 4 --max-upload 3MiB --keep "$work/kept"

[[ $(curl -sS "$base/healthz") == ok ]] || fail "/healthz is not ok"

# ---- verified, and the very JSON of pith-check --json ------------------------
status=$(curl -sS -o "$work/a.json" -w '%{http_code}' -H 'Content-Type: application/pdf' \
  --data-binary "@$work/stamped.pdf" "$base/api/v1/check?name=stamped.pdf")
[[ $status == 200 ]] || fail "stamped (raw body): HTTP $status"
[[ $(json "$work/a.json" 'r["verdict"]') == verified ]] || fail "stamped: not verified: $(head -c 600 "$work/a.json")"
[[ $(json "$work/a.json" 'r["file"]') == stamped.pdf ]] || fail "stamped: the report does not use ?name="
(cd "$work" && "$bin/pith-check" --offline --mirror "file://$work/mirror" --cache-dir "$work/cache" --json stamped.pdf \
  >"$work/cli.json") || true
# ... plus the evidence the page shows beside the verdict (issue 22): the
# crop of page 1 where the title is seen, a PNG the service encoded.
[[ $(json "$work/a.json" 'r["details"]["evidence"]["binding"]') == visible_title ]] || fail "stamped: no evidence"
[[ $(json "$work/a.json" '__import__("base64").b64decode(r["details"]["evidence"]["png_base64"])[:8] == b"\x89PNG\r\n\x1a\n"') == True ]] ||
  fail "stamped: the evidence is not a PNG"
[[ $(/usr/bin/python3 -c 'import json, sys; a, b = (json.load(open(p)) for p in sys.argv[1:]); a["details"].pop("evidence"); print(a == b)' \
  "$work/a.json" "$work/cli.json") == True ]] || fail "the service's JSON differs from pith-check --json's"

# ---- tampered: failed (multipart, as the page sends it) -----------------------
status=$(post "$work/t.json" -F "file=@$work/tampered.pdf;type=application/pdf")
[[ $status == 200 ]] || fail "tampered (multipart): HTTP $status"
[[ $(json "$work/t.json" 'r["verdict"]') == failed ]] || fail "tampered: not failed: $(head -c 600 "$work/t.json")"
[[ $(json "$work/t.json" 'r["file"]') == tampered.pdf ]] || fail "tampered: the report does not use the form's file name"
[[ $(json "$work/t.json" 'any(c["code"] == "bundle.hash.mismatch" and c["status"] == "fail" for c in r["checks"])') == True ]] ||
  fail "tampered: no bundle.hash.mismatch"

# ---- hostile PDFs: a verdict (error or not_found), and the server still up ----
head -c 3000 "$work/stamped.pdf" >"$work/hostile/truncated.pdf"
for pdf in "$work"/hostile/*.pdf; do
  name=$(basename "$pdf")
  status=$(post "$work/h.json" -F "file=@$pdf")
  [[ $status == 200 ]] || fail "hostile $name: HTTP $status"
  verdict=$(json "$work/h.json" 'r["verdict"]')
  [[ $verdict == error || $verdict == not_found ]] || fail "hostile $name: verdict $verdict"
  [[ $(curl -sS "$base/healthz") == ok ]] || fail "hostile $name: /healthz no longer ok"
done
post "$work/h.json" -F "file=@$work/hostile/truncated.pdf" >/dev/null
[[ $(json "$work/h.json" 'r["verdict"]') == error ]] || fail "truncated PDF: not verdict error"

# ---- a registry document, and not a document ----------------------------------
status=$(post "$work/b.json" --data-binary "@$serve_bundle")
[[ $status == 200 && $(json "$work/b.json" 'r["verdict"]') == verified ]] || fail "bundle upload: HTTP $status, not verified"
# The page words a registry file's verdict as such (no PDF was shown): it keys on kind.
[[ $(json "$work/b.json" 'r["kind"]') == bundle && $(json "$work/a.json" 'r["kind"]') == pdf ]] ||
  fail "the JSON's kind does not tell a bundle from a PDF"
curl -sS -o "$work/app.js" "$base/app.js"
grep -q "report.kind === 'pdf'" "$work/app.js" && grep -q 'It is a registry file, not a PDF, so no paper was shown' "$work/app.js" ||
  fail "the page words a verified bundle as a PDF shown to be the paper"
status=$(post "$work/n.json" --data-binary 'hello')
[[ $status == 200 && $(json "$work/n.json" 'r["verdict"]') == error ]] || fail "plain text upload: not verdict error"

# ---- limits and bad requests ----------------------------------------------------
head -c $((4 * 1024 * 1024)) /dev/zero >"$work/big.bin"
status=$(post "$work/o.json" --data-binary "@$work/big.bin")
[[ $status == 413 ]] || fail "oversize (raw): HTTP $status, expected 413"
status=$(post "$work/o.json" -F "file=@$work/big.bin")
[[ $status == 413 ]] || fail "oversize (multipart): HTTP $status, expected 413"
status=$(post "$work/m.json" -H 'Content-Type: multipart/form-data; boundary=XyZ' --data-binary $'--XyZ\r\ngarbage without headers')
[[ $status == 400 ]] || fail "malformed multipart: HTTP $status, expected 400"
status=$(post "$work/m.json" -F "other=value")
[[ $status == 400 ]] || fail "multipart without a file: HTTP $status, expected 400"
status=$(post "$work/e.json" --data-binary '')
[[ $status == 400 ]] || fail "empty upload: HTTP $status, expected 400"
status=$(curl -sS -o /dev/null -w '%{http_code}' "$base/api/v1/nothing")
[[ $status == 404 ]] || fail "unknown path: HTTP $status"

# ---- the record, the badge, the page, the metrics --------------------------------
status=$(curl -sS -o "$work/r.json" -w '%{http_code}' "$base/api/v1/pith/$serve_number")
[[ $status == 200 ]] || fail "lookup of a served number: HTTP $status"
# REST status codes: 400 an id that is no Pith Number, 404 a number not served;
# the body is still the lookup's JSON, saying why.
status=$(curl -sS -o "$work/bad-id.json" -w '%{http_code}' "$base/api/v1/pith/not-a-number")
[[ $status == 400 ]] || fail "lookup of a malformed id: HTTP $status, expected 400"
[[ $(json "$work/bad-id.json" 'r["check"]["verdict"]') == error ]] || fail "malformed id: no lookup report: $(cat "$work/bad-id.json")"
status=$(curl -sS -o "$work/no-record.json" -w '%{http_code}' "$base/api/v1/pith/pith:2021:AAAAAAAAAAAAAAAAAAAAAAAAAA")
[[ $status == 404 ]] || fail "lookup of a number not served: HTTP $status, expected 404: $(cat "$work/no-record.json")"
[[ $(json "$work/no-record.json" 'r["status"]') == unknown ]] || fail "number not served: status not unknown"
# A badge is an image in someone's page: always drawn (200), unknown when not served.
status=$(curl -sS -o /dev/null -w '%{http_code}' "$base/badge/pith:2021:AAAAAAAAAAAAAAAAAAAAAAAAAA.svg")
[[ $status == 200 ]] || fail "badge of a number not served: HTTP $status, expected 200"
[[ $(json "$work/r.json" 'r["status"]') == verified ]] || fail "lookup: not verified: $(head -c 600 "$work/r.json")"
[[ $(json "$work/r.json" 'r["record"]["arxiv_url"]') == https://arxiv.org/abs/2106.02679 ]] || fail "lookup: arXiv link"
[[ $(json "$work/r.json" 'r["events"][0]["type"]') == record_created ]] || fail "lookup: no events"
[[ $(json "$work/r.json" 'r["check"]["verdict"]') == verified ]] || fail "lookup: the report is not pith-check's"
curl -sS -D "$work/h.txt" -o "$work/badge.svg" "$base/badge/$serve_number.svg"
grep -qi '^content-type: image/svg+xml' "$work/h.txt" || fail "badge: not image/svg+xml"
grep -q '>verified<' "$work/badge.svg" || fail "badge: not verified: $(cat "$work/badge.svg")"
etag=$(sed -n 's/^[Ee][Tt][Aa][Gg]: *\(.*\)\r$/\1/p' "$work/h.txt")
[[ -n $etag ]] || fail "badge: no ETag"
grep -qi '^cache-control: public' "$work/h.txt" || fail "badge: no Cache-Control"
status=$(curl -sS -o /dev/null -w '%{http_code}' -H "If-None-Match: $etag" "$base/badge/$serve_number.svg")
[[ $status == 304 ]] || fail "badge with its ETag: HTTP $status, expected 304"
curl -sS -o "$work/x.svg" "$base/badge/%3Cb%3Ex%26y.svg"
grep -q '>unknown<' "$work/x.svg" || fail "badge of nonsense: not unknown: $(cat "$work/x.svg")"
! grep -q '<b>' "$work/x.svg" || fail "badge: request text not escaped"
curl -sS -D "$work/p.txt" -o "$work/index.html" "$base/"
grep -qi "^content-security-policy: default-src 'none'; script-src 'self'" "$work/p.txt" || fail "page: no strict CSP"
grep -q '<script src="/app.js"' "$work/index.html" || fail "page: not the page"
! grep -qi 'https\?://' "$work/index.html" || fail "page: refers to another site"
curl -sS -o "$work/app.js" "$base/app.js"
! grep -Eq '\.innerHTML|outerHTML|insertAdjacentHTML|document\.write' "$work/app.js" || fail "app.js inserts HTML"
! grep -qi 'access-control-allow-origin' "$work/p.txt" || fail "CORS headers without --cors"
curl -sS -o "$work/metrics.txt" "$base/metrics"
grep -q '^pith_checks_total{verdict="verified"} 2$' "$work/metrics.txt" || fail "metrics: verified count: $(grep verdict "$work/metrics.txt")"
grep -q '^pith_checks_total{verdict="failed"} 1$' "$work/metrics.txt" || fail "metrics: failed count"
grep -q '^pith_check_duration_seconds_count ' "$work/metrics.txt" || fail "metrics: no latency histogram"
grep -q '^pith_rejected_too_large_total 2$' "$work/metrics.txt" || fail "metrics: 413 count: $(grep too_large "$work/metrics.txt")"
ls "$work/kept"/*.pdf >/dev/null 2>&1 || fail "--keep wrote no upload"
[[ $(ls "$work/kept"/*.json | wc -l) -ge 5 ]] || fail "--keep wrote too few answers"
stop_serve

# ---- a check child that fails (a memory limit too small to run): verdict
# error, counted as a child failure, and the server still up ----------------------
start_serve --check-memory 16MiB
status=$(post "$work/c.json" -F "file=@$work/stamped.pdf")
[[ $status == 200 && $(json "$work/c.json" 'r["verdict"]') == error ]] || fail "child over its memory limit: HTTP $status, not error"
curl -sS -o "$work/metrics.txt" "$base/metrics"
grep -q '^pith_child_failures_total 1$' "$work/metrics.txt" || fail "metrics: child failure not counted: $(cat "$work/c.json")"
[[ $(curl -sS "$base/healthz") == ok ]] || fail "/healthz not ok after a child failure"
stop_serve

# ---- busy: jobs 1, queue 0, sixteen uploads at once: 200 or 503 + Retry-After ----
start_serve --jobs 1 --queue 0 --cors https://journal.example
for i in $(seq 1 16); do
  curl -sS -D "$work/busy-$i.h" -o "$work/busy-$i.json" -w '%{http_code}\n' -F "file=@$work/stamped.pdf" \
    "$base/api/v1/check" >"$work/busy-$i.status" &
done
wait $(jobs -p | grep -v "^$serve_pid$") 2>/dev/null || true
busy=0
for i in $(seq 1 16); do
  s=$(cat "$work/busy-$i.status")
  case $s in
    200) ;;
    503) busy=$((busy + 1)); grep -qi '^retry-after: ' "$work/busy-$i.h" || fail "503 without Retry-After" ;;
    *) fail "busy test: HTTP $s" ;;
  esac
done
((busy > 0)) || fail "sixteen uploads at once with --jobs 1 --queue 0: no 503"
grep -qi '^access-control-allow-origin: https://journal.example' "$work/busy-1.h" || fail "--cors: no Allow-Origin"
[[ $(curl -sS "$base/healthz") == ok ]] || fail "/healthz not ok after the busy test"
stop_serve

# ---- online: the registry on 127.0.0.1 (pith-test-server), compared as pith-check does ----
"$bin/../tests/pith-test-server" --root "$work/mirror" --seconds 120 >"$work/url" 2>/dev/null &
registry_pid=$!
for _ in $(seq 1 200); do [[ -s "$work/url" ]] && break; sleep 0.02; done
serve_registry=$(head -n1 "$work/url")
rm -rf "$work/cache"
start_serve
status=$(post "$work/on.json" -F "file=@$work/stamped.pdf")
[[ $status == 200 && $(json "$work/on.json" 'r["verdict"]') == verified ]] || fail "online: HTTP $status, not verified"
[[ $(json "$work/on.json" 'any(c["code"] == "online.verified" and c["status"] == "pass" for c in r["checks"])') == True ]] ||
  fail "online: no online.verified check: $(head -c 800 "$work/on.json")"
"$bin/pith-check" --resolver "$serve_registry" --timeout 5 --cache-dir "$work/cache-cli" --json "$work/stamped.pdf" \
  >"$work/on-cli.json" || true
# The same checks and verdict as pith-check's; but a public answer names "the
# registry", never its URL or the service's cache (issue 23).
[[ $(/usr/bin/python3 -c 'import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
codes = lambda r: [(c["code"], c["status"]) for c in r["checks"]]
print(a["verdict"] == b["verdict"] and codes(a) == codes(b))' "$work/on.json" "$work/on-cli.json") == True ]] ||
  fail "online: the service's checks differ from pith-check --json's"
! grep -qF -e "$serve_registry" -e "$work" "$work/on.json" || fail "online: the answer names the registry's URL or a local path"
# Disclosure (issue 23): what a lookup that fails answers names no base, path
# or per-URL status (the operator's log has them): an unknown number, its
# badge, a short form, a PDF naming an unknown number, a closed mirror.
unknown=pith:2021:AAAAAAAAAAAAAAAAAAAAAAAAAA
/usr/bin/python3 "$src/tests/support/many_annotations_pdf.py" 3 "$work/unknown.pdf" "$unknown"
stop_serve
start_serve --mirror http://127.0.0.1:9 --mirror "file://$work/mirror"
curl -sS -o "$work/d1.json" "$base/api/v1/pith/$unknown"
curl -sS -o "$work/d2.json" "$base/api/v1/pith/pith:AAAAAAAA"
curl -sS -o "$work/d3.svg" "$base/badge/$unknown.svg"
post "$work/d4.json" -F "file=@$work/unknown.pdf" >/dev/null
[[ $(json "$work/d1.json" 'r["check"]["error"]') == "no record for $unknown at the configured registry; check the number" ]] ||
  fail "disclosure: unknown number: $(cat "$work/d1.json")"
for answer in "$work"/d[1-4].*; do
  ! grep -qF -e "$serve_registry" -e "$work" -e 127.0.0.1 -e file:/// -e ": HTTP 404" "$answer" ||
    fail "disclosure: $(basename "$answer") names a base, a path or a status: $(cat "$answer")"
done
grep -q "lookup $unknown: no record for $unknown at .*attempts: .*HTTP 404" "$work/serve.log" ||
  fail "disclosure: the operator's log lacks the attempts: $(tail -5 "$work/serve.log")"
stop_serve
kill "$registry_pid" 2>/dev/null || true
unset serve_registry

# ---- a slow sender past --upload-deadline: 408, and the server still up --------
start_serve --upload-deadline 1
status=$(PYTHONPATH="$src/tests/support" /usr/bin/python3 - "${base#http://}" "$work/stamped.pdf" <<'PY'
import socket, sys, time
from raw_http import read_all, status_of
host, port = sys.argv[1].split(":")
body = open(sys.argv[2], "rb").read()
s = socket.create_connection((host, int(port)), timeout=30)
s.sendall(b"POST /api/v1/check HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: %d\r\n\r\n" % len(body))
try:
    for at in range(0, len(body), 1000):
        s.sendall(body[at:at + 1000])
        time.sleep(0.1)
except OSError:
    pass
print(status_of(read_all(s)) or "none")
PY
)
[[ $status == 408 ]] || fail "slow sender past --upload-deadline: HTTP $status, expected 408"
[[ $(curl -sS "$base/healthz") == ok ]] || fail "/healthz not ok after a slow sender"
stop_serve
serve_pid=""

# ---- usage errors: exit 2 --------------------------------------------------------
rc=0; "$bin/pith-serve" --listen nonsense 2>/dev/null || rc=$?
[[ $rc == 2 ]] || fail "--listen nonsense: exit $rc, expected 2"
rc=0; "$bin/pith-serve" --listen 192.0.2.1:1 2>/dev/null || rc=$?
[[ $rc == 2 ]] || fail "--listen on a foreign address: exit $rc, expected 2"
"$bin/pith-serve" --help >"$work/help.txt"  # whole: grep -q closing the pipe early would be SIGPIPE
grep -q 'POST /api/v1/check' "$work/help.txt" || fail "--help does not list the endpoints"

exit "$failures"
