// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/registry/record.hpp"
#include "pith/base/check_codes.hpp"

#include <algorithm>

namespace pith::registry {

using nlohmann::json;

void add_checks(Report& report, const std::vector<Check>& checks) {
  for (const Check& c : checks) report.add(c.code, c.status, c.detail, c.anchors_trust);
}

void settle_untrusted(Report& report, const std::vector<Check>& untrusted) {
  const auto& all = report.checks();
  const bool anchored = std::any_of(all.begin(), all.end(), [](const Check& c) { return c.anchors_trust; });
  for (const Check& c : untrusted) {
    if (c.status == CheckStatus::warn && anchored) {
      report.fail(c.code, c.detail + " (other signatures in this document are by trusted keys: part of it was re-signed)");
    } else {
      report.add(c.code, c.status, c.detail);
    }
  }
}

std::optional<DerivedNumber> check_record(Report& report, const json& record, std::string_view claimed_sha256,
                                          std::string_view claimed_number) {
  if (!record.is_object() || !record.contains("metadata") || !record.contains("source")) {
    report.fail(check_code::record_shape_invalid, "canonical_record is not an object with metadata and source");
    return std::nullopt;
  }
  auto derived = derive_pith_number(record);
  if (!derived) {
    report.fail(check_code::record_shape_invalid, "canonical_record: " + derived.error().describe());
    return std::nullopt;
  }
  if (!claimed_sha256.empty()) {
    if (claimed_sha256 == derived->canonical_sha256) {
      report.pass(check_code::record_hash_match, "canonical_record hashes to canonical_sha256 " + derived->canonical_sha256);
    } else {
      report.fail(check_code::record_hash_mismatch, "canonical_record hashes to " + derived->canonical_sha256 +
                                              ", the document claims " + std::string(claimed_sha256.substr(0, 80)));
    }
  }
  const std::string number = derived->number.to_string();
  if (!claimed_number.empty()) {
    // A registry document states its number in the canonical full form: the
    // exact spelling is part of what it claims, so it is compared as written.
    if (claimed_number == number) {
      report.pass(check_code::record_number_match, "canonical_record derives " + number);
    } else {
      report.fail(check_code::record_number_mismatch, "canonical_record derives " + number + ", the document claims " +
                                                std::string(claimed_number.substr(0, 80)));
    }
  }
  if (claimed_sha256.empty() && claimed_number.empty()) {
    report.pass(check_code::record_number_derived,
                "canonical_record hashes to " + derived->canonical_sha256 + " and derives " + number);
  }
  return std::move(*derived);
}

ReceiptOutcome check_receipt(Report& report, std::vector<Check>& untrusted, const json* receipt,
                             const DerivedNumber& record, const TrustStore& trust, std::string_view at_time,
                             CheckStatus missing_status) {
  ReceiptOutcome out;
  if (receipt == nullptr || receipt->is_null()) {
    report.add(check_code::receipt_missing, missing_status, "no registry receipt: nothing ties this record to the registry");
    return out;
  }
  out.present = true;
  const auto block = read_signature_block(*receipt);
  if (!block) {
    report.fail(check_code::receipt_shape_invalid, "the receipt is not a JSON object");
    return out;
  }
  const std::string& claimed = block->canonical_sha256;
  if (claimed == record.canonical_sha256) {
    report.pass(check_code::receipt_hash_match, "the receipt is for canonical_sha256 " + record.canonical_sha256);
  } else {
    report.fail(check_code::receipt_hash_mismatch, "the receipt is for canonical_sha256 " +
                                             (claimed.empty() ? std::string("(none)") : claimed.substr(0, 80)) +
                                             ", this record hashes to " + record.canonical_sha256 +
                                             " (a receipt of another record)");
  }
  // The signature is checked over THIS record's digest, whatever the receipt
  // claims, so a receipt replayed from another record cannot pass.
  const auto digest = from_hex_fixed<32>(record.canonical_sha256);
  SignatureSpec spec{check_code::receipt_signature, "canonical_sha256_bytes", "receipt"};
  out.signature = check_signature_block(*block, spec, *digest, trust, at_time);
  add_checks(report, out.signature.checks);
  untrusted.insert(untrusted.end(), out.signature.untrusted.begin(), out.signature.untrusted.end());
  return out;
}

}  // namespace pith::registry
