// SPDX-License-Identifier: GPL-3.0-or-later
// pith-test-sign: TEST ONLY. Writes registry documents signed by the test
// signer (key pith-test-2026, tests/data/test-signing-key.json) to stdout,
// for shell tests and other helpers' fixtures. Deterministic output.
//
//   pith-test-sign [--title T] [--arxiv ID] [--version N] [--submitted ISO]
//                  [--authors A] [--base-url URL] [--correction NOTE]... [--output KIND]
//   KIND: bundle (default), state, record, receipt, key, number
#include "pith/signed_json/canonical.hpp"
#include "pith/registry/number.hpp"
#include "support/test_signer.hpp"

#include <CLI/CLI.hpp>
#include <iostream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  CLI::App app{"pith-test-sign: write documents signed by the pith TEST key (never trust it outside tests)"};
  pith::test::RecordSpec spec;
  pith::test::BundleOptions options;
  std::string output = "bundle";
  std::vector<std::string> corrections;
  app.add_option("--title", spec.title, "paper title");
  app.add_option("--arxiv", spec.arxiv_id, "arXiv id, e.g. 2401.00001");
  app.add_option("--version", spec.version, "arXiv version number");
  app.add_option("--submitted", spec.submitted_at, "submitted_at, ISO 8601 UTC");
  app.add_option("--authors", spec.authors, "authors text");
  app.add_option("--abstract", spec.abstract, "abstract");
  app.add_option("--base-url", options.base_url, "resolver base URL used in links and mirror_hints");
  app.add_option("--correction", corrections,
                 "append a signed correction event with this note (repeatable; dated 2026-07-2N)")
      ->allow_extra_args(false);
  app.add_option("--output", output, "bundle | state | record | receipt | key | number")
      ->check(CLI::IsMember({"bundle", "state", "record", "receipt", "key", "number"}));
  CLI11_PARSE(app, argc, argv);

  try {
    const auto& signer = pith::test::test_signer();
    const nlohmann::json record = pith::test::make_canonical_record(spec);
    nlohmann::json out;
    if (output == "record") {
      out = record;
    } else if (output == "receipt") {
      out = pith::test::make_receipt(signer, record);
    } else if (output == "key") {
      std::cout << signer.key_file().dump(2) << "\n";
      return 0;
    } else if (output == "number") {
      std::cout << pith::test::number_of(record) << "\n";
      return 0;
    } else {
      // The events of make_signed_bundle, then one correction per note: the
      // same paper as without --correction, with later events.
      const nlohmann::json rc = pith::test::make_record_created_event(signer, record);
      nlohmann::json events = nlohmann::json::array({rc, pith::test::make_graph_snapshot_event(signer, record, spec)});
      for (std::size_t i = 0; i < corrections.size(); ++i) {
        const std::string day = std::to_string(20 + i % 9);
        events.push_back(pith::test::make_event(
            signer, pith::test::number_of(record),
            {"correction", "record", {{"note", corrections[i]}}, "2026-07-" + day + "T00:00:00Z",
             nlohmann::json::array(), i == 0 ? rc["event_id"] : events.back()["event_id"]}));
      }
      const nlohmann::json bundle = pith::test::assemble_bundle(signer, record, events, options);
      out = output == "state" ? bundle["state"] : bundle;
    }
    std::cout << pith::signed_json::canon(out) << "\n";
  } catch (const std::exception& e) {
    std::cerr << "pith-test-sign: " << e.what() << "\n";
    return 2;
  }
  return 0;
}
