#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""independent_check.py KEYFILE... -- DOCUMENT: the verdict of a Pith registry
document (a bundle or a bare canonical record), printed as one line
`VERDICT EXIT`, computed from docs/registry-format.md alone, with no pith code:
KEYFILEs (pith-signing-key.json format) are the only trusted keys. Written to
cross-check pith (tests/integration/conformance_vectors.sh); it knows bundles
and records only, and checks no PDF."""
import base64
import hashlib
import json
import sys

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

EXIT = {"verified": 0, "failed": 1, "error": 2, "not_found": 3, "unverifiable": 4}


class Refused(Exception):
    pass


def strict_pairs(pairs):
    keys = [k for k, _ in pairs]
    if len(keys) != len(set(keys)):
        raise Refused("duplicate key")
    return dict(pairs)


def refuse_float(text):
    raise Refused("float " + text)


def canon(value):
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def sha256(value):
    return hashlib.sha256(canon(value)).hexdigest()


def without(obj, *keys):
    return {k: v for k, v in obj.items() if k not in keys}


def load_keys(paths):
    keys = {}
    for path in paths:
        k = json.load(open(path, encoding="utf-8"))
        raw = base64.b64decode(k["public_key_b64"])
        fingerprint = hashlib.sha256(raw).hexdigest()[:32]
        keys[(k["key_id"], fingerprint)] = Ed25519PublicKey.from_public_bytes(raw)
    return keys


class Verifier:
    def __init__(self, keys):
        self.keys = keys
        self.failures = []
        self.untrusted = 0
        self.verified = 0

    def signature(self, what, sig, signed_message, digest_hex):
        if not isinstance(sig, dict):
            self.failures.append(what + ": no signature")
            return
        if sig.get("algorithm") != "ed25519" or sig.get("signature_status") != "signed_v1" or \
                sig.get("signed_message") != signed_message:
            self.failures.append(what + ": unsupported signature")
            return
        key = self.keys.get((sig.get("key_id"), sig.get("public_key_fingerprint")))
        if key is None:
            self.untrusted += 1
            return
        try:
            key.verify(base64.b64decode(sig.get("signature_b64", ""), validate=True), bytes.fromhex(digest_hex))
            self.verified += 1
        except (InvalidSignature, ValueError):
            self.failures.append(what + ": signature does not verify")

    def expect(self, what, got, want):
        if got != want:
            self.failures.append(f"{what}: {got!r} is not {want!r}")

    def number_of(self, record, digest_hex):
        year = str(record.get("metadata", {}).get("submitted_at", ""))[:4]
        body = base64.b32encode(bytes.fromhex(digest_hex)[:17]).decode("ascii")[:26]
        return f"pith:{year}:{body}"

    def bundle(self, b):
        record = b.get("canonical_record")
        digest = sha256(record)
        self.expect("canonical_sha256", b.get("canonical_sha256"), digest)
        self.expect("pith_number", b.get("pith_number"), self.number_of(record, digest))
        for n, event in enumerate(b.get("events", [])):
            content = sha256(without(event, "signature", "event_id", "content_sha256"))
            self.expect(f"event {n} content_sha256", event.get("content_sha256"), content)
            self.expect(f"event {n} event_id", event.get("event_id"), "sha256:" + content)
            self.signature(f"event {n}", event.get("signature"), "open_graph_event_sha256_bytes", content)
            if event.get("event_type") == "record_created":
                payload = event.get("payload", {})
                self.expect("record_created canonical_sha256", payload.get("canonical_sha256"), digest)
                self.signature("receipt", payload.get("receipt"), "canonical_sha256_bytes", digest)
        bundle_digest = sha256(without(b, "bundle_signature"))
        sig = b.get("bundle_signature") or {}
        if "bundle_sha256" in sig:
            self.expect("bundle_sha256", sig["bundle_sha256"], bundle_digest)
        self.signature("bundle", sig, "bundle_sha256_bytes", bundle_digest)

    def verdict(self):
        if self.failures:
            return "failed"
        if self.untrusted or not self.verified:
            return "unverifiable"
        return "verified"


def check(path, keys):
    raw = open(path, "rb").read()
    try:
        document = json.loads(raw.decode("utf-8"), object_pairs_hook=strict_pairs, parse_float=refuse_float,
                              parse_constant=refuse_float)
    except Refused:
        return "failed"
    except (UnicodeDecodeError, ValueError):
        return "error"
    if not isinstance(document, dict):
        return "error"
    verifier = Verifier(keys)
    if document.get("bundle_type") == "pith_open_graph_bundle":
        verifier.bundle(document)
        return verifier.verdict()
    if "metadata" in document and "source" in document:
        return "unverifiable"  # a bare record: nothing signed it
    return "error"


def main(argv):
    if "--" not in argv or argv.index("--") != len(argv) - 2:
        print(__doc__, file=sys.stderr)
        return 2
    keys = load_keys(argv[:argv.index("--")])
    verdict = check(argv[-1], keys)
    print(verdict, EXIT[verdict])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
