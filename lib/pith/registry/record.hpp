// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Checks shared by every registry document: the canonical record (its hash
// is its number: self-certifying) and the registry's receipt over it (the
// registry issued it: Ed25519 over the raw canonical_sha256 bytes by a
// trusted key).
#include "pith/registry/number.hpp"
#include "pith/base/report.hpp"
#include "pith/registry/signature.hpp"
#include "pith/registry/trust_store.hpp"

#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>
#include <vector>

namespace pith::registry {

// Derives the record's number and adds record.* checks: record.shape.invalid
// when it cannot be derived, record.hash.match/mismatch against
// `claimed_sha256`, record.number.match/mismatch against `claimed_number`
// (each skipped when empty), or record.number.derived when nothing is claimed.
[[nodiscard]] std::optional<DerivedNumber> check_record(Report& report, const nlohmann::json& record,
                                                        std::string_view claimed_sha256,
                                                        std::string_view claimed_number);

struct ReceiptOutcome {
  bool present = false;
  SignatureOutcome signature;
};

// Adds receipt.* checks for `receipt` (null/absent: receipt.missing with
// `missing_status`). Untrusted-key findings go to `untrusted` (settled by
// settle_untrusted once the whole document is checked).
[[nodiscard]] ReceiptOutcome check_receipt(Report& report, std::vector<Check>& untrusted, const nlohmann::json* receipt,
                                           const DerivedNumber& record, const TrustStore& trust,
                                           std::string_view at_time, CheckStatus missing_status);

void add_checks(Report& report, const std::vector<Check>& checks);
// key.untrusted findings: fail when anything else in the document is tied to
// a trusted key (someone re-signed part of it), warn when nothing is (an
// unknown signer: the document is unverifiable, not forged).
void settle_untrusted(Report& report, const std::vector<Check>& untrusted);

}  // namespace pith::registry
