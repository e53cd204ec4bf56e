#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# pith-serve's connection limits, one by one (issue 23), with short deadlines:
# a head that never ends is 408 after --head-timeout (the whole head, however
# it trickles), a body that trickles is 408 after --upload-deadline, a head
# over 16 KiB or 64 fields is 431, an idle keep-alive connection is closed
# after --keep-alive-timeout, connections over --max-connections-per-client
# are 503 at once while another address is served, `Expect: 100-continue` is
# answered, an upload over the budget is 503 before its body is read, and no
# error body names a path, a base or a per-URL status.
set -euo pipefail
source "$(dirname "$0")/../support/scratch_env.sh"  # $work, $src, $bin, $data; offline, reproducible
need_tools pith-serve
kill_at_exit serve_pid
source "$src/tests/support/serve_fixture.sh"

mkdir -p "$work/mirror"
start_serve --jobs 1 --queue 1 --head-timeout 1 --upload-deadline 2 --keep-alive-timeout 1 \
  --max-connections-per-client 4 --max-upload 1MiB

PYTHONPATH="$src/tests/support" /usr/bin/python3 - "${base#http://}" "$work" <<'PY'
import socket, sys, threading, time
from raw_http import RawHttp, read_all, status_of, body_of
host, port = sys.argv[1].split(":")
work = sys.argv[2]
http = RawHttp(host, port)
connect, expect, failures = http.connect, http.expect, http.failures

bodies = []

# A head trickled one line every 0.3 s: 408 after the 1 s head deadline, not after 10 lines.
s = connect()
started = time.monotonic()
s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
answer = b""
for _ in range(20):
    try:
        s.sendall(b"X-Slow: 1\r\n")
    except OSError:
        break
    time.sleep(0.3)
    s.setblocking(False)
    try:
        answer += s.recv(65536)
    except BlockingIOError:
        pass
    except OSError:
        break
    s.setblocking(True)
    if answer:
        break
s.settimeout(5)
answer += read_all(s)
took = time.monotonic() - started
expect("slowloris head", status_of(answer), 408)
if took > 4:
    failures.append(f"slowloris head: answered after {took:.1f} s, the head deadline is 1 s")
bodies.append(answer)

# A body trickled: 408 after the 2 s upload deadline.
s = connect()
s.sendall(b"POST /api/v1/check HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n")
for _ in range(12):
    try:
        s.sendall(b"%")
    except OSError:
        break
    time.sleep(0.4)
answer = read_all(s)
expect("slow body", status_of(answer), 408)
bodies.append(answer)

# A head over 16 KiB, and one with 65 fields: 431.
s = connect()
s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 20000 + b"\r\n\r\n")
answer = read_all(s)
expect("head over 16 KiB", status_of(answer), 431)
bodies.append(answer)
s = connect()
s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n" + b"".join(b"X-F%d: 1\r\n" % i for i in range(65)) + b"\r\n")
answer = read_all(s)
expect("65 header fields", status_of(answer), 431)
bodies.append(answer)

# Keep-alive: two requests on one connection, then closed once idle for 1 s.
s = connect()
s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
first = s.recv(65536)
s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
second = s.recv(65536)
expect("keep-alive, two requests", (status_of(first), status_of(second)), (200, 200))
started = time.monotonic()
rest = read_all(s)
idle = time.monotonic() - started
expect("idle keep-alive closed", rest, b"")
if not 0.5 < idle < 4:
    failures.append(f"idle keep-alive: closed after {idle:.1f} s, expected about 1 s")

# Expect: 100-continue: the interim answer, then the verdict.
s = connect()
pdf = b"not a pdf"
s.sendall(b"POST /api/v1/check HTTP/1.1\r\nHost: x\r\nConnection: close\r\nExpect: 100-continue\r\n"
          b"Content-Length: %d\r\n\r\n" % len(pdf))
interim = s.recv(65536)
expect("Expect: 100-continue", status_of(interim), 100)
s.sendall(pdf)
answer = interim + read_all(s)
expect("after 100-continue", status_of(answer[answer.find(b"HTTP/1.1 200"):]) if b"HTTP/1.1 200" in answer else None, 200)

# Error bodies of the API (404, 405, 413, 400) are collected for the disclosure check.
time.sleep(0.3)
for request in (b"GET /nothing HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
                b"GET /api/v1/check HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
                b"POST /api/v1/check HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 2000000\r\n\r\n",
                b"POST /api/v1/check HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: multipart/form-data; boundary=B\r\n"
                b"Content-Length: 5\r\n\r\nhello",
                b"GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc",
                b"BROKEN\r\n\r\n"):
    s = connect()
    s.sendall(request)
    answer = read_all(s)
    if status_of(answer) not in (400, 404, 405, 413):
        failures.append(f"error answer: {answer[:80]!r}")
    bodies.append(answer)

