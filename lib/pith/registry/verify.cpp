// SPDX-License-Identifier: GPL-3.0-or-later
// verify_document: detects the kind of registry document from its content
// and runs every check the document allows (spec §1-§4). What cannot be
// checked is reported as a skip that says why.
#include "pith/registry/verify.hpp"

#include "pith/base/check_codes.hpp"
#include "pith/signed_json/canonical.hpp"
#include "pith/signed_json/diff.hpp"
#include "pith/registry/documents.hpp"
#include "pith/registry/record.hpp"
#include "pith/registry/state_merge.hpp"
#include "pith/signed_json/strict.hpp"
#include "pith/registry/trust_store.hpp"

#include <algorithm>
#include <set>

namespace pith::registry {

using nlohmann::json;

const char* to_string(DocumentKind k) {
  switch (k) {
    case DocumentKind::bundle: return "bundle";
    case DocumentKind::state: return "state";
    case DocumentKind::record: return "record";
    case DocumentKind::resolver_answer: return "resolver_answer";
  }
  return "?";
}

namespace {

// A document being verified: what it says, filled in as the checks get to
// it, and the checks so far. Only the two verifiers let it out, as a
// DocumentVerification (which keeps it as a record only when it verified).
struct Verifying : DocumentContent {
  Report report;
};

std::optional<DocumentKind> detect_kind(const json& doc) {
  if (!doc.is_object()) return std::nullopt;
  // Any bundle/state marker decides the kind, so an altered type field is a
  // failed bundle check rather than a different (weaker) kind of document.
  if (doc.contains("bundle_type") || doc.contains("bundle_signature")) return DocumentKind::bundle;
  if (doc.contains("state_type") || doc.contains("state_sha256")) return DocumentKind::state;
  if (doc.contains("canonical_record")) return DocumentKind::resolver_answer;
  if (doc.contains("metadata") && doc.contains("source") && doc.contains("schema_version")) return DocumentKind::record;
  return std::nullopt;
}

void fill_record(Verifying& out, const json& record, const DerivedNumber& derived) {
  out.pith_number = derived.number;
  out.canonical_record = record;
  out.canonical_json = derived.canonical_json;
  out.canonical_sha256 = derived.canonical_sha256;
  // The headline names the number the document claims (set before this
  // when it claims one): a tampered document is reported under the number
  // it pretends to be, not the one its altered record hashes to.
  if (out.report.pith_number.empty()) out.report.pith_number = derived.number.to_string();
}

void fill_receipt(Verifying& out, const ReceiptOutcome& receipt) {
  if (!receipt.signature.valid) return;
  out.receipt_signature_b64 = receipt.signature.signature_b64;
  out.key_id = receipt.signature.key_id;
  out.key_fingerprint = receipt.signature.key.key->fingerprint_hex;
}

// Whether a record_created event (or its projection in a state) carries
// exactly this record.
bool carries_record(const RecordCreated& rc, const json& record, const DerivedNumber& derived) {
  return rc.canonical_record != nullptr && *rc.canonical_record == record &&
         rc.canonical_sha256 == derived.canonical_sha256;
}

// Spec §7: which attestations the record has, like a status panel.
json completeness(const json& current, const json& timestamp_proofs) {
  json out = json::object();
  auto count = [](const json& list) { return list.is_array() ? list.size() : std::size_t{0}; };
  out["timestamp_proofs"] = count(timestamp_proofs);
  for (const char* list : {"timestamp_anchors", "storage_attestations", "author_attestations", "citation_signatures",
                           "replication_records", "corrections", "graph_snapshots"}) {
    out[list] = count(member(current, list));
  }
  return out;
}

// The record_created event of a bundle (first in the array), or null.
const json* find_record_created(const json& events) {
  if (!events.is_array()) return nullptr;
  for (const auto& e : events) {
    if (member(e, "event_type") == "record_created") return &e;
  }
  return nullptr;
}

// Event ids the served state lists in invalid_events.
std::set<std::string> listed_invalid(const json& served_state) {
  std::set<std::string> ids;
  const json& list = member(served_state, "invalid_events");
  if (!list.is_array()) return ids;
  for (const auto& entry : list) {
    const std::string id = string_member(entry, "event_id");
    if (!id.empty()) ids.insert(id);
  }
  return ids;
}

// `known_hash`: the content hash when already computed (a served state equal
// to the recomputed one has the recomputed one's hash).
void check_state_hash(Report& report, const json& state, const char* what, const std::string& known_hash = {}) {
  const std::string claimed = string_member(state, "state_sha256");
  const std::string computed = known_hash.empty() ? state_hash(state) : known_hash;
  if (computed == claimed) {
    report.pass(check_code::state_hash_match, std::string(what) + ": state_sha256 " + computed + " matches its content");
  } else {
    report.fail(check_code::state_hash_mismatch, std::string(what) + ": content hashes to " + computed + ", state_sha256 says " +
                                           (claimed.empty() ? std::string("(none)") : claimed.substr(0, 80)));
  }
}

// Keys shipped inside the bundle: hints, never trusted. Says whether each
// agrees with the trust store, and flags signatures made by a key the bundle
// ships itself.
void check_public_keys(Report& report, const Bundle& bundle, const TrustStore& trust,
                       const std::vector<std::pair<std::string, const SignatureOutcome*>>& signatures,
                       const Sha256Digest& bundle_digest) {
  const json& keys = *bundle.public_keys;
  if (!keys.is_array()) return;
  std::set<std::string> reported;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const std::string where = "public_keys[" + std::to_string(i) + "]";
    auto key = parse_key_file(keys[i].dump(), where);
    if (!key) {
      report.warn(check_code::bundle_public_keys_invalid, key.error().describe() + " (hint ignored)");
      continue;
    }
    const TrustedKey* trusted = trust.find_by_id(key->key_id);
    if (trusted && trusted->public_key == key->public_key) {
      report.pass(check_code::bundle_public_keys_hint, where + ": " + key->key_id + " matches the trust store (a hint only)");
    } else if (trusted) {
      report.warn(check_code::bundle_public_keys_mismatch, where + ": ships key id " + key->key_id + " with fingerprint " +
                                                     key->fingerprint_hex + ", the trust store has " +
                                                     trusted->fingerprint_hex + " (hint ignored)");
    } else {
      report.warn(check_code::bundle_public_keys_untrusted,
                  where + ": key " + key->key_id + " is not in the trust store (hint ignored)");
    }
    // A signature by an untrusted key that the bundle ships: proves nothing.
    for (const auto& [label, sig] : signatures) {
      if (sig == nullptr || sig->key_trusted || sig->key_id != key->key_id || reported.count(label)) continue;
      if (trusted && trusted->public_key == key->public_key) continue;
      std::string detail = label + " is by key " + key->key_id + ", which the bundle ships itself in " + where;
      if (label == "bundle_signature") {
        const bool verifies =
            bundle.bundle_signature && signature_verifies_with(*bundle.bundle_signature, bundle_digest, key->public_key);
        detail += verifies ? " (the signature verifies with it, which proves nothing)" : " (and does not even verify with it)";
      } else {
        detail += " (a key shipped in the data proves nothing)";
      }
      report.warn(check_code::key_shipped_in_data, detail);
      reported.insert(label);
    }
  }
}

void verify_bundle(Verifying& out, const json& document, const TrustStore& trust) {
  Report& report = out.report;
  std::vector<Check> untrusted;
  const Bundle bundle = read_bundle(document);

  if (bundle.bundle_type != "pith_open_graph_bundle") {
    report.fail(check_code::bundle_type_invalid, "bundle_type is " + signed_json::json_preview(member(document, "bundle_type")) +
                                           ", expected \"pith_open_graph_bundle\"");
  }
  const std::string& merge_version = bundle.merge_version;
  const bool known_merge = merge_version == merge_version_v1;
  if (!known_merge) {
    report.fail(check_code::bundle_merge_version_unsupported,
                "merge_version \"" + merge_version.substr(0, 60) + "\" is not " + merge_version_v1);
  }

  // 1. The record is the one the number names.
  const json& record = *bundle.canonical_record;
  const std::string& claimed_number = bundle.pith_number;
  if (claimed_number.empty()) report.fail(check_code::bundle_number_missing, "the bundle has no pith_number");
  if (!claimed_number.empty()) report.pith_number = claimed_number;
  auto derived = check_record(report, record, bundle.canonical_sha256,
                              claimed_number.empty() ? std::string_view("(none)") : std::string_view(claimed_number));
  if (derived) {
    fill_record(out, record, *derived);
    const std::string& short_claimed = bundle.short_pith_number;
    const std::string short_expected = derived->number.short_form().to_string();
    if (short_claimed == short_expected) {
      report.pass(check_code::bundle_short_number_match, "short_pith_number " + short_expected);
    } else {
      report.fail(check_code::bundle_short_number_mismatch,
                  "short_pith_number is \"" + short_claimed.substr(0, 40) + "\", expected " + short_expected);
    }
    if (*bundle.source == member(record, "source")) {
      report.pass(check_code::bundle_source_match, "source equals the record's source");
    } else {
      report.fail(check_code::bundle_source_mismatch, "source " + signed_json::json_preview(*bundle.source) +
                                                " differs from the record's " + signed_json::json_preview(member(record, "source")));
    }
  }

  // 2. The registry issued it: the receipt in the record_created event.
  const json& events = *bundle.events;
  const json* rc_event = find_record_created(events);
  const std::optional<RecordCreated> rc =
      rc_event ? std::optional<RecordCreated>(read_record_created(*rc_event)) : std::nullopt;
  ReceiptOutcome receipt;
  if (derived) {
    if (!rc) {
      report.fail(check_code::bundle_record_created_missing, "no record_created event: the bundle carries no receipt");
    } else {
      if (carries_record(*rc, record, *derived)) {
        report.pass(check_code::bundle_record_match, "the record_created event carries the same record");
      } else {
        report.fail(check_code::bundle_record_mismatch, "the record_created event carries another record than canonical_record");
      }
      receipt = check_receipt(report, untrusted, rc->receipt, *derived, trust, rc->created_at, CheckStatus::fail);
      fill_receipt(out, receipt);
    }
  }

  // 3. Every event, and the state recomputed from them.
  const json& served_state = *bundle.state;
  const std::string subject = derived ? derived->number.to_string() : claimed_number;
  MergeResult merged = recompute_state(events, subject, trust);
  if (!events.is_array()) report.fail(check_code::bundle_events_invalid, "events is not a list");
  const std::set<std::string> acknowledged_invalid = listed_invalid(served_state);
  for (EventVerdict& v : merged.events) {
    // An event the served (signed) state itself declares invalid is the
    // registry's own finding: report it, but it does not fail the bundle.
    const bool acknowledged = !v.valid && !v.event_id.empty() && acknowledged_invalid.count(v.event_id) > 0;
    for (Check c : v.checks) {
      if (acknowledged && c.status == CheckStatus::fail) {
        c.status = CheckStatus::warn;
        c.detail += " (listed in the state's invalid_events)";
      }
      report.add(c.code, c.status, c.detail, c.anchors_trust);
    }
    for (Check c : v.untrusted) {
      if (acknowledged) {
        c.detail += " (listed in the state's invalid_events)";
        report.add(c.code, CheckStatus::warn, c.detail);
      } else {
        untrusted.push_back(std::move(c));
      }
    }
  }

  // 4. The bundle as served: its hash and the registry's signature over it.
  Sha256Digest bundle_digest{};
  SignatureOutcome bundle_sig;
  if (!bundle.bundle_signature) {
    report.fail(check_code::bundle_signature_missing, "no bundle_signature");
  } else {
    const SignatureBlock& sig = *bundle.bundle_signature;
    bundle_digest = sha256(signed_json::canon_without(document, {"bundle_signature"}));
    const std::string computed = to_hex(bundle_digest);
    const std::string& claimed = sig.bundle_sha256;
    if (claimed == computed) {
      report.pass(check_code::bundle_hash_match, "bundle_sha256 " + computed + " matches the bundle");
    } else {
      report.fail(check_code::bundle_hash_mismatch, "the bundle hashes to " + computed + ", bundle_signature.bundle_sha256 says " +
                                              (claimed.empty() ? std::string("(none)") : claimed.substr(0, 80)));
    }
    SignatureSpec spec{check_code::bundle_signature, "bundle_sha256_bytes", "bundle_signature"};
    bundle_sig = check_signature_block(sig, spec, bundle_digest, trust, bundle.built_at);
    add_checks(report, bundle_sig.checks);
    untrusted.insert(untrusted.end(), bundle_sig.untrusted.begin(), bundle_sig.untrusted.end());
  }

  // 5. The served state: its own hash, and equal to the recomputed one.
  if (!served_state.is_object()) {
    report.fail(check_code::state_missing, "the bundle has no state");
  } else {
    const bool same_as_recomputed = merged.state == served_state;
    check_state_hash(report, served_state, "bundle state",
                     same_as_recomputed ? merged.state["state_sha256"].get<std::string>() : std::string());
    const bool any_event_trusted = std::any_of(merged.events.begin(), merged.events.end(),
                                               [](const EventVerdict& v) { return v.signature_trusted; });
    if (!known_merge) {
      report.skip(check_code::state_recomputed_skipped, "unknown merge_version: the state cannot be recomputed");
    } else if (!any_event_trusted) {
      report.skip(check_code::state_recomputed_skipped,
                  "no event is signed by a trusted key: the state cannot be recomputed from them");
    } else {
      // Equal values have equal canonical bytes (no floats: strict parse).
      if (same_as_recomputed) {
        report.pass(check_code::state_recomputed_match,
                    "state recomputed from the events is byte-identical (state_sha256 " +
                        merged.state["state_sha256"].get<std::string>() + ")");
      } else {
        auto d = signed_json::first_difference(served_state, merged.state);
        report.fail(check_code::state_recomputed_mismatch, "the served state differs from the state recomputed from the events: " +
                                                     (d ? d->describe("served", "recomputed") : std::string("?")));
      }
    }
  }
  // source_aliases follow from the record and its record_created time alone.
  const json aliases = derived && rc ? derive_source_aliases(record, derived->number.body, rc->created_at)
                                     : merged.state["current"]["source_aliases"];
  if (*bundle.source_aliases == aliases) {
    report.pass(check_code::bundle_source_aliases_match, "source_aliases match those derived from the record");
  } else {
    auto d = signed_json::first_difference(*bundle.source_aliases, aliases);
    report.fail(check_code::bundle_source_aliases_mismatch,
                "source_aliases differ from those derived from the record: " +
                    (d ? d->describe("served", "derived") : std::string("?")));
  }
  const std::size_t eq = merged.state["equivocation_count"].get<std::size_t>();
  if (eq > 0) {
    report.warn(check_code::state_equivocation, std::to_string(eq) + " equivocating event(s): the registry signed conflicting events");
  }

  std::vector<std::pair<std::string, const SignatureOutcome*>> signatures = {{"bundle_signature", &bundle_sig},
                                                                             {"receipt", &receipt.signature}};
  check_public_keys(report, bundle, trust, signatures, bundle_digest);
  settle_untrusted(report, untrusted);
  report.extra["completeness"] = completeness(merged.state["current"], *bundle.timestamp_proofs);
}

void verify_state(Verifying& out, const json& document, const TrustStore& trust) {
  Report& report = out.report;
  std::vector<Check> untrusted;
  const State state = read_state(document);
  const std::string& claimed_number = state.pith_number;
  if (!claimed_number.empty()) report.pith_number = claimed_number;
  if (state.state_type != "pith_open_graph_state") {
    report.fail(check_code::state_type_invalid, "state_type is " + signed_json::json_preview(member(document, "state_type")) +
                                          ", expected \"pith_open_graph_state\"");
  }
  if (state.merge_version != merge_version_v1) {
    report.fail(check_code::state_merge_version_unsupported, "merge_version is not " + std::string(merge_version_v1));
  }
  const json& record = *state.canonical_record;
  const RecordCreated rc = read_record_created(*state.record_created);
  auto derived = check_record(report, record, {}, claimed_number.empty() ? std::string_view("(none)") : claimed_number);
  if (derived) {
    fill_record(out, record, *derived);
    if (carries_record(rc, record, *derived)) {
      report.pass(check_code::state_record_match, "current.record_created carries the same record");
    } else {
      report.fail(check_code::state_record_mismatch, "current.record_created carries another record than current.canonical_record");
    }
    // The projection's created_at is not covered by any signature (the
    // receipt signs the record hash only): it must not decide whether a key
    // was in force, so a key with a validity window cannot verify a state alone.
    ReceiptOutcome receipt = check_receipt(report, untrusted, rc.receipt, *derived, trust, {}, CheckStatus::fail);
    fill_receipt(out, receipt);
    const json aliases = derive_source_aliases(record, derived->number.body, rc.created_at);
    if (*state.source_aliases == aliases) {
      report.pass(check_code::state_source_aliases_match, "current.source_aliases match those derived from the record");
    } else {
      auto d = signed_json::first_difference(*state.source_aliases, aliases);
      report.fail(check_code::state_source_aliases_mismatch,
                  "current.source_aliases differ: " + (d ? d->describe("served", "derived") : std::string("?")));
    }
  }
  check_state_hash(report, document, "state");
  report.skip(check_code::events_unavailable,
              "a state alone has no events: event signatures and the state's recomputation cannot be checked (verify the bundle for that)");
  report.skip(check_code::bundle_signature_unavailable,
              "a state alone is not signed: state_sha256 shows internal consistency only; the record is verified through its receipt");
  if (state.equivocation_count.value_or(0) != 0) {
    report.warn(check_code::state_equivocation, "the state lists equivocating events: the registry signed conflicting events");
  }
  // Nothing signs `current` beyond the record and its receipt: its lists
  // (corrections, author claims, anchors, mirror hints) are a server's claim,
  // so they are neither shown as the record's facts nor acted on.
  report.skip(check_code::state_current_unsigned,
              "a state alone is not signed: its current lists (corrections, attestations, timestamp anchors, mirror "
              "hints) are not shown; the record verified, the state did not (verify the bundle for them)");
  settle_untrusted(report, untrusted);
}

void verify_bare_record(Verifying& out, const json& record, const TrustStore&) {
  Report& report = out.report;
  auto derived = check_record(report, record, {}, {});
  if (derived) fill_record(out, record, *derived);
  report.skip(check_code::receipt_missing,
              "a bare canonical record carries no receipt: its number is self-certifying, but nothing ties it to the "
              "registry (verify its bundle)");
}

// A record with what is claimed about it and its receipt, if any (null).
void verify_record_and_receipt(Verifying& out, const json& record, std::string_view claimed_sha256,
                               std::string_view claimed_number, const json* receipt, const TrustStore& trust) {
  Report& report = out.report;
  std::vector<Check> untrusted;
  if (!claimed_number.empty()) report.pith_number = std::string(claimed_number);
  auto derived = check_record(report, record, claimed_sha256, claimed_number);
  if (!derived) return;
  fill_record(out, record, *derived);
  ReceiptOutcome r = check_receipt(report, untrusted, receipt, *derived, trust, {}, CheckStatus::skip);
  fill_receipt(out, r);
  settle_untrusted(report, untrusted);
}

// The resolver's JSON-LD answer: `.canonical_record`, with whatever it says
// about it (pith_number, canonical_sha256) and a receipt if it has one.
void verify_resolver_answer(Verifying& out, const json& answer, const TrustStore& trust) {
  const json* receipt = nullptr;
  for (const char* key : {"receipt", "pith_receipt", "record_receipt"}) {
    if (member(answer, key).is_object()) {
      receipt = &answer[key];
      break;
    }
  }
  verify_record_and_receipt(out, member(answer, "canonical_record"), string_member(answer, "canonical_sha256"),
                            string_member(answer, "pith_number"), receipt, trust);
}

// A receipt given as its parts, as the registry writes the block.
json receipt_block(const ReceiptParts& parts, std::string_view canonical_sha256) {
  return {{"kind", "pith_receipt"},
          {"algorithm", "ed25519"},
          {"signature_status", "signed_v1"},
          {"signed_message", "canonical_sha256_bytes"},
          {"key_id", parts.key_id},
          {"public_key_fingerprint", parts.key_fingerprint},
          {"signature_b64", parts.signature_b64},
          {"canonical_sha256", canonical_sha256}};
}

}  // namespace

