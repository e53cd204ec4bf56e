#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The published contract (docs/schema/): pith-check --json's output on real
# inputs of every kind (a stamped PDF, a tampered one, a PDF without a number,
# a bundle, a bare record, a number resolved from a mirror, an unknown one,
# tar members, unreadable and non-document inputs) is valid against
# pith-check.schema.json by python3-jsonschema, and objects that break it
# (an unknown verdict or status, a missing key, an extra key) are refused;
# pith-serve serves /api/v1/openapi.json and the schema, the OpenAPI 3.1
# document passes validate-api (@seriousme/openapi-schema-validator, from
# scripts/install-deps test: Debian 12 packages no OpenAPI validator) while a
# broken copy does not, and the service's answers (a check with its
# evidence, lookups answering 200, 400 and 404) are valid against the
# document's own schemas. Exit 77 (skip) when python3-jsonschema, or only
# validate-api, is missing and nothing failed.
set -euo pipefail

source "$(dirname "$0")/../support/scratch_env.sh"  # $work, $src, $bin, $data; offline, reproducible
need_tools pith-serve pith-stamp pith-check
kill_at_exit serve_pid
source "$src/tests/support/cli_expect.sh"  # fail MESSAGE, $failures
source "$src/tests/support/serve_fixture.sh"

if ! /usr/bin/python3 -c 'import jsonschema' 2>/dev/null; then
  echo "SKIP: python3-jsonschema is not installed (scripts/install-deps test)"
  exit 77
fi
schema=$src/docs/schema/pith-check.schema.json
openapi=$src/docs/schema/pith-serve.openapi.json
validate=("/usr/bin/python3" "$src/tests/support/validate_json.py")

make_serve_samples
cp "$serve_bundle" "$work/bundle.json"
cp "$data/WXNI57C2SJ24QK62DB7DTUREA3.canonical_record.json" "$work/record.json"
printf 'hello\n' >"$work/text.txt"
tar -C "$work" -cf "$work/papers.tar" stamped.pdf tampered.pdf
zoo=${PITH_ZOO_DIR:-$PWD/zoo}

# ---- pith-check --json: every kind of input, each line valid -------------------
(cd "$work" && "$bin/pith-check" --offline --mirror "file://$work/mirror" --cache-dir "$work/cache" --json \
  stamped.pdf tampered.pdf "$zoo/paper.pdf" bundle.json record.json text.txt missing.pdf \
  "$serve_number" pith:2021:AAAAAAAAAAAAAAAAAAAAAAAAAA --tar papers.tar >"$work/reports.jsonl") || true
[[ $(wc -l <"$work/reports.jsonl") == 11 ]] || fail "pith-check --json wrote $(wc -l <"$work/reports.jsonl") lines, expected 11"
verdicts=$(/usr/bin/python3 -c 'import json, sys; print(" ".join(sorted({json.loads(l)["verdict"] for l in open(sys.argv[1])})))' "$work/reports.jsonl")
[[ $verdicts == "error failed not_found unverifiable verified" ]] || fail "the inputs do not cover the verdicts: $verdicts"
"${validate[@]}" "$schema" "$work/reports.jsonl" || fail "pith-check --json's output is not valid against docs/schema/pith-check.schema.json"
# A check stopped by its child's budget: unverifiable, with `stopped`, no `error`.
(cd "$work" && "$bin/pith-check" --offline --cache-dir "$work/cache" --child-memory 16 --json stamped.pdf >"$work/stopped.jsonl") || true
grep -q '"stopped":' "$work/stopped.jsonl" || fail "--child-memory 16 did not stop the check: $(head -c 400 "$work/stopped.jsonl")"
"${validate[@]}" "$schema" "$work/stopped.jsonl" || fail "a stopped check's report is not valid against the schema"

# ---- the schema constrains: broken objects are refused ---------------------------
/usr/bin/python3 - "$work/reports.jsonl" "$work/broken.jsonl" <<'PY'
import json, sys
good = json.loads(open(sys.argv[1]).readline())
def variant(change):
    r = json.loads(json.dumps(good))
    change(r)
    return json.dumps(r)
lines = [
    variant(lambda r: r.update(verdict="probably")),
    variant(lambda r: r["checks"][0].update(status="maybe")),
    variant(lambda r: r.pop("verdict")),
    variant(lambda r: r.update(surprise=1)),
    variant(lambda r: r.update(pith_number="pith:21:SHORT")),
    variant(lambda r: r.update(verdict="error")),  # error without its reason
    variant(lambda r: r.update(stopped="the check exceeded the memory limit")),  # a stop with verdict verified
]
open(sys.argv[2], "w").write("\n".join(lines) + "\n")
PY
"${validate[@]}" --expect-invalid "$schema" "$work/broken.jsonl" || fail "the schema accepts objects that break the documented format"

