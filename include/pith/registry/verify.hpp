// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// CONTRACT between the verification core and its users (resolver, stamper,
// checker, sty generator). The core (issue 2) implements `verify_document` in
// verify.cpp; the other parts only consume these types. Extend it,
// do not break it.
//
// A registry document is one of: a bundle (`pith_open_graph_bundle`), a state
// (`pith_open_graph_state`, served as state.json), a bare canonical record, or
// the resolver's JSON-LD answer holding `.canonical_record`. Which one is
// detected from the content, never from a file name.
#include "pith/base/error.hpp"
#include "pith/base/report.hpp"
#include "pith/registry/number.hpp"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pith::registry {

class TrustStore;  // trust_store.hpp
struct ReceiptParts;  // below

enum class DocumentKind { bundle, state, record, resolver_answer };
[[nodiscard]] const char* to_string(DocumentKind k);

// What a registry document says about its record, whether or not it
// verified: what a report on a failed document still compares (the PDF
// check's binding checks, the carried copy for the online check).
struct DocumentContent {
  DocumentKind kind = DocumentKind::record;
  std::optional<PithNumber> pith_number;  // derived from the record, full form (pith:2020:WXNI57C2...); none if underivable
  nlohmann::json canonical_record;    // as parsed (strictly)
  std::string canonical_json;         // canon(canonical_record): the exact hashed bytes
  std::string canonical_sha256;       // lower-case hex
  std::string receipt_signature_b64;  // empty when the document has no (valid) receipt
  std::string key_id;                 // registry key that signed the receipt
  std::string key_fingerprint;        // fingerprint_sha256_hex of that key
  std::string document_bytes;         // the bundle/state bytes exactly as given (to embed)
  nlohmann::json document;            // the parsed document
};

// What a fully verified document yields: everything a stamper or the
// generated pith.sty needs to carry the signed record onward, and its report
// (whose verdict is verified). Only a DocumentVerification makes one (its
// constructor is private), and only when its report verified, so holding a
// VerifiedRecord means the record verified: no caller has to remember to
// look at a verdict. Tests and benches get one the same way, by verifying
// signed fixture data (tests/support/test_signer.hpp). Copied and moved freely.
struct VerifiedRecord : DocumentContent {
  Report report;  // every check performed, in order

  // The record's number, full form: a verified record always has one.
  [[nodiscard]] const PithNumber& number() const { return *pith_number; }

 private:
  friend class DocumentVerification;
  VerifiedRecord(DocumentContent content, Report verification_report)
      : DocumentContent(std::move(content)), report(std::move(verification_report)) {}
};

// The outcome of verifying a document, whatever its verdict: the report
// (every check; report.pith_number is the number claimed or derived), what
// the document says, and the record only when the report verified.
//
// Only the two verifiers below make one (its constructor is private), so a
// DocumentVerification, and the VerifiedRecord it may hold, always comes
// from checking signatures against a trust store: no caller, test or hook
// can wrap content and a report of its own making as "verified".
class DocumentVerification {
 public:
  Report report;

  // The record: present exactly when report.verdict() is verified.
  [[nodiscard]] const std::optional<VerifiedRecord>& record() const& { return record_; }
  [[nodiscard]] std::optional<VerifiedRecord> record() && { return std::move(record_); }
  // What the document says, verified or not (the record's when verified):
  // for reporting on it, never for carrying it onward.
  [[nodiscard]] const DocumentContent& content() const;
  [[nodiscard]] DocumentKind kind() const { return content().kind; }

 private:
  friend Result<DocumentVerification> verify_document(std::string_view bytes, const TrustStore& trust,
                                                      std::string_view input_name);
  friend DocumentVerification verify_record_with_receipt(const nlohmann::json& canonical_record,
                                                         std::string_view claimed_sha256,
                                                         std::string_view claimed_number,
                                                         const std::optional<ReceiptParts>& receipt,
                                                         const TrustStore& trust, std::string_view input_name);
  // The one place a VerifiedRecord is made: `content` becomes the record
  // only when `report`'s verdict is verified (and its number was derived).
  DocumentVerification(DocumentContent content, Report verification_report);

  DocumentContent unverified_;  // empty when record_ is set
  std::optional<VerifiedRecord> record_;
};

// Strictly parses `bytes` (signed_json/strict.hpp) and verifies the document
// with keys from `trust` only. Never fails with an Error for bad *content*:
// content problems are failed checks in the result's `report` (so the caller
// can show them), and then the result holds no record; the Error branch is for input that is not a registry document at all
// (not JSON, unknown shape) and carries `input_name` in `where`.
[[nodiscard]] Result<DocumentVerification> verify_document(std::string_view bytes, const TrustStore& trust,
                                                           std::string_view input_name);

// A record and its receipt carried as separate values (a PDF's XMP copy:
// pith:canonicalRecord, pith:canonicalSha256, pith:number and the receipt's
// parts), verified with the checks and codes of a resolver answer holding
// them: the record's hash against `claimed_sha256` and `claimed_number`
// (each skipped when empty), then the receipt — Ed25519 over the raw
// canonical_sha256 bytes, by a key in `trust` — or receipt.missing (skip)
// when there is none. The result's kind is resolver_answer (a record with
// its receipt and nothing else); `document` stays null: there is none.
struct ReceiptParts {
  std::string key_id;
  std::string key_fingerprint;  // fingerprint_sha256_hex; may be empty
  std::string signature_b64;

  friend bool operator==(const ReceiptParts&, const ReceiptParts&) = default;
};
[[nodiscard]] DocumentVerification verify_record_with_receipt(const nlohmann::json& canonical_record,
                                                              std::string_view claimed_sha256,
                                                              std::string_view claimed_number,
                                                              const std::optional<ReceiptParts>& receipt,
                                                              const TrustStore& trust, std::string_view input_name);

// The signed merged state of a document: a bundle's `state` (covered by the
// bundle signature). Null for anything else, a state alone included: its
// content is not signed (only its record's receipt is), so nothing may be
// read from it as fact (corrections, applied events, mirror hints, times).
[[nodiscard]] const nlohmann::json& merged_state(const DocumentContent& content);

// The ids of the events a document applies, in order: its signed merged
// state's applied_event_ids, else every event of a bundle; empty for
// anything but a bundle (a state alone lists ids nobody signed).
[[nodiscard]] std::vector<std::string> applied_event_ids(const DocumentContent& content);

// Why `candidate` is older than `known` (both verified, same record), or
// nullopt when it is not: `known` is a bundle and `candidate` is not (an
// unsigned state or a bare record in place of signed history), applies
// events `candidate` lacks, or was built later (signed built_at). A cache
// never lets an older answer replace a newer copy (a rollback hiding a
// correction).
[[nodiscard]] std::optional<std::string> rollback_from(const DocumentContent& known, const DocumentContent& candidate);

}  // namespace pith::registry
