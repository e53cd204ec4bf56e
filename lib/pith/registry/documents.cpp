// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/registry/documents.hpp"

namespace pith::registry {

using nlohmann::json;

const json& json_null() {
  static const json null_value = nullptr;
  return null_value;
}

const json& member(const json& object, const char* key) {
  if (!object.is_object()) return json_null();
  const auto it = object.find(key);
  return it == object.end() ? json_null() : *it;
}

std::string string_member(const json& object, const char* key) {
  const json& value = member(object, key);
  return value.is_string() ? value.get<std::string>() : std::string();
}

namespace {

// A member that must be a non-null JSON value to be worth pointing at.
const json* present(const json& object, const char* key) {
  const json& value = member(object, key);
  return value.is_null() ? nullptr : &value;
}

bool is_event_type_name(const std::string& t) {
  if (t.empty() || t.size() > 64 || !(t[0] >= 'a' && t[0] <= 'z')) return false;
  for (char c : t) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return true;
}

// Structural problems that make an event unusable, or empty.
std::string event_shape_problem(const json& e) {
  if (!e.is_object()) return "not a JSON object";
  for (const char* key : {"event_type", "subject_pith_number", "created_at", "content_sha256", "event_id"}) {
    if (!member(e, key).is_string()) return std::string("\"") + key + "\" missing or not a string";
  }
  if (!is_event_type_name(e["event_type"].get<std::string>())) return "event_type is not a lower-case name";
  if (!member(e, "signer").is_object()) return "\"signer\" missing or not an object";
  if (!member(e, "signature").is_object()) return "\"signature\" missing or not an object";
  if (!e.contains("payload")) return "\"payload\" missing";
  if (e.contains("supersedes")) {
    if (!e["supersedes"].is_array()) return "\"supersedes\" is not a list";
    for (const auto& s : e["supersedes"]) {
      if (!s.is_string()) return "\"supersedes\" holds a non-string";
    }
  }
  const json& prev = member(e, "prev_event");
  if (!prev.is_null() && !prev.is_string()) return "\"prev_event\" is neither null nor an event id";
  return {};
}

}  // namespace

std::optional<SignatureBlock> read_signature_block(const json& value) {
  if (!value.is_object()) return std::nullopt;
  SignatureBlock b;
  b.key_id = string_member(value, "key_id");
  b.public_key_fingerprint = string_member(value, "public_key_fingerprint");
  b.algorithm = string_member(value, "algorithm");
  b.signature_status = string_member(value, "signature_status");
  b.signed_message = string_member(value, "signed_message");
  b.signature_b64 = string_member(value, "signature_b64");
  b.canonical_sha256 = string_member(value, "canonical_sha256");
  b.bundle_sha256 = string_member(value, "bundle_sha256");
  b.json = &value;
  return b;
}

Result<Event> read_event(const json& value) {
  if (std::string problem = event_shape_problem(value); !problem.empty()) {
    return fail(ErrorKind::malformed, "", std::move(problem));
  }
  Event e;
  e.event_type = value["event_type"].get<std::string>();
  e.subject_pith_number = value["subject_pith_number"].get<std::string>();
  e.target = string_member(value, "target");
  e.created_at = value["created_at"].get<std::string>();
  e.content_sha256 = value["content_sha256"].get<std::string>();
  e.event_id = value["event_id"].get<std::string>();
  e.schema_version = string_member(value, "schema_version");
  if (const json& prev = member(value, "prev_event"); prev.is_string()) e.prev_event = prev.get<std::string>();
  for (const auto& s : member(value, "supersedes")) e.supersedes.push_back(s.get<std::string>());
  const json& signer = value["signer"];
  e.signer = Signer{string_member(signer, "signer_id"), string_member(signer, "signer_type"),
                    string_member(signer, "key_id"), string_member(signer, "public_key_fingerprint")};
  e.signature = *read_signature_block(value["signature"]);
  e.payload = &value["payload"];
  e.json = &value;
  return e;
}

std::string claimed_event_id(const json& value) { return string_member(value, "event_id"); }

RecordSource read_record_source(const json& canonical_record) {
  const json& source = member(canonical_record, "source");
  RecordSource out{string_member(source, "kind"), string_member(source, "id"), std::nullopt};
  if (const json& v = member(source, "version"); v.is_number_integer()) out.version = v.get<long long>();
  return out;
}

RecordMetadata read_record_metadata(const json& canonical_record) {
  const json& metadata = member(canonical_record, "metadata");
  return {string_member(metadata, "title_canon_sha256"), string_member(metadata, "abstract_canon_sha256")};
}

RecordCreated read_record_created(const json& event) {
  const json& payload = member(event, "payload");
  RecordCreated rc;
  rc.canonical_record = present(payload, "canonical_record");
  rc.canonical_sha256 = string_member(payload, "canonical_sha256");
  rc.receipt = present(payload, "receipt");
  rc.created_at = string_member(event, "created_at");
  return rc;
}

Bundle read_bundle(const json& value) {
  Bundle b;
  b.bundle_type = string_member(value, "bundle_type");
  b.pith_number = string_member(value, "pith_number");
  b.short_pith_number = string_member(value, "short_pith_number");
  b.canonical_sha256 = string_member(value, "canonical_sha256");
  b.merge_version = string_member(value, "merge_version");
  b.built_at = string_member(value, "built_at");
  b.canonical_record = &member(value, "canonical_record");
  b.source = &member(value, "source");
  b.source_aliases = &member(value, "source_aliases");
  b.events = &member(value, "events");
  b.timestamp_proofs = &member(value, "timestamp_proofs");
  b.public_keys = &member(value, "public_keys");
  b.state = &member(value, "state");
  b.bundle_signature = read_signature_block(member(value, "bundle_signature"));
  b.json = &value;
  return b;
}

State read_state(const json& value) {
  State s;
  s.state_type = string_member(value, "state_type");
  s.pith_number = string_member(value, "pith_number");
  s.merge_version = string_member(value, "merge_version");
  s.state_sha256 = string_member(value, "state_sha256");
  s.current = &member(value, "current");
  s.canonical_record = &member(*s.current, "canonical_record");
  s.record_created = &member(*s.current, "record_created");
  s.source_aliases = &member(*s.current, "source_aliases");
  s.invalid_events = &member(value, "invalid_events");
  s.applied_event_ids = &member(value, "applied_event_ids");
  if (const json& n = member(value, "equivocation_count"); n.is_number_integer()) s.equivocation_count = n.get<long long>();
  s.json = &value;
  return s;
}

}  // namespace pith::registry
