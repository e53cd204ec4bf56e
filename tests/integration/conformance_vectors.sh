#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The conformance vectors (tests/vectors/manifest.json): pith-check --offline
# --json gives each input the verdict, exit code, kind and failing check code
# the manifest holds, and the independent checker written from
# docs/registry-format.md alone (tests/vectors/independent_check.py, with
# python3-cryptography) agrees with pith on the verdict and exit code of every
# one. Both trust only the pinned registry key (tests/data/pith-signing-key.json
# for the checker) and the vector's trust_keys.
set -euo pipefail

source "$(dirname "$0")/../support/scratch_env.sh"  # $work, $src, $bin, $data; offline, reproducible
need_tools pith-check
source "$src/tests/support/cli_expect.sh"  # fail MESSAGE, $failures

vectors=$src/tests/vectors
count=0
while IFS='|' read -r input want_verdict want_exit want_kind want_code trust; do
  count=$((count + 1))
  pith_trust=() checker_keys=("$data/pith-signing-key.json")
  for key in $trust; do
    pith_trust+=(--trust-key "$data/$key")
    checker_keys+=("$data/$key")
  done
  name="$input${trust:+ (trusting $trust)}"
  rc=0
  (cd "$vectors" && "$bin/pith-check" --offline "${pith_trust[@]}" --json "$input") >"$work/out.json" 2>/dev/null || rc=$?
  [[ $rc == "$want_exit" ]] || fail "$name: pith-check exit $rc, the manifest says $want_exit"
  got=$(/usr/bin/python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
fails = [c["code"] for c in r["checks"] if c["status"] == "fail"]
code = sys.argv[2]
print(r["verdict"], r["kind"] or "-", "yes" if not code or code in fails else "no:" + ",".join(fails))' "$work/out.json" "$want_code")
  [[ $got == "$want_verdict ${want_kind:--} yes" ]] ||
    fail "$name: pith-check says '$got', the manifest '$want_verdict ${want_kind:--}' with code ${want_code:-none}"
  checker=$(/usr/bin/python3 "$vectors/independent_check.py" "${checker_keys[@]}" -- "$vectors/$input" 2>&1) ||
    fail "$name: the independent checker failed: $checker"
  [[ $checker == "$want_verdict $want_exit" ]] ||
    fail "$name: the independent checker says '$checker', pith and the manifest '$want_verdict $want_exit'"
done < <(/usr/bin/python3 -c 'import json, sys
for v in json.load(open(sys.argv[1]))["vectors"]:
    print("|".join([v["input"], v["verdict"], str(v["exit"]), v["kind"], v.get("code", ""), " ".join(v.get("trust_keys", []))]))' \
  "$vectors/manifest.json")
((count >= 10)) || fail "the manifest has $count vectors"
((failures > 0)) || echo "conformance_vectors: $count vectors, pith and the independent checker agree"
exit "$failures"
