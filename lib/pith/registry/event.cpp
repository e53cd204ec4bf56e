#include "pith/registry/event.hpp"

#include "pith/signed_json/canonical.hpp"
#include "pith/registry/number.hpp"

namespace pith::registry {

using nlohmann::json;

json event_content(const json& event) {
  json content = event;
  content.erase("signature");
  content.erase("event_id");
  content.erase("content_sha256");
  return content;
}

std::string event_label(const json& event, std::size_t index) {
  std::string label = "events[" + std::to_string(index) + "]";
  const std::string type = string_member(event, "event_type");
  if (!type.empty()) label += " " + type.substr(0, 40);
  return label;
}

namespace {

bool is_event_type_name(const std::string& t) {
  if (t.empty() || t.size() > 64 || !(t[0] >= 'a' && t[0] <= 'z')) return false;
  for (char c : t) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return true;
}

// Structural problems that make the event unusable, or empty.
std::string shape_problem(const json& e) {
  if (!e.is_object()) return "not a JSON object";
  for (const char* key : {"event_type", "subject_pith_number", "created_at", "content_sha256", "event_id"}) {
    if (!e.contains(key) || !e[key].is_string()) return std::string("\"") + key + "\" missing or not a string";
  }
  if (!is_event_type_name(e["event_type"].get<std::string>())) return "event_type is not a lower-case name";
  if (!e.contains("signer") || !e["signer"].is_object()) return "\"signer\" missing or not an object";
  if (!e.contains("signature") || !e["signature"].is_object()) return "\"signature\" missing or not an object";
  if (!e.contains("payload")) return "\"payload\" missing";
  if (e.contains("supersedes") && !e["supersedes"].is_array()) return "\"supersedes\" is not a list";
  if (e.contains("supersedes")) {
    for (const auto& s : e["supersedes"]) {
      if (!s.is_string()) return "\"supersedes\" holds a non-string";
    }
  }
  if (e.contains("prev_event") && !e["prev_event"].is_null() && !e["prev_event"].is_string()) {
    return "\"prev_event\" is neither null nor an event id";
  }
  return {};
}

}  // namespace

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

  if (std::string problem = shape_problem(event); !problem.empty()) {
    add("event.shape.invalid", CheckStatus::fail, problem);
    invalid(problem);
    if (event.is_object()) v.event_id = string_member(event, "event_id");
    return v;
  }
  v.event_type = event["event_type"].get<std::string>();
  v.event_id = event["event_id"].get<std::string>();
  v.created_at = event["created_at"].get<std::string>();

  Result<std::string> content = [&]() -> Result<std::string> {
    try {
      return signed_json::canon_without(event, {"signature", "event_id", "content_sha256"});
    } catch (const signed_json::CanonicalJsonError& e) {
      return fail(ErrorKind::malformed, "", e.what());
    }
  }();
  if (!content) {
    add("event.shape.invalid", CheckStatus::fail, "no canonical form: " + content.error().message);
    invalid("no canonical form");
    return v;
  }
  const Sha256Digest digest = sha256(*content);
  v.content_sha256 = to_hex(digest);
  const std::string claimed = event["content_sha256"].get<std::string>();
  const bool hash_ok = claimed == v.content_sha256;
  const bool id_ok = v.event_id == "sha256:" + v.content_sha256;
  if (!hash_ok) {
    add("event.hash.mismatch", CheckStatus::fail,
        "content_sha256 is " + claimed.substr(0, 64) + " but the content hashes to " + v.content_sha256);
    invalid("content_sha256 does not match the content");
  }
  if (!id_ok) {
    add("event.id.mismatch", CheckStatus::fail,
        "event_id is " + v.event_id.substr(0, 80) + ", expected sha256:" + v.content_sha256);
    invalid("event_id does not match the content");
  }
  if (hash_ok && id_ok) add("event.hash.match", CheckStatus::pass, "content_sha256 and event_id match the content");

  const std::string subject_claimed = event["subject_pith_number"].get<std::string>();
  if (subject_claimed != subject) {
    add("event.subject.mismatch", CheckStatus::fail,
        "subject_pith_number is " + subject_claimed.substr(0, 60) + ", expected " + std::string(subject));
    invalid("subject_pith_number is another record");
  }

  const json& signer = event["signer"];
  const json& sig = event["signature"];
  if (string_member(signer, "key_id") != string_member(sig, "key_id") ||
      string_member(signer, "public_key_fingerprint") != string_member(sig, "public_key_fingerprint")) {
    add("event.signer.mismatch", CheckStatus::fail,
        "the signed signer block names key " + string_member(signer, "key_id") + " but the signature is by " +
            string_member(sig, "key_id"));
    invalid("signer block and signature name different keys");
  }

  // A record_created event must carry the record its subject names.
  if (v.event_type == "record_created") {
    const json& payload = event["payload"];
    const json* record = payload.is_object() && payload.contains("canonical_record") ? &payload["canonical_record"] : nullptr;
    auto derived = record ? derive_pith_number(*record) : Result<DerivedNumber>(fail(ErrorKind::malformed, "", "no canonical_record"));
    if (!derived || derived->full != subject || string_member(payload, "canonical_sha256") != derived->canonical_sha256) {
      add("event.record.mismatch", CheckStatus::fail,
          "the payload's canonical_record/canonical_sha256 do not derive the subject number");
      invalid("record_created payload does not derive the subject number");
    }
  }

  SignatureSpec spec{"event", "open_graph_event_sha256_bytes", label};
  SignatureOutcome s = check_signature_block(sig, spec, digest, trust, v.created_at);
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
