# SPDX-License-Identifier: GPL-3.0-or-later
# Sourced by the integration scripts: one place for the expectation helpers.
# fail is for every script; expect_* need $check (the tool) and $work (a
# scratch dir).
# fail MESSAGE: records a failure; the script exits non-zero at its end.
failures=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

# expect_exit CODE ARGS...: runs pith-check (no stdin), keeps stdout/stderr in
# $work/out and $work/err, and shows both when the exit code is not CODE.
expect_exit() {
  local want=$1 got=0
  shift
  "$check" "$@" >"$work/out" 2>"$work/err" </dev/null || got=$?
  if [[ $got != "$want" ]]; then
    fail "pith-check $* exited $got, expected $want"
    sed 's/^/    /' "$work/out" "$work/err" >&2
  fi
}
# run WANT WHAT CMD...: CMD (no stdin) exits WANT; its stdout and stderr in
# $work/out and $work/err, both shown when it does not.
run() {
  local want=$1 what=$2 rc=0
  shift 2
  "$@" >"$work/out" 2>"$work/err" </dev/null || rc=$?
  [[ $rc == "$want" ]] || fail "$what: exit $rc, expected $want: $(cat "$work/out" "$work/err" | head -c 900)"
}
expect_out() { grep -q -- "$1" "$work/out" || fail "stdout lacks '$1'"; }
expect_err() { grep -q -- "$1" "$work/err" || fail "stderr lacks '$1'"; }
