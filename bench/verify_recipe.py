#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The registry's own verification recipe, timed: json.dumps (canonical) +
hashlib SHA-256 + cryptography's Ed25519, on the same bundles as verify_bench.

    verify_recipe.py [--seconds S] --key KEYFILE... BUNDLE...

Per bundle (what the registry documents, no state merge): parse; record hash;
receipt signature; each event's content hash, id and signature; bundle hash
and signature; the state's own hash. Keys come only from --key files.
"""
import base64
import hashlib
import json
import sys
import time

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey


def canon(x):
    return json.dumps(x, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def sha(x):
    return hashlib.sha256(canon(x)).digest()


def verify_bundle(text, keys):
    b = json.loads(text)
    digest = sha(b["canonical_record"])
    assert digest.hex() == b["canonical_sha256"]
    for e in b["events"]:
        content = {k: v for k, v in e.items() if k not in ("signature", "event_id", "content_sha256")}
        h = sha(content)
        assert h.hex() == e["content_sha256"] and e["event_id"] == "sha256:" + h.hex()
        s = e["signature"]
        keys[s["key_id"]].verify(base64.b64decode(s["signature_b64"]), h)
        if e["event_type"] == "record_created":
            r = e["payload"]["receipt"]
            assert r["canonical_sha256"] == digest.hex()
            keys[r["key_id"]].verify(base64.b64decode(r["signature_b64"]), digest)
    bs = b["bundle_signature"]
    bh = sha({k: v for k, v in b.items() if k != "bundle_signature"})
    assert bh.hex() == bs["bundle_sha256"]
    keys[bs["key_id"]].verify(base64.b64decode(bs["signature_b64"]), bh)
    st = b["state"]
    assert sha({k: v for k, v in st.items() if k != "state_sha256"}).hex() == st["state_sha256"]


def main(argv):
    seconds, keys, texts = 3.0, {}, []
    i = 0
    while i < len(argv):
        if argv[i] == "--seconds":
            seconds = float(argv[i + 1]); i += 2
        elif argv[i] == "--key":
            k = json.load(open(argv[i + 1]))
            keys[k["key_id"]] = Ed25519PublicKey.from_public_bytes(base64.b64decode(k["public_key_b64"]))
            i += 2
        else:
            texts.append(open(argv[i], encoding="utf-8").read()); i += 1
    done, start = 0, time.perf_counter()
    while True:
        for t in texts:
            verify_bundle(t, keys)
            done += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            break
    print(f"python {done} bundles in {elapsed:.2f} s: {done / elapsed:.0f} bundles/s ({elapsed * 1e6 / done:.1f} us per bundle)")


if __name__ == "__main__":
    main(sys.argv[1:])
