// SPDX-License-Identifier: GPL-3.0-or-later
// The seeds of the message fuzz targets are messages of today's wire: each
// decodes, and encodes to the same bytes (a wire change that forgets them
// fails here; fuzz/pdf_facts_wire_seeds.sh makes them again, docs/fuzzing.md).
#include "pith/check/file.hpp"
#include "pith/pdf/facts.hpp"
#include "pith/registry/trust_store.hpp"
#include "support/test_data.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>

TEST_CASE("the pdf_facts_wire seeds are messages of today's wire") {
  const std::filesystem::path dir = std::filesystem::path(PITH_SOURCE_DIR) / "fuzz/corpus/pdf_facts_wire";
  int seeds = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    INFO(entry.path().filename().string());
    const std::string bytes = pith::test::read_file(entry.path());
    const auto facts = pith::pdf::PdfFacts::from_wire(bytes);
    REQUIRE(facts);
    CHECK(facts->to_wire() == bytes);
    ++seeds;
  }
  CHECK(seeds >= 3);
}

TEST_CASE("the pdf_facts_wire bundle seed reaches verification, as the fuzz target judges it") {
  // The fuzz target judges a message as if it were the file, with the pinned
  // key: the seed's spans point inside it, so its record verifies.
  const std::string bytes =
      pith::test::read_file(std::filesystem::path(PITH_SOURCE_DIR) / "fuzz/corpus/pdf_facts_wire/bundle");
  auto facts = pith::pdf::PdfFacts::from_wire(bytes);
  REQUIRE(facts);
  const auto trust = pith::registry::TrustStore::with_pinned_key();
  const auto checked = pith::check::judge_pdf_facts(bytes, std::move(*facts), trust, "seed.pdf");
  const auto& checks = checked.report.checks();
  CHECK(std::any_of(checks.begin(), checks.end(), [](const pith::Check& c) { return c.anchors_trust; }));
}
