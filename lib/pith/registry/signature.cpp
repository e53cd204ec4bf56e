// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/registry/signature.hpp"

#include "pith/base/check_codes.hpp"

namespace pith::registry {

using nlohmann::json;

namespace {

Check make(std::string code, CheckStatus status, std::string detail, bool anchor = false) {
  return Check{std::move(code), status, std::move(detail), anchor && status == CheckStatus::pass};
}

// A field of the block as the document has it (its JSON value, even a
// mistyped one), for messages.
std::string quoted(const SignatureBlock& block, const char* key) {
  const json& v = block.json ? member(*block.json, key) : json_null();
  if (v.is_null()) return "missing";
  if (v.is_string()) {
    std::string s = v.get<std::string>();
    if (s.size() > 60) s = s.substr(0, 60) + "...";
    return "\"" + s + "\"";
  }
  return v.dump().substr(0, 60);
}

}  // namespace

bool signature_verifies_with(const SignatureBlock& block, const Sha256Digest& digest, const Ed25519PublicKey& key) {
  auto sig = from_base64_fixed<64>(block.signature_b64);
  return sig && ed25519_verify(key, digest, *sig);
}

SignatureOutcome check_signature_block(const SignatureBlock& block, const SignatureSpec& spec, const Sha256Digest& digest,
                                       const TrustStore& trust, std::string_view at_time) {
  SignatureOutcome out;
  const check_code::SignatureCodes& codes = spec.codes;
  const std::string& what = spec.label;
  out.key_id = block.key_id;
  out.fingerprint = block.public_key_fingerprint;
  out.signature_b64 = block.signature_b64;

  bool ok = true;
  if (block.algorithm != "ed25519") {
    out.checks.push_back(make(codes.algorithm_unsupported, CheckStatus::fail,
                              what + ": algorithm " + quoted(block, "algorithm") + ", only \"ed25519\" is accepted"));
    ok = false;
  }
  if (block.signature_status != "signed_v1") {
    out.checks.push_back(make(codes.signature_status_invalid, CheckStatus::fail,
                              what + ": signature_status " + quoted(block, "signature_status") +
                                  ", expected \"signed_v1\""));
    ok = false;
  }
  if (block.signed_message != spec.expected_message) {
    out.checks.push_back(make(codes.signed_message_invalid, CheckStatus::fail,
                              what + ": signed_message " + quoted(block, "signed_message") + ", expected \"" +
                                  spec.expected_message + "\""));
    ok = false;
  }
  auto signature = from_base64_fixed<64>(out.signature_b64);
  if (!signature) {
    out.checks.push_back(make(codes.signature_malformed, CheckStatus::fail,
                              what + ": signature_b64 is not a 64-byte Ed25519 signature in standard base64 (" +
                                  signature.error().message + ")"));
    ok = false;
  }
  if (out.key_id.empty()) {
    out.checks.push_back(make(codes.key_id_missing, CheckStatus::fail, what + ": no key_id"));
    ok = false;
  }
  out.well_formed = ok;
  if (!ok) return out;

  out.key = trust.find(out.key_id, out.fingerprint, at_time);
  if (out.key.status == KeyLookup::fingerprint_mismatch) {
    // Claims a trusted key id with another key: impersonation, not ignorance.
    out.checks.push_back(make(check_code::key_fingerprint_mismatch, CheckStatus::fail,
                              what + ": " + out.key.explain(out.key_id, out.fingerprint)));
    return out;
  }
  if (!out.key.trusted()) {
    out.checks.push_back(make(codes.signature_unverified, CheckStatus::skip,
                              what + ": signed by key " + out.key_id + ", which is not trusted: not checked"));
    out.untrusted.push_back(make(check_code::key_untrusted, CheckStatus::warn,
                                 what + ": " + out.key.explain(out.key_id, out.fingerprint)));
    return out;
  }
  out.key_trusted = true;
  out.valid = ed25519_verify(out.key.key->public_key, digest, *signature);
  if (out.valid) {
    out.checks.push_back(make(codes.signature_valid, CheckStatus::pass,
                              what + ": Ed25519 signature by trusted key " + out.key_id + " (" + out.key.key->origin + ")",
                              true));
  } else {
    out.checks.push_back(make(codes.signature_invalid, CheckStatus::fail,
                              what + ": Ed25519 signature does not verify with trusted key " + out.key_id));
  }
  return out;
}

}  // namespace pith::registry
