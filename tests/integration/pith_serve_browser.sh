#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# pith-serve's page in headless Chromium (tests/support/serve_browser.py):
# the stamped sample, a tampered copy, an altered one (page 3 edited after
# stamping) and a registry bundle (whose words must not say a paper was
# shown) uploaded through the page, verdict
# and title read from the DOM, at desktop and phone width; screenshots in
# build/tests/artifacts. Skips (exit 77) only when Chromium cannot start.
# PITH_SCREENSHOT_TO=docs/img/pith-serve.png also copies the first screenshot
# there (the README's picture; never set by ctest).
set -euo pipefail

source "$(dirname "$0")/../support/scratch_env.sh"  # $work, $src, $bin, $data; offline, reproducible
need_tools pith-serve pith-stamp
kill_at_exit serve_pid

source "$src/tests/support/cli_expect.sh"
source "$src/tests/support/serve_fixture.sh"

if [[ ! -x /usr/bin/python3 ]] || ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
  echo "SKIP: chromium, chromium-driver or /usr/bin/python3 is not installed"
  exit 77
fi

make_serve_samples
start_serve --jobs 2
rc=0
PITH_ALTERED_PDF="$work/altered.pdf" /usr/bin/python3 "$src/tests/support/serve_browser.py" "$base" "$work/stamped.pdf" "$work/tampered.pdf" \
  "$serve_bundle" "$PWD/artifacts" ${PITH_SCREENSHOT_TO:+"$PITH_SCREENSHOT_TO"} || rc=$?
[[ $rc == 77 ]] && exit 77
[[ $rc == 0 ]] || fail "the page in Chromium (exit $rc); server log: $(tail -5 "$work/serve.log")"
[[ $(curl -sS "$base/healthz") == ok ]] || fail "/healthz not ok after the browser test"
stop_serve
serve_pid=""
exit "$failures"
