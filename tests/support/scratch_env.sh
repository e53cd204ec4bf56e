# SPDX-License-Identifier: GPL-3.0-or-later
# Sourced by integration scripts that run the tools many times: a scratch
# directory ($work) removed at exit, after the commands added to at_exit (a
# server or run still up: at_exit+=('kill "$server_pid" ...')); and an
# environment that gives the same bytes every run (SOURCE_DATE_EPOCH, no
# colour, config and cache under $work) and never reaches the internet (the
# default resolver is a closed loopback port, no mirrors).
work=$(mktemp -d)
at_exit=()
run_at_exit() {
  local command
  for command in "${at_exit[@]}"; do eval "$command" || true; done
  rm -rf "$work"
}
trap run_at_exit EXIT
export SOURCE_DATE_EPOCH=1700000000 NO_COLOR=1 XDG_CONFIG_HOME="$work/config" XDG_CACHE_HOME="$work/xdg-cache"
export PITH_RESOLVER=http://127.0.0.1:9
unset PITH_MIRRORS
