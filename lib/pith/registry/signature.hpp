// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One registry signature block (receipt, event `signature`, bundle
// `bundle_signature`) checked against the trust store:
//   {key_id, public_key_fingerprint, algorithm: "ed25519",
//    signature_status: "signed_v1", signed_message: <expected>, signature_b64}
// The signature is over the raw 32 digest bytes named by `signed_message`.
// Anything other than the expected algorithm, status or message is a failure,
// never a warning; a key not in the trust store never verifies anything.
#include "pith/base/check_codes.hpp"
#include "pith/base/crypto.hpp"
#include "pith/base/report.hpp"
#include "pith/registry/documents.hpp"
#include "pith/registry/trust_store.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace pith::registry {

struct SignatureSpec {
  check_code::SignatureCodes codes;  // check_code::receipt_signature, event_signature, bundle_signature
  std::string expected_message;      // "canonical_sha256_bytes", ...
  std::string label;                 // how details name the data: "receipt", "events[1] graph_snapshot"
};

struct SignatureOutcome {
  bool well_formed = false;  // algorithm/status/message/encoding as required
  bool key_trusted = false;  // key_id + fingerprint (+ window) found in the store
  bool valid = false;        // trusted key and the signature verifies
  std::string key_id;
  std::string fingerprint;    // as named by the block
  std::string signature_b64;
  KeyMatch key;
  std::vector<Check> checks;   // in order; key.untrusted ones are separate:
  std::vector<Check> untrusted;  // status decided by the caller (see below)
};

// Checks `block` signing `digest`. `at_time` is the signed time claim used
// for key validity windows (empty: unknown). Untrusted-key findings are
// returned apart, with status unset: a document in which other signatures
// are trusted must FAIL on them (someone re-signed part of it); a document in
// which nothing is trusted is merely unverifiable (warn).
[[nodiscard]] SignatureOutcome check_signature_block(const SignatureBlock& block, const SignatureSpec& spec,
                                                     const Sha256Digest& digest, const TrustStore& trust,
                                                     std::string_view at_time);

// Whether `block` verifies `digest` with `key` (no trust decision): used to
// say that a bundle's self-shipped key does sign it (and proves nothing).
[[nodiscard]] bool signature_verifies_with(const SignatureBlock& block, const Sha256Digest& digest,
                                           const Ed25519PublicKey& key);


}  // namespace pith::registry