const json& merged_state(const DocumentContent& record) {
  // A state alone is not signed: it has no merged state anyone vouches for.
  if (record.kind != DocumentKind::bundle) return json_null();
  return member(record.document, "state");
}

std::vector<std::string> applied_event_ids(const DocumentContent& content) {
  std::vector<std::string> ids;
  if (content.kind != DocumentKind::bundle) return ids;
  const json& applied = member(merged_state(content), "applied_event_ids");
  if (applied.is_array()) {
    for (const auto& id : applied) {
      if (id.is_string()) ids.push_back(id.get<std::string>());
    }
    return ids;
  }
  const json& events = member(content.document, "events");
  if (events.is_array()) {
    for (const auto& e : events) {
      if (member(e, "event_id").is_string()) ids.push_back(member(e, "event_id").get<std::string>());
    }
  }
  return ids;
}

std::optional<std::string> rollback_from(const DocumentContent& known, const DocumentContent& candidate) {
  if (known.kind != DocumentKind::bundle) return std::nullopt;  // nothing signed to lose
  if (candidate.kind != DocumentKind::bundle) {
    return std::string("a ") + to_string(candidate.kind) + " (no signed history) in place of the signed bundle held";
  }
  const auto now = applied_event_ids(candidate);
  const std::set<std::string> now_set(now.begin(), now.end());
  std::size_t missing = 0;
  std::string first;
  for (const auto& id : applied_event_ids(known)) {
    if (now_set.count(id)) continue;
    if (missing++ == 0) first = id;
  }
  if (missing > 0) {
    return std::to_string(missing) + " applied event(s) of the copy held are missing (first " + first.substr(0, 19) + ")";
  }
  // Same comparison as key windows (trust_store.cpp): ISO 8601 UTC to the second.
  const std::string known_at = string_member(known.document, "built_at").substr(0, 19);
  const std::string candidate_at = string_member(candidate.document, "built_at").substr(0, 19);
  if (!known_at.empty() && candidate_at < known_at) {
    return "built_at " + (candidate_at.empty() ? std::string("(none)") : candidate_at) + " is older than the " +
           known_at + " of the copy held";
  }
  return std::nullopt;
}

