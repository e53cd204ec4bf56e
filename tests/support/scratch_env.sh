# SPDX-License-Identifier: GPL-3.0-or-later
# The one header of the shell tests: every tests/integration/*.sh sources it
# right after `set -euo pipefail`:
#   source "$(dirname "$0")/../support/scratch_env.sh"
# and then has
# - $work, a scratch directory removed at exit, after the commands added to
#   at_exit (a server or run still up: at_exit+=('kill "$server_pid" ...'));
#   kept, and named on stderr, when PITH_KEEP_TEST_FILES (or KEEP) is set;
# - the trees ctest names (tests/CMakeLists.txt): $src (PITH_SOURCE_DIR, else
#   the checkout this file is in), $data (PITH_TEST_DATA, else tests/data)
#   and $bin (PITH_BIN, the built tools: `need_tools TOOL...` stops the
#   script when one is not built), with the test-only tools built beside
#   them: $signer (pith-test-sign) and $test_server (pith-test-server);
#   $check and $stamp are the two tools most scripts run;
# - the fixture paper of tests/data: $number (pith:2021:JFLL…), $body (the
#   number's last part) and $bundle (its bundle, signed by the registry);
#   fixture_paper DIR makes DIR/paper.pdf, two pages by pdflatex with that
#   record's title (so pith-check can bind the record to it);
#   fixture_mirror: $work/mirror, a file:// mirror holding that bundle, and
#   $registry, the options that resolve the number from it alone (--offline
#   --mirror … --cache-dir $work/cache);
# - fail MESSAGE: says FAIL and stops the script (cli_expect.sh, sourced
#   after this, makes it count the failure and go on instead);
# - kill_at_exit NAME: the process whose pid $NAME holds at exit (none while
#   it is empty; it starts empty) is killed then;
# - peak_rss_kib OUT -- COMMAND...: COMMAND's peak RSS (KiB), bounded in time;
#   $hostile_rss_limit_kib, the most a hostile file may make a tool's
#   process tree hold (issue 32: 256 MiB), the one bound of the tests that
#   measure it;
# - use_zoo [>/dev/null]: the PDF zoo (support/pdf_zoo.sh) made or brought up
#   to date in PITH_ZOO_DIR (else ./zoo, shared by the tests of a build); $zoo;
# - start_test_server ROOT [SECONDS]: pith-test-server serves ROOT on
#   127.0.0.1 (SECONDS at most, default 120), $base its URL; stop_test_server (or the exit) stops it;
# - an environment that gives the same bytes every run (SOURCE_DATE_EPOCH, no
#   colour, config and cache under $work: never the user's trust keys or
#   cache) and never reaches the internet (the default resolver is a closed
#   loopback port, no mirrors). A script that needs otherwise says so after
#   sourcing this (`unset PITH_RESOLVER`, its own XDG_CACHE_HOME).
src=${PITH_SOURCE_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
data=${PITH_TEST_DATA:-$src/tests/data}
bin=${PITH_BIN:-}
signer=${PITH_TEST_SIGN:-$bin/../tests/pith-test-sign}
test_server=${PITH_TEST_SERVER:-$bin/../tests/pith-test-server}
check="$bin/pith-check"
stamp="$bin/pith-stamp"
number=pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65
body=${number##*:}
bundle="$data/$body.bundle.json"

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# need_tools TOOL...: each must be built in $bin (PITH_BIN).
need_tools() {
  local tool
  : "${PITH_BIN:?PITH_BIN must name the directory of the built tools}"
  for tool in "$@"; do
    [[ -x $bin/$tool ]] || { echo "FAIL: $tool is not built in $bin" >&2; exit 1; }
  done
}

work=$(mktemp -d "${TMPDIR:-/tmp}/pith-$(basename "$0" .sh).XXXXXX")
at_exit=()
run_at_exit() {
  local command
  for command in "${at_exit[@]}"; do eval "$command" || true; done
  if [[ -n ${PITH_KEEP_TEST_FILES:-${KEEP:-}} ]]; then
    echo "kept $work" >&2
  else
    rm -rf "$work"
  fi
}
trap run_at_exit EXIT
kill_at_exit() {
  printf -v "$1" '%s' ""
  at_exit+=("[[ -n \${$1:-} ]] && kill \"\$$1\" 2>/dev/null")
}

fixture_paper() {
  mkdir -p "$1"
  cat >"$1/paper.tex" <<'TEX'
\documentclass{article}
\usepackage{hyperref}
\begin{document}\title{Layered gradient accumulation and modular pipeline parallelism: fast and efficient training of large language models}\author{A}\maketitle Text.\newpage Two.\end{document}
TEX
  (cd "$1" && pdflatex -interaction=batchmode paper.tex >/dev/null 2>&1)
  [[ -s $1/paper.pdf ]] || { echo "FAIL: pdflatex made no PDF" >&2; exit 1; }
}

fixture_mirror() {
  mkdir -p "$work/mirror/pith/$body"
  cp "$bundle" "$work/mirror/pith/$body/bundle.json"
  registry=(--offline --mirror "file://$work/mirror" --cache-dir "$work/cache")
}

hostile_rss_limit_kib=$((256 * 1024))

# peak_rss_kib OUT -- COMMAND...: runs COMMAND (its exit status in $work/rc),
# stdout in OUT, stderr in $work/stderr; prints the peak RSS in KiB of it and
# its children (GNU time %M). It must answer within $wall seconds (default
# 90: beyond a child's 60 s wall budget, so a tool that does not is stuck).
peak_rss_kib() {
  local out=$1 rc=0
  shift 2
  timeout "${wall:-90}" /usr/bin/time -f '%M' -o "$work/rss" "$@" >"$out" 2>"$work/stderr" || rc=$?
  echo "$rc" >"$work/rc"
  ((rc != 124)) || fail "$* did not answer within ${wall:-90} s"
  tail -1 "$work/rss"
}

use_zoo() {
  zoo=${PITH_ZOO_DIR:-$PWD/zoo}
  "$src/tests/support/pdf_zoo.sh" "$zoo"
}

kill_at_exit test_server_pid
start_test_server() {
  # Emptied here, not by the redirection below: that happens in the background
  # job, maybe after the loop has read a previous server's URL.
  : >"$work/url"
  "$test_server" --root "$1" --seconds "${2:-120}" >"$work/url" 2>"$work/server.log" &
  test_server_pid=$!
  for _ in $(seq 1 200); do [[ -s "$work/url" ]] && break; sleep 0.02; done
  base=$(head -n1 "$work/url")
  [[ "$base" == http://127.0.0.1:* ]] || { echo "pith-test-server did not start" >&2; exit 2; }
}
stop_test_server() {
  kill "$test_server_pid"
  wait "$test_server_pid" || true
  test_server_pid=""
}

export SOURCE_DATE_EPOCH=1700000000 NO_COLOR=1 XDG_CONFIG_HOME="$work/config" XDG_CACHE_HOME="$work/xdg-cache"
export PITH_RESOLVER=http://127.0.0.1:9
unset PITH_MIRRORS
