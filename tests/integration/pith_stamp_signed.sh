#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Signed PDFs (issue 26). A PDF signed by poppler's `pdfsig -add-signature`
# (an NSS test database made here: libnss3-tools) stays validly signed after
# pith-stamp, as after any incremental update: pdfsig before and after sees
# the same signature, still valid, now "not total document signed".
# A certified one (DocMDP, made by tests/support/signed_pdfs.py with openssl)
# is refused with the reason, for /P 1, 2 and 3, and left as it was.
# pith-check lists the signatures beside its verdict.
set -euo pipefail

source "$(dirname "$0")/../support/scratch_env.sh"  # $work, $src, $bin, $data; offline, reproducible
need_tools pith-stamp pith-check
source "$src/tests/support/cli_expect.sh"  # fail MESSAGE, $failures
for tool in pdfsig certutil pk12util openssl pdflatex; do
  command -v "$tool" >/dev/null || { echo "FAIL: $tool is missing (scripts/install-deps)" >&2; exit 1; }
done

fixture_paper "$work"

# A signing identity: a self-signed certificate in an NSS database (empty password).
mkdir "$work/nss"
certutil -N -d "sql:$work/nss" --empty-password
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$work/key.pem" -out "$work/cert.pem" -days 3650 \
  -subj "/CN=Pith Test Signer" 2>/dev/null
openssl pkcs12 -export -inkey "$work/key.pem" -in "$work/cert.pem" -out "$work/id.p12" -passout pass: -name signer
pk12util -i "$work/id.p12" -d "sql:$work/nss" -W "" >/dev/null

# signatures FILE: "count valid", as pdfsig reports them.
signatures() {
  local out
  out=$(pdfsig -nssdir "sql:$work/nss" -nocert "$1" 2>/dev/null || true)
  echo "$(grep -c '^Signature #' <<<"$out") $(grep -c 'Signature Validation: Signature is Valid.' <<<"$out")"
}

# ---- an approval signature: kept valid -----------------------------------------
pdfsig -nssdir "sql:$work/nss" -add-signature -nick signer -reason "pith test" "$work/paper.pdf" "$work/signed.pdf" \
  2>/dev/null
[[ $(signatures "$work/signed.pdf") == "1 1" ]] || fail "pdfsig did not make a valid signature: $(signatures "$work/signed.pdf")"
for badge in "" --badge; do
  rm -f "$work/stamped.pdf"
  "$stamp" $badge --bundle "$bundle" --pith "$number" -o "$work/stamped.pdf" "$work/signed.pdf" 2>"$work/err" ||
    { fail "stamping a signed PDF ($badge) failed: $(cat "$work/err")"; continue; }
  cmp -s -n "$(stat -c %s "$work/signed.pdf")" "$work/signed.pdf" "$work/stamped.pdf" || fail "$badge: the signed bytes changed"
  [[ $(signatures "$work/stamped.pdf") == "1 1" ]] || fail "$badge: signature lost or invalid: $(signatures "$work/stamped.pdf")"
  pdfsig -nssdir "sql:$work/nss" -nocert "$work/stamped.pdf" 2>/dev/null | grep -q "Not total document signed" ||
    fail "$badge: pdfsig does not see the update after the signature"
  "$check" --offline "$work/stamped.pdf" >"$work/out" 2>&1 || true
  grep -q "signatures (1, not validated by pith)" "$work/out" || fail "$badge: pith-check does not list the signature"
  grep -q "bytes added after signing" "$work/out" || fail "$badge: pith-check does not say the update came after the signature"
  grep -q "verified pith:" "$work/out" || fail "$badge: the stamped signed PDF does not verify: $(head -3 "$work/out")"
done

# ---- certified documents: refused with the reason, nothing written ---------------
for p in 1 2 3; do
  certified="$work/certified-$p.pdf"
  /usr/bin/python3 "$src/tests/support/signed_pdfs.py" certify "$work/paper.pdf" "$certified" "$p" \
    "$work/key.pem" "$work/cert.pem"
  [[ $(signatures "$certified") == "1 1" ]] || fail "P=$p: the certified PDF is not validly signed"
  before=$(sha256sum <"$certified")
  rc=0
  "$stamp" --bundle "$bundle" --pith "$number" "$certified" 2>"$work/err" || rc=$?
  [[ $rc == 2 ]] || fail "P=$p: pith-stamp exited $rc on a certified PDF, expected 2"
  grep -q "certified by a signature (DocMDP /P $p" "$work/err" || fail "P=$p: no reason given: $(cat "$work/err")"
  grep -q "nothing written" "$work/err" || fail "P=$p: the refusal does not say nothing was written"
  [[ $(sha256sum <"$certified") == "$before" ]] || fail "P=$p: the certified PDF changed"
  "$check" --offline "$certified" >"$work/out" 2>&1 || true
  grep -q "certifies the document (DocMDP /P $p)" "$work/out" || fail "P=$p: pith-check does not list the certification"
done

((failures == 0)) || exit 1
echo "signed PDFs: all checks passed"
