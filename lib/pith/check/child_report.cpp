// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/check/child_report.hpp"

#include "pith/base/check_codes.hpp"
#include "pith/base/crypto.hpp"
#include "pith/registry/verify.hpp"
#include "pith/signed_json/strict.hpp"

#include <algorithm>

namespace pith::check {
namespace {

// The same report with no check anchoring trust (everything else kept:
// content bindings, whether they are required, details).
Report without_anchors(Report from) {
  from.drop_trust_anchors();
  return from;
}

// The carried record verified in this process, or nullopt when the evidence
// is not even a record.
std::optional<registry::DocumentVerification> verify_evidence(const CarriedCopy::Evidence& e,
                                                              const registry::TrustStore& trust, const std::string& name) {
  if (!e.document_bytes.empty()) {
    auto verified = registry::verify_document(e.document_bytes, trust, name);
    if (!verified) return std::nullopt;
    return std::move(*verified);
  }
  auto record = signed_json::parse_strict_json(e.canonical_json);
  if (!record) return std::nullopt;
  // The receipt signs the record's hash: computed here, from the record itself.
  return registry::verify_record_with_receipt(*record, sha256_hex(e.canonical_json), e.pith_number, e.receipt, trust,
                                              name);
}

// The key that anchored a verified record, for the detail.
std::string signer_of(const registry::DocumentContent& content) {
  return content.key_id.empty() ? std::string("a trusted key") : "trusted key " + content.key_id;
}

}  // namespace

FileCheck judged_in_parent(FileCheck from_child, const registry::TrustStore& trust) {
  if (from_child.report.error) return from_child;
  const Report& claimed = from_child.report;
  const bool claimed_anchor =
      std::any_of(claimed.checks().begin(), claimed.checks().end(), [](const Check& c) { return c.anchors_trust; });
  Report judged = without_anchors(claimed);

  std::optional<registry::DocumentVerification> here;
  if (from_child.carried && from_child.carried->evidence) {
    here = verify_evidence(*from_child.carried->evidence, trust, claimed.input + " (carried record)");
  }
  const bool verified_here = here && here->record() && !claimed.pith_number.empty() &&
                             here->record()->pith_number == claimed.pith_number;
  if (verified_here) {
    judged.trust_anchor(check_code::isolation_parent_verified,
                        "the carried record " + claimed.pith_number + " verified again in the checking process (" +
                            signer_of(*here->record()) + "), not on the parsing child's word");
  } else if (claimed_anchor) {
    judged.fail(check_code::isolation_child_rejected,
                "the parsing child reported a verified record that does not verify in the checking process: its "
                "report is not trusted (a damaged or hostile file)");
  }
  from_child.report = std::move(judged);
  return from_child;
}

}  // namespace pith::check
