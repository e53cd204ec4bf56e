#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 23, redirects: a registry base on 127.0.0.1 that answers every path
# with a plain-HTTP 302 to an internal listener (another port) or to another
# host. pith-check refuses the hop with the reason and the internal listener
# never sees a GET; the same hop to a base the operator configured
# (--mirror) is followed; pith-serve's public answer names neither, its log
# has the reason.
set -euo pipefail
source "$(dirname "$0")/../support/scratch_env.sh"  # $work, $src, $bin, $data; offline, reproducible
need_tools pith-check pith-serve
pids=()
at_exit+=('for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done')


# One tiny server on 127.0.0.1: `serve` answers /pith/... with the test
# bundle and logs every GET; `redirect TARGET` answers every path with a 302
# to TARGET + the path. Prints its port on stdout's first line.
cat >"$work/server.py" <<'PY'
import http.server, sys
mode, arg, log = sys.argv[1], sys.argv[2], sys.argv[3]
class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        with open(log, "a") as f:
            f.write(self.path + "\n")
        if mode == "redirect":
            self.send_response(302)
            self.send_header("Location", arg + self.path)
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif self.path.endswith("/bundle.json") and "/pith/" in self.path and ".well-known" not in self.path:
            body = open(arg, "rb").read()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        else:
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
    def log_message(self, *args):
        pass
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
PY
# start NAME MODE ARG: a server; sets ${NAME}_url
start() {
  : >"$work/$1.log"
  /usr/bin/python3 "$work/server.py" "$2" "$3" "$work/$1.log" >"$work/$1.port" &
  pids+=($!)
  for _ in $(seq 1 200); do [[ -s "$work/$1.port" ]] && break; sleep 0.02; done
  printf -v "${1}_url" 'http://127.0.0.1:%s' "$(head -n1 "$work/$1.port")"
}

start internal serve "$data/$body.bundle.json"
start to_internal redirect "$internal_url/internal"
start to_other redirect "http://other-host.invalid"

check() { "$bin/pith-check" --cache-dir "$work/cache" --timeout 5 "$@" >"$work/out" 2>"$work/err"; }

# A redirect to another port of 127.0.0.1: refused, never connected to.
rc=0
check --resolver "$to_internal_url" "$number" || rc=$?
((rc == 2)) || fail "redirect to an internal listener: exit $rc, expected 2: $(cat "$work/err")"
grep -q "redirect to 127.0.0.1:${internal_url##*:} (a loopback, link-local or private address), which is not a configured base, refused" \
  "$work/err" || fail "redirect to an internal listener: no reason: $(cat "$work/err")"
[[ ! -s "$work/internal.log" ]] || fail "the internal listener got GETs: $(cat "$work/internal.log")"
echo "ok: a redirect to 127.0.0.1:${internal_url##*:} is refused and never reaches it"

# A redirect to another host: refused with the reason.
rc=0
check --resolver "$to_other_url" "$number" || rc=$?
((rc == 2)) || fail "redirect to another host: exit $rc"
grep -q "redirect to other-host.invalid:80, which is not a configured base, refused" "$work/err" ||
  fail "redirect to another host: no reason: $(cat "$work/err")"
echo "ok: a redirect to another host is refused"

# The same hop to a base the operator configured is followed.
check --resolver "$to_internal_url" --mirror "$internal_url" "$number" ||
  fail "redirect to a configured mirror: not followed: $(cat "$work/err")"
grep -q "^/internal/pith/$body/bundle.json" "$work/internal.log" || fail "the configured mirror was not reached by the redirect"
echo "ok: a redirect to a configured base is followed"

# pith-serve: the public answer names no base; the operator's log has the reason.
: >"$work/internal.log"
rm -rf "$work/cache"
"$bin/pith-serve" --listen 127.0.0.1:0 --resolver "$to_internal_url" --cache-dir "$work/serve-cache" --timeout 5 \
  2>"$work/serve.log" &
serve_pid=$!
pids+=("$serve_pid")
for _ in $(seq 1 200); do grep -q "listening on" "$work/serve.log" && break; sleep 0.05; done
base=$(sed -n 's/.*listening on \(http:\/\/[0-9.:]*\).*/\1/p' "$work/serve.log")
[[ -n $base ]] || fail "pith-serve did not start: $(cat "$work/serve.log")"
curl -sS "$base/api/v1/pith/$number" >"$work/answer.json"
grep -q '"status":"unknown"' "$work/answer.json" || fail "pith-serve: $(cat "$work/answer.json")"
! grep -qF -e 127.0.0.1 -e redirect "$work/answer.json" || fail "pith-serve's answer names a base: $(cat "$work/answer.json")"
grep -q "lookup $number: .*redirect to 127.0.0.1:${internal_url##*:} .*not a configured base, refused" "$work/serve.log" ||
  fail "pith-serve's log lacks the reason: $(cat "$work/serve.log")"
[[ ! -s "$work/internal.log" ]] || fail "pith-serve reached the internal listener"
echo "ok: pith-serve refuses the redirect; its answer names no base, its log says why"
