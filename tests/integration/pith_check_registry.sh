#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# pith-check on registry files, like a user would run it: verdicts, exit
# codes, --json, --trust-key, stderr messages. Needs PITH_BIN (built tools)
# and PITH_TEST_DATA (tests/data); pith-test-sign is next to the tests.
set -euo pipefail

source "$(dirname "$0")/../support/scratch_env.sh"  # $work, $src, $bin, $data; offline, reproducible
need_tools pith-check

source "$(dirname "$0")/../support/cli_expect.sh"  # fail, expect_exit, expect_out, expect_err


record="$data/WXNI57C2SJ24QK62DB7DTUREA3.canonical_record.json"

# 1. The real bundle verifies: exit 0, text report.
expect_exit 0 "$bundle"
expect_out "verified pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65"
expect_out "state.recomputed.match"
[[ -s "$work/err" ]] && fail "stderr not empty on success"

# 2. --json: one object per file per line, with the documented fields.
expect_exit 0 --json "$bundle" "$bundle"
[[ $(wc -l <"$work/out") -eq 2 ]] || fail "--json: expected 2 lines"
python3 - "$work/out" <<'PY' || fail "--json output malformed"
import json, sys
for line in open(sys.argv[1]):
    o = json.loads(line)
    assert o["verdict"] == "verified", o
    assert o["pith_number"] == "pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65"
    assert o["file"].endswith(".bundle.json")
    assert any(c["code"] == "bundle.signature.valid" and c["status"] == "pass" for c in o["checks"])
PY

# 3. A bare record: unverifiable (4).
expect_exit 4 "$record"
expect_out "unverifiable pith:2020:WXNI57C2SJ24QK62DB7DTUREA3"

# 4. The state alone: verified through its receipt, says what it could not check.
python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))["state"]))' "$bundle" >"$work/state.json"
expect_exit 0 "$work/state.json"
expect_out "events.unavailable"

# 5. A tampered bundle (one character of the title hash): failed (1).
sed 's/434da334d2825ada/434da334d2825adb/' "$bundle" >"$work/tampered.json"
expect_exit 1 "$work/tampered.json"
expect_out "FAIL record.hash.mismatch"
# The headline names the number the bundle claims, not the one its altered record hashes to.
expect_out "^✗ $work/tampered.json: failed pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65\( — .*\)\?$"

# 6. Worst wins: failed + verified + unverifiable → 1; verified + unverifiable → 4.
expect_exit 1 "$bundle" "$work/tampered.json" "$record"
expect_exit 4 "$bundle" "$record"

# 7. Unreadable input: error (2), one line naming the file on stderr.
expect_exit 2 "$work/nope.json"
expect_err "nope.json"
[[ $(wc -l <"$work/err") -eq 1 ]] || fail "expected one stderr line for an unreadable file"
expect_exit 2 "$data/pith-signing-key.json"
expect_err "not a registry document"
# Not JSON: the file, the line and column, in plain words (no parser jargon).
printf '{\n  "a": 1,\n  b: 2\n}\n' >"$work/bad.json"
expect_exit 2 "$work/bad.json"
expect_err "^pith-check: $work/bad.json: not valid JSON at line 3, column 3: expected a member name in double quotes, found a bare word"
grep -q 'syntax error\|\$:' "$work/err" && fail "the JSON error still speaks the parser's language: $(cat "$work/err")"
expect_exit 1 "$bundle" "$work/nope.json" "$work/tampered.json"

# 8. Usage errors: no file, unknown option → 2; --help documents exit codes → 0.
expect_exit 2
expect_exit 2 --frobnicate "$bundle"
expect_exit 0 --help
expect_out "Exit codes"
for verdict in verified failed altered error not_found unverifiable unbound; do expect_out "^  [0-5] $verdict "; done

# 9. Test-signed bundles: unverifiable without the test key, verified with --trust-key.
"$signer" --title "Integration Test Paper" --arxiv 2402.00002 >"$work/test.bundle.json"
expect_exit 4 "$work/test.bundle.json"
expect_exit 0 --trust-key "$data/test-signing-key.json" "$work/test.bundle.json"
expect_exit 0 --offline --trust-key "$data/test-signing-key.json" "$work/test.bundle.json"
# ... or with the key in the user trust directory.
mkdir -p "$XDG_CONFIG_HOME/pith/keys"
cp "$data/test-signing-key.json" "$XDG_CONFIG_HOME/pith/keys/"
expect_exit 0 "$work/test.bundle.json"
rm -r "$XDG_CONFIG_HOME/pith"

# 10. A bad --trust-key file is a usage error naming it.
echo '{"key_id":"x"}' >"$work/badkey.json"
expect_exit 2 --trust-key "$work/badkey.json" "$bundle"
expect_err "badkey.json"

# 11. Duplicate keys in a signed document: failed.
sed '0,/"bundle_version":"1.0",/s//"bundle_version":"1.0","bundle_version":"1.0",/' "$bundle" >"$work/dup.json"
expect_exit 1 "$work/dup.json"
expect_out "json.strict.invalid"

# 12. Colour only on a TTY: never in a pipe.
expect_exit 0 "$bundle"
if grep -q $'\033' "$work/out"; then fail "ANSI colour written to a pipe"; fi

if ((failures > 0)); then
  echo "$failures failure(s)" >&2
  exit 1
fi
echo "pith_check_registry: all checks passed"
