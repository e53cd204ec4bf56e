// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The registry's wire formats as readable structs (spec §3-§4), read once
// from the strictly parsed JSON so that the checks read fields, not JSON
// trees. Reading never judges: a missing or mistyped field reads as empty
// (or null) and the check that needs it reports it under its own code. The
// parsed JSON stays reachable because every hash is over it (canonical form
// minus the self-hash keys).
#include "pith/base/error.hpp"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace pith::registry {

// A signature block: a receipt, an event `signature` or a `bundle_signature`.
//   {key_id, public_key_fingerprint, algorithm: "ed25519",
//    signature_status: "signed_v1", signed_message, signature_b64}
// plus what a receipt or a bundle signature says it is over.
struct SignatureBlock {
  std::string key_id;
  std::string public_key_fingerprint;  // fingerprint_sha256_hex of the key
  std::string algorithm;
  std::string signature_status;
  std::string signed_message;
  std::string signature_b64;
  std::string canonical_sha256;  // receipts: the record hash they are for
  std::string bundle_sha256;     // bundle_signature: the bundle hash
  const nlohmann::json* json = nullptr;  // as parsed (for messages quoting a bad value)
};
// nullopt when `value` is not a JSON object.
[[nodiscard]] std::optional<SignatureBlock> read_signature_block(const nlohmann::json& value);

// Who signed an event, inside the signed content.
struct Signer {
  std::string signer_id;
  std::string signer_type;
  std::string key_id;
  std::string public_key_fingerprint;
};

// One open-graph event.
struct Event {
  std::string event_type;           // record_created, graph_snapshot, correction, ...
  std::string subject_pith_number;  // the full number the event is about
  std::string target;
  std::string created_at;           // signed time claim (ISO 8601 UTC)
  std::string content_sha256;       // as claimed
  std::string event_id;             // as claimed: "sha256:" + content_sha256
  std::string schema_version;
  std::optional<std::string> prev_event;
  std::vector<std::string> supersedes;
  Signer signer;
  SignatureBlock signature;
  const nlohmann::json* payload = nullptr;
  const nlohmann::json* json = nullptr;  // the event as parsed: content_sha256 is over it
};
// Reads an event. The Error (kind malformed, `where` empty) names the first
// structural problem: a missing or mistyped field that makes it unusable.
[[nodiscard]] Result<Event> read_event(const nlohmann::json& value);
// The event_id of an event-shaped value, even a malformed one (for reports).
[[nodiscard]] std::string claimed_event_id(const nlohmann::json& value);

// Where a record comes from (canonical_record.source): an arXiv paper
// {kind: "arxiv", id, version}, or another kind with an id.
struct RecordSource {
  std::string kind;
  std::string id;
  std::optional<long long> version;
};
[[nodiscard]] RecordSource read_record_source(const nlohmann::json& canonical_record);

// What a record says of the paper that a PDF can be bound to
// (canonical_record.metadata): the SHA-256 of its title's and abstract's
// canonical forms (registry/title.hpp); empty when absent.
struct RecordMetadata {
  std::string title_canon_sha256;
  std::string abstract_canon_sha256;
};
[[nodiscard]] RecordMetadata read_record_metadata(const nlohmann::json& canonical_record);

// The payload of a record_created event: the record and the registry's receipt.
struct RecordCreated {
  const nlohmann::json* canonical_record = nullptr;  // null when absent
  std::string canonical_sha256;
  const nlohmann::json* receipt = nullptr;  // null when absent or JSON null
  std::string created_at;                   // of the event (the receipt's signed time)
};
[[nodiscard]] RecordCreated read_record_created(const nlohmann::json& event_or_projection);

// A bundle (`pith_open_graph_bundle`): the record, its events, the merged
// state, signed as a whole by `bundle_signature`.
struct Bundle {
  std::string bundle_type;
  std::string pith_number;
  std::string short_pith_number;
  std::string canonical_sha256;
  std::string merge_version;
  std::string built_at;  // signed time claim of the bundle signature
  const nlohmann::json* canonical_record = nullptr;
  const nlohmann::json* source = nullptr;
  const nlohmann::json* source_aliases = nullptr;
  const nlohmann::json* events = nullptr;
  const nlohmann::json* timestamp_proofs = nullptr;
  const nlohmann::json* public_keys = nullptr;
  const nlohmann::json* state = nullptr;
  std::optional<SignatureBlock> bundle_signature;
  const nlohmann::json* json = nullptr;  // the bundle as parsed: bundle_sha256 is over it
};
[[nodiscard]] Bundle read_bundle(const nlohmann::json& value);

// A state (`pith_open_graph_state`): what the registry computed from the
// events. Alone (state.json) it is not signed.
struct State {
  std::string state_type;
  std::string pith_number;
  std::string merge_version;
  std::string state_sha256;
  const nlohmann::json* current = nullptr;
  const nlohmann::json* canonical_record = nullptr;  // current.canonical_record
  const nlohmann::json* record_created = nullptr;    // current.record_created (a projection)
  const nlohmann::json* source_aliases = nullptr;    // current.source_aliases
  const nlohmann::json* invalid_events = nullptr;
  const nlohmann::json* applied_event_ids = nullptr;
  std::optional<long long> equivocation_count;
  const nlohmann::json* json = nullptr;  // the state as parsed: state_sha256 is over it
};
[[nodiscard]] State read_state(const nlohmann::json& value);

// The JSON null every absent member of a read struct points at.
[[nodiscard]] const nlohmann::json& json_null();
// `object[key]`, or JSON null when `object` is not an object or has no such key.
[[nodiscard]] const nlohmann::json& member(const nlohmann::json& object, const char* key);
// A string member, or empty when absent or not a string.
[[nodiscard]] std::string string_member(const nlohmann::json& object, const char* key);

}  // namespace pith::registry
