# SPDX-License-Identifier: GPL-3.0-or-later
# Shared by the pith-serve tests (source it; needs $bin, $data, $src, $work):
#   make_serve_samples   $work/stamped.pdf (zoo paper.pdf stamped with the test
#                        bundle), $work/tampered.pdf (its embedded bundle
#                        edited), $work/hostile/*.pdf, and a file:// mirror
#                        $work/mirror serving the record
#   start_serve ARGS...  starts pith-serve on 127.0.0.1 at a free port, offline,
#                        with that mirror (or $serve_mirror's directory when
#                        set; online with $serve_registry as its resolver when
#                        set), its cache $work/cache; sets $serve_pid and $base
#   stop_serve           SIGTERM, and asserts exit 0
serve_number=pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65
serve_bundle="$data/JFLLIOJUI2M3KX3FLLGP4N2V65.bundle.json"

make_serve_samples() {
  local zoo=${PITH_ZOO_DIR:-$PWD/zoo}
  "$src/tests/support/pdf_zoo.sh" "$zoo" >/dev/null
  SOURCE_DATE_EPOCH=1700000000 "$bin/pith-stamp" --pith "$serve_number" --bundle "$serve_bundle" \
    -o "$work/stamped.pdf" "$zoo/paper.pdf" >/dev/null
  cp "$work/stamped.pdf" "$work/tampered.pdf"
  # The embedded bundle's built_at, edited after the original's end: the
  # bundle's hash no longer matches (as pith_check_pdf.sh's t-bundle).
  /usr/bin/python3 - "$work/tampered.pdf" "$(stat -c %s "$zoo/paper.pdf")" <<'PY'
import sys
path, start = sys.argv[1], int(sys.argv[2])
data = bytearray(open(path, "rb").read())
at = data.find(b'"built_at":"2026-08-09', start)
assert at >= 0, "no built_at in the stamp"
data[at:at + 22] = b'"built_at":"2027-08-09'
open(path, "wb").write(data)
PY
  # Page 3's text changed by a later incremental update: altered.
  /usr/bin/python3 "$src/tests/support/forgeries.py" edit-page "$work/stamped.pdf" "$work/altered.pdf" 3
  /usr/bin/python3 "$src/tests/support/hostile_pdfs.py" "$work/hostile" >/dev/null
  mkdir -p "$work/mirror/pith/${serve_number##*:}"
  cp "$serve_bundle" "$work/mirror/pith/${serve_number##*:}/bundle.json"
}

start_serve() {
  : >"$work/serve.log"
  local registry=(--offline --mirror "file://${serve_mirror:-$work/mirror}")
  [[ -n ${serve_registry:-} ]] && registry=(--resolver "$serve_registry" --timeout 5)
  "$bin/pith-serve" --listen 127.0.0.1:0 "${registry[@]}" --cache-dir "$work/cache" "$@" \
    2>"$work/serve.log" &
  serve_pid=$!
  local port=""
  for _ in $(seq 1 200); do
    port=$(sed -n 's/.*listening on http:\/\/127\.0\.0\.1:\([0-9]*\).*/\1/p' "$work/serve.log")
    [[ -n $port ]] && break
    kill -0 "$serve_pid" 2>/dev/null || break
    sleep 0.05
  done
  if [[ -z $port ]]; then
    echo "FAIL: pith-serve did not start: $(cat "$work/serve.log")" >&2
    exit 1
  fi
  base="http://127.0.0.1:$port"
}

stop_serve() {
  kill -TERM "$serve_pid"
  local rc=0
  wait "$serve_pid" || rc=$?
  [[ $rc == 0 ]] || fail "pith-serve exited $rc after SIGTERM: $(tail -5 "$work/serve.log")"
}