# ---- pith-serve: the documents it serves, and its answers against them -----------
start_serve --jobs 2
status=$(curl -sS -o "$work/openapi.json" -w '%{http_code}' "$base/api/v1/openapi.json")
[[ $status == 200 ]] || fail "/api/v1/openapi.json: HTTP $status"
curl -sS -o "$work/served-schema.json" "$base/api/v1/pith-check.schema.json"
cmp -s "$work/served-schema.json" "$schema" || fail "/api/v1/pith-check.schema.json is not docs/schema/pith-check.schema.json"
# The served document is docs/schema/'s with the check schema in place of its $ref.
/usr/bin/python3 - "$work/openapi.json" "$openapi" "$schema" <<'PY' || fail "/api/v1/openapi.json is not docs/schema/'s document with the schema in it"
import json, sys
served, doc, schema = (json.load(open(p)) for p in sys.argv[1:])
doc["components"]["schemas"]["CheckReport"] = schema
sys.exit(0 if served == doc else 1)
PY
post() { curl -sS -o "$1" -w '%{http_code}' -F "file=@$2" "$base/api/v1/check"; }
[[ $(post "$work/check-stamped.json" "$work/stamped.pdf") == 200 ]] || fail "POST stamped.pdf: not 200"
[[ $(post "$work/check-bundle.json" "$work/bundle.json") == 200 ]] || fail "POST bundle.json: not 200"
grep -q '"evidence"' "$work/check-stamped.json" || fail "the service's check has no evidence to validate"
[[ $(curl -sS -o "$work/lookup-200.json" -w '%{http_code}' "$base/api/v1/pith/$serve_number") == 200 ]] || fail "lookup: not 200"
[[ $(curl -sS -o "$work/lookup-400.json" -w '%{http_code}' "$base/api/v1/pith/not-a-number") == 400 ]] || fail "lookup of a malformed id: not 400"
[[ $(curl -sS -o "$work/lookup-404.json" -w '%{http_code}' "$base/api/v1/pith/pith:2021:AAAAAAAAAAAAAAAAAAAAAAAAAA") == 404 ]] ||
  fail "lookup of an unknown number: not 404"
stop_serve
serve_pid=""
# answers_valid COMPONENT FILE...: each answer is valid against the served
# document's components/schemas/COMPONENT.
answers_valid() {
  local component=$1
  shift
  /usr/bin/python3 -c 'import json, sys
doc = json.load(open(sys.argv[1]))
print(json.dumps({"$schema": "https://json-schema.org/draft/2020-12/schema",
                  "$ref": "#/components/schemas/" + sys.argv[2], "components": doc["components"]}))' \
    "$work/openapi.json" "$component" >"$work/$component.schema.json"
  "${validate[@]}" "$work/$component.schema.json" "$@"
}
answers_valid CheckReport "$work/check-stamped.json" "$work/check-bundle.json" ||
  fail "POST /api/v1/check's answers are not valid against the OpenAPI document"
answers_valid RecordView "$work"/lookup-*.json || fail "GET /api/v1/pith/{id}'s answers are not valid against the OpenAPI document"

# ---- the OpenAPI 3.1 document itself, by an OpenAPI validator ---------------------
validator=${PITH_OPENAPI_VALIDATOR:-${PITH_NODE_DIR:-/usr/local/lib/pith-test-node}/node_modules/.bin/validate-api}
if [[ ! -x $validator ]]; then
  echo "SKIP (part): no OpenAPI validator at $validator (scripts/install-deps test installs it)"
  ((failures > 0)) && exit 1
  exit 77
fi
"$validator" "$work/openapi.json" >"$work/validate.out" 2>&1 || fail "validate-api refuses /api/v1/openapi.json: $(cat "$work/validate.out")"
grep -q '"valid": true' "$work/validate.out" || fail "validate-api: $(cat "$work/validate.out")"
# ... and it refuses a broken copy (a response code that is no status, an unknown field).
/usr/bin/python3 - "$work/openapi.json" "$work/broken-openapi.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
doc["paths"]["/api/v1/check"]["post"]["responses"]["two hundred"] = {"description": "no such status"}
doc["paths"]["/api/v1/check"]["post"]["surprise"] = True
json.dump(doc, open(sys.argv[2], "w"))
PY
! "$validator" "$work/broken-openapi.json" >"$work/validate.out" 2>&1 || fail "validate-api accepts a broken OpenAPI document"

exit "$failures"
