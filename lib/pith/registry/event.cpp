// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/registry/event.hpp"

#include "pith/base/check_codes.hpp"
#include "pith/signed_json/canonical.hpp"
#include "pith/registry/number.hpp"

namespace pith::registry {

using nlohmann::json;

std::string event_label(const json& event, std::size_t index) {
  std::string label = "events[" + std::to_string(index) + "]";
  const std::string type = string_member(event, "event_type");
  if (!type.empty()) label += " " + type.substr(0, 40);
  return label;
}

EventVerdict verify_event(const json& event, std::size_t index, std::string_view subject, const TrustStore& trust) {
  EventVerdict v;
  v.index = index;
  const std::string label = event_label(event, index);
  auto add = [&](std::string code, CheckStatus status, std::string detail, bool anchor = false) {
    v.checks.push_back(Check{std::move(code), status, label + ": " + std::move(detail), anchor});
  };
  auto invalid = [&](std::string reason) {
    if (v.reason.empty()) v.reason = std::move(reason);
  };

  auto read = read_event(event);
  if (!read) {
    add(check_code::event_shape_invalid, CheckStatus::fail, read.error().message);
    invalid(read.error().message);
    v.event_id = claimed_event_id(event);
    return v;
  }
  const Event& e = *read;
  v.event_type = e.event_type;
  v.event_id = e.event_id;
  v.created_at = e.created_at;
  v.prev_event = e.prev_event;
  v.supersedes = e.supersedes;

  Result<std::string> content = [&]() -> Result<std::string> {
    try {
      return signed_json::canon_without(event, {"signature", "event_id", "content_sha256"});
    } catch (const signed_json::CanonicalJsonError& error) {
      return fail(ErrorKind::malformed, "", error.what());
    }
  }();
  if (!content) {
    add(check_code::event_shape_invalid, CheckStatus::fail, "no canonical form: " + content.error().message);
    invalid("no canonical form");
    return v;
  }
  const Sha256Digest digest = sha256(*content);
  v.content_sha256 = to_hex(digest);
  const std::string& claimed = e.content_sha256;
  const bool hash_ok = claimed == v.content_sha256;
  const bool id_ok = v.event_id == "sha256:" + v.content_sha256;
  if (!hash_ok) {
    add(check_code::event_hash_mismatch, CheckStatus::fail,
        "content_sha256 is " + claimed.substr(0, 64) + " but the content hashes to " + v.content_sha256);
    invalid("content_sha256 does not match the content");
  }
  if (!id_ok) {
    add(check_code::event_id_mismatch, CheckStatus::fail,
        "event_id is " + v.event_id.substr(0, 80) + ", expected sha256:" + v.content_sha256);
    invalid("event_id does not match the content");
  }
  if (hash_ok && id_ok) add(check_code::event_hash_match, CheckStatus::pass, "content_sha256 and event_id match the content");

  const std::string& subject_claimed = e.subject_pith_number;
  if (subject_claimed != subject) {
    add(check_code::event_subject_mismatch, CheckStatus::fail,
        "subject_pith_number is " + subject_claimed.substr(0, 60) + ", expected " + std::string(subject));
    invalid("subject_pith_number is another record");
  }

  if (e.signer.key_id != e.signature.key_id || e.signer.public_key_fingerprint != e.signature.public_key_fingerprint) {
    add(check_code::event_signer_mismatch, CheckStatus::fail,
        "the signed signer block names key " + e.signer.key_id + " but the signature is by " + e.signature.key_id);
    invalid("signer block and signature name different keys");
  }

  // A record_created event must carry the record its subject names.
  if (v.event_type == "record_created") {
    const RecordCreated rc = read_record_created(event);
    auto derived = rc.canonical_record ? derive_pith_number(*rc.canonical_record)
                                       : Result<DerivedNumber>(fail(ErrorKind::malformed, "", "no canonical_record"));
    if (!derived || derived->number.to_string() != subject || rc.canonical_sha256 != derived->canonical_sha256) {
      add(check_code::event_record_mismatch, CheckStatus::fail,
          "the payload's canonical_record/canonical_sha256 do not derive the subject number");
      invalid("record_created payload does not derive the subject number");
    }
  }

  SignatureSpec spec{check_code::event_signature, "open_graph_event_sha256_bytes", label};
  SignatureOutcome s = check_signature_block(e.signature, spec, digest, trust, v.created_at);
  v.key_id = s.key_id;
  v.signature_trusted = s.valid;
  for (auto& c : s.checks) v.checks.push_back(std::move(c));
  v.untrusted = std::move(s.untrusted);
  if (!s.well_formed) invalid("signature block malformed");
  else if (!s.key_trusted) invalid("signed by a key that is not trusted (" + s.key_id.substr(0, 60) + ")");
  else if (!s.valid) invalid("signature does not verify");

  v.valid = v.reason.empty();
  return v;
}

}  // namespace pith::registry
