#include "pith/registry/signature.hpp"

namespace pith::registry {

using nlohmann::json;

std::string string_member(const json& obj, const char* key) {
  if (!obj.is_object()) return {};
  auto it = obj.find(key);
  if (it == obj.end() || !it->is_string()) return {};
  return it->get<std::string>();
}

const json& member(const json& obj, const char* key) {
  static const json null;
  if (!obj.is_object()) return null;
  const auto it = obj.find(key);
  return it == obj.end() ? null : *it;
}

namespace {

Check make(std::string code, CheckStatus status, std::string detail, bool anchor = false) {
  return Check{std::move(code), status, std::move(detail), anchor && status == CheckStatus::pass};
}

std::string quoted(const json& obj, const char* key) {
  if (!obj.is_object() || !obj.contains(key)) return "missing";
  const json& v = obj[key];
  if (v.is_string()) {
    std::string s = v.get<std::string>();
    if (s.size() > 60) s = s.substr(0, 60) + "...";
    return "\"" + s + "\"";
  }
  return v.dump().substr(0, 60);
}

}  // namespace

bool signature_verifies_with(const json& block, const Sha256Digest& digest, const Ed25519PublicKey& key) {
  auto sig = from_base64_fixed<64>(string_member(block, "signature_b64"));
  return sig && ed25519_verify(key, digest, *sig);
}

SignatureOutcome check_signature_block(const json& block, const SignatureSpec& spec, const Sha256Digest& digest,
                                       const TrustStore& trust, std::string_view at_time) {
  SignatureOutcome out;
  const std::string& p = spec.prefix;
  const std::string& what = spec.label;
  if (!block.is_object()) {
    out.checks.push_back(make(p + ".signature.missing", CheckStatus::fail, what + ": no signature block"));
    return out;
  }
  out.key_id = string_member(block, "key_id");
  out.fingerprint = string_member(block, "public_key_fingerprint");
  out.signature_b64 = string_member(block, "signature_b64");

  bool ok = true;
  if (string_member(block, "algorithm") != "ed25519") {
    out.checks.push_back(make(p + ".algorithm.unsupported", CheckStatus::fail,
                              what + ": algorithm " + quoted(block, "algorithm") + ", only \"ed25519\" is accepted"));
    ok = false;
  }
  if (string_member(block, "signature_status") != "signed_v1") {
    out.checks.push_back(make(p + ".signature_status.invalid", CheckStatus::fail,
                              what + ": signature_status " + quoted(block, "signature_status") +
                                  ", expected \"signed_v1\""));
    ok = false;
  }
  if (string_member(block, "signed_message") != spec.expected_message) {
    out.checks.push_back(make(p + ".signed_message.invalid", CheckStatus::fail,
                              what + ": signed_message " + quoted(block, "signed_message") + ", expected \"" +
                                  spec.expected_message + "\""));
    ok = false;
  }
  auto signature = from_base64_fixed<64>(out.signature_b64);
  if (!signature) {
    out.checks.push_back(make(p + ".signature.malformed", CheckStatus::fail,
                              what + ": signature_b64 is not a 64-byte Ed25519 signature in standard base64 (" +
                                  signature.error().message + ")"));
    ok = false;
  }
  if (out.key_id.empty()) {
    out.checks.push_back(make(p + ".key_id.missing", CheckStatus::fail, what + ": no key_id"));
    ok = false;
  }
  out.well_formed = ok;
  if (!ok) return out;

  out.key = trust.find(out.key_id, out.fingerprint, at_time);
  if (out.key.status == KeyLookup::fingerprint_mismatch) {
    // Claims a trusted key id with another key: impersonation, not ignorance.
    out.checks.push_back(make("key.fingerprint.mismatch", CheckStatus::fail,
                              what + ": " + out.key.explain(out.key_id, out.fingerprint)));
    return out;
  }
  if (!out.key.trusted()) {
    out.checks.push_back(make(p + ".signature.unverified", CheckStatus::skip,
                              what + ": signed by key " + out.key_id + ", which is not trusted: not checked"));
    out.untrusted.push_back(make("key.untrusted", CheckStatus::warn,
                                 what + ": " + out.key.explain(out.key_id, out.fingerprint)));
    return out;
  }
  out.key_trusted = true;
  out.valid = ed25519_verify(out.key.key->public_key, digest, *signature);
  if (out.valid) {
    out.checks.push_back(make(p + ".signature.valid", CheckStatus::pass,
                              what + ": Ed25519 signature by trusted key " + out.key_id + " (" + out.key.key->origin + ")",
                              true));
  } else {
    out.checks.push_back(make(p + ".signature.invalid", CheckStatus::fail,
                              what + ": Ed25519 signature does not verify with trusted key " + out.key_id));
  }
  return out;
}

}  // namespace pith::registry