open(f"{work}/error-bodies", "wb").write(b"\n".join(body_of(a) for a in bodies))
for f in failures:
    print("FAIL: " + f, file=sys.stderr)
sys.exit(1 if failures else 0)
PY

# Disclosure: no error body names this machine's paths, a base or a status of a URL.
! grep -qF -e "$work" -e file:// -e 127.0.0.1 -e ": HTTP" "$work/error-bodies" ||
  fail "an error body names a path, a base or a status: $(cat "$work/error-bodies")"
echo "ok: no error body names a path, a base or a per-URL status"
[[ $(curl -sS "$base/healthz") == ok ]] || fail "/healthz not ok after the limits"
curl -sS "$base/metrics" >"$work/metrics"
grep -q '^pith_requests_timed_out_total{part="head"} [1-9]' "$work/metrics" || fail "metrics: head timeouts not counted"
grep -q '^pith_requests_timed_out_total{part="body"} [1-9]' "$work/metrics" || fail "metrics: body timeouts not counted"
stop_serve
serve_pid=""

# An upload the budget cannot hold now is 503 before its body is read: the
# smallest budget, taken by a slow upload in flight.
start_serve --jobs 1 --queue 1 --max-upload 4MiB --check-memory 256MiB --memory-budget 600MiB --upload-deadline 5
budget_line=$(grep -o 'memory budget [^)]*' "$work/serve.log")
echo "   $budget_line"
/usr/bin/python3 - "${base#http://}" <<'PY'
import socket, sys, time
host, port = sys.argv[1].split(":")
holders = []
# Each announces 4 MiB and sends most of it, then waits: the reservations
# grow as bytes arrive (twice each), until the pool is spent.
for i in range(40):
    s = socket.socket()
    s.settimeout(10)
    s.bind((f"127.0.0.{10 + i // 20}", 0))
    s.connect((host, int(port)))
    try:
        s.sendall(b"POST /api/v1/check HTTP/1.1\r\nHost: x\r\nContent-Length: 4194304\r\n\r\n" + b"\0" * 4000000)
    except OSError:
        pass
    holders.append(s)
refused = 0
for s in holders:
    s.settimeout(0.5)
    try:
        if s.recv(65536).startswith(b"HTTP/1.1 503"):
            refused += 1
    except OSError:
        pass
print(f"ok: {refused} of 40 large uploads in flight at once refused with 503 for memory")
sys.exit(0 if 0 < refused < 40 else 1)
PY
curl -sS "$base/metrics" | grep -q '^pith_rejected_memory_total [1-9]' || fail "metrics: memory refusals not counted"
[[ $(curl -sS "$base/healthz") == ok ]] || fail "/healthz not ok after the budget test"
stop_serve
serve_pid=""

# Over 4 connections from one address: 503 at once; another address is served
# meanwhile. Its own server, with a head deadline far beyond the test: the held
# connections send nothing and must not time out and free their slots on a
# loaded machine (they did with --head-timeout 1).
start_serve --jobs 1 --queue 1 --head-timeout 120 --max-connections-per-client 4
PYTHONPATH="$src/tests/support" /usr/bin/python3 - "${base#http://}" <<'PY'
import sys
from raw_http import RawHttp, read_all, status_of
http = RawHttp(*sys.argv[1].split(":"))
connect = lambda source="127.0.0.1": http.connect(source, timeout=30)
expect, failures = http.expect, http.failures

# Over 4 connections from one address: 503 at once; another address is served meanwhile.
held = [connect() for _ in range(4)]
s = connect()
s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
answer = read_all(s)
expect("fifth connection from 127.0.0.1", status_of(answer), 503)
if b"retry-after" not in answer.lower():
    failures.append("connection cap: 503 without Retry-After")
s = connect("127.0.0.2")
s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
expect("another address meanwhile", status_of(read_all(s)), 200)
for h in held:
    h.close()

for f in failures:
    print("FAIL: " + f, file=sys.stderr)
sys.exit(1 if failures else 0)
PY
curl -sS "$base/metrics" | grep -q '^pith_connections_refused_total [1-9]' || fail "metrics: refused connections not counted"
# A second server on the same port: one line, the address and the reason once
# (it said "cannot bind (cannot bind (…))"), exit 2.
rc=0
"$bin/pith-serve" --listen "${base#http://}" --offline --cache-dir "$work/cache2" >/dev/null 2>"$work/second.err" || rc=$?
((rc == 2)) || fail "a second pith-serve on the same port: exit $rc, expected 2"
grep -qx "pith-serve: --listen ${base#http://}: cannot bind (Address already in use)" "$work/second.err" ||
  fail "a second pith-serve on the same port: $(cat "$work/second.err")"
stop_serve
serve_pid=""
