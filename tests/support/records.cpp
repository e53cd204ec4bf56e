// SPDX-License-Identifier: GPL-3.0-or-later
#include "support/records.hpp"

#include "pith/registry/trust_store.hpp"
#include "support/test_data.hpp"
#include "support/test_signer.hpp"

#include <stdexcept>

namespace pith::test {

registry::VerifiedRecord verified_record(const std::string& bytes, const registry::TrustStore& trust,
                                         const std::string& input_name) {
  auto verified = registry::verify_document(bytes, trust, input_name);
  if (!verified) throw std::runtime_error(verified.error().describe());
  if (!verified->record()) throw std::runtime_error(input_name + " does not verify: " + verified->report.to_text());
  return *verified->record();
}

registry::VerifiedRecord fixture_record() {
  static const registry::VerifiedRecord record =
      verified_record(read_data("JFLLIOJUI2M3KX3FLLGP4N2V65.bundle.json"), registry::TrustStore::with_pinned_key(),
                      "JFLLIOJUI2M3KX3FLLGP4N2V65.bundle.json");
  return record;
}

registry::VerifiedRecord signed_record_with_title(const std::string& title) {
  const TestSigner& signer = test_signer();
  RecordSpec spec;
  spec.title = title;
  nlohmann::json record = make_canonical_record(spec);
  record["metadata"]["title"] = title;
  const nlohmann::json events = nlohmann::json::array(
      {make_record_created_event(signer, record), make_graph_snapshot_event(signer, record, spec)});
  return verified_record(to_bytes(assemble_bundle(signer, record, events)), test_trust_store(), "test-signed bundle");
}

}  // namespace pith::test
