#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# pith-check on corrupted bundles (zzuf bit flips): it must never crash or
# hang, exit only with a documented code, and exit 0 only when the signed
# content is unchanged (the unsigned bundle_signature.signed_at aside).
set -euo pipefail
source "$(dirname "$0")/../support/scratch_env.sh"  # $work, $src, $bin, $data; offline, reproducible
need_tools pith-check
if ! command -v zzuf >/dev/null; then
  echo "zzuf not installed (scripts/install-deps installs it)" >&2
  exit 1
fi
runs=${PITH_FUZZ_RUNS:-300}
failures=0
declare -A seen=()
for ((seed = 1; seed <= runs; seed++)); do
  # About two flipped bits per file, sometimes more.
  ratio=$([[ $((seed % 10)) -eq 0 ]] && echo 0.0005 || echo 0.00002)
  zzuf -s "$seed" -r "$ratio" <"$bundle" >"$work/m.json"
  rc=0
  timeout 20 "$check" --json "$work/m.json" >"$work/out" 2>"$work/err" || rc=$?
  seen[$rc]=1
  case $rc in
    0)
      if ! /usr/bin/python3 - "$bundle" "$work/m.json" <<'PY'; then
import json, sys
def signed(path):
    d = json.load(open(path, encoding="utf-8"))
    d.get("bundle_signature", {}).pop("signed_at", None)
    return d
sys.exit(0 if signed(sys.argv[1]) == signed(sys.argv[2]) else 1)
PY
        echo "FAIL seed $seed: exit 0 for changed signed content" >&2
        failures=$((failures + 1))
      fi
      ;;
    1 | 2 | 4) ;;
    *)
      echo "FAIL seed $seed: exit $rc (crash, hang or undocumented code)" >&2
      cat "$work/err" >&2
      failures=$((failures + 1))
      ;;
  esac
done
echo "pith_check_fuzz: $runs runs, exit codes seen: ${!seen[*]}"
((failures == 0))