DocumentVerification::DocumentVerification(DocumentContent content, Report verification_report)
    : report(std::move(verification_report)) {
  if (report.verdict() == Verdict::verified && content.pith_number) {
    record_ = VerifiedRecord(std::move(content), report);
  } else {
    unverified_ = std::move(content);
  }
}

const DocumentContent& DocumentVerification::content() const {
  if (record_) return *record_;
  return unverified_;
}

DocumentVerification verify_record_with_receipt(const json& canonical_record, std::string_view claimed_sha256,
                                                std::string_view claimed_number, const std::optional<ReceiptParts>& receipt,
                                                const TrustStore& trust, std::string_view input_name) {
  Verifying out;
  out.kind = DocumentKind::resolver_answer;
  out.report.input = std::string(input_name);
  out.report.input_kind = to_string(out.kind);
  const json block = receipt ? receipt_block(*receipt, claimed_sha256) : json();
  verify_record_and_receipt(out, canonical_record, claimed_sha256, claimed_number, receipt ? &block : nullptr, trust);
  return DocumentVerification(static_cast<DocumentContent&&>(out), std::move(out.report));
}

Result<DocumentVerification> verify_document(std::string_view bytes, const TrustStore& trust, std::string_view input_name) {
  const std::string name(input_name);
  Verifying out;
  out.report.input = name;
  auto parsed = signed_json::parse_strict(bytes);
  if (!parsed) {
    const signed_json::StrictJsonError& e = parsed.error();
    if (e.problem == signed_json::JsonProblem::syntax) return fail(ErrorKind::malformed, name, e.message);
    if (e.problem == signed_json::JsonProblem::too_large) {
      return fail(ErrorKind::malformed, name, "not a registry document: " + e.to_error().describe());
    }
    // JSON, but with something signed data must not contain: a failure.
    out.report.input_kind = "json";
    out.report.fail(check_code::json_strict_invalid, to_string(e.problem) + std::string(" at ") + e.path + ": " + e.message);
    out.document_bytes = std::string(bytes);
    return DocumentVerification(static_cast<DocumentContent&&>(out), std::move(out.report));
  }
  auto kind = detect_kind(*parsed);
  if (!kind) {
    return fail(ErrorKind::malformed, name, "not a registry document (no bundle_type, state_type or canonical_record)");
  }
  out.kind = *kind;
  out.report.input_kind = to_string(*kind);
  out.document_bytes = std::string(bytes);
  switch (*kind) {
    case DocumentKind::bundle: verify_bundle(out, *parsed, trust); break;
    case DocumentKind::state: verify_state(out, *parsed, trust); break;
    case DocumentKind::record: verify_bare_record(out, *parsed, trust); break;
    case DocumentKind::resolver_answer: verify_resolver_answer(out, *parsed, trust); break;
  }
  out.document = std::move(*parsed);
  return DocumentVerification(static_cast<DocumentContent&&>(out), std::move(out.report));
}

}  // namespace pith::registry
