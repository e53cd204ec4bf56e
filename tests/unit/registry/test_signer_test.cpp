// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/signed_json/canonical.hpp"
#include "pith/signed_json/strict.hpp"
#include "pith/registry/trust_store.hpp"
#include "support/test_data.hpp"
#include "support/test_signer.hpp"

#include <catch2/catch.hpp>

using namespace pith::test;

TEST_CASE("the committed test key file is the test signer's key", "[test_signer]") {
  auto committed = pith::signed_json::parse_strict_json(read_data("test-signing-key.json"));
  REQUIRE(committed.has_value());
  CHECK(*committed == test_signer().key_file());
  auto key = pith::registry::parse_key_file(read_data("test-signing-key.json"), "test-signing-key.json");
  REQUIRE(key.has_value());
  CHECK(key->key_id == "pith-test-2026");
  CHECK(key->fingerprint_hex == test_signer().fingerprint_hex());
}

TEST_CASE("test signer output is deterministic", "[test_signer]") {
  CHECK(to_bytes(make_signed_bundle()) == to_bytes(make_signed_bundle()));
  CHECK(test_signer().public_key() != other_signer().public_key());
  RecordSpec other;
  other.title = "Another Title";
  CHECK(number_of(make_canonical_record(other)) != number_of(make_canonical_record()));
}

TEST_CASE("a test bundle's state has both events applied", "[test_signer]") {
  const auto bundle = make_signed_bundle();
  CHECK(bundle["state"]["valid_event_count"] == 2);
  CHECK(bundle["state"]["invalid_event_count"] == 0);
  CHECK(bundle["state"]["applied_event_ids"].size() == 2);
  CHECK(bundle["source_aliases"].size() == 6);
  CHECK(bundle["state"]["current"]["canonical_record"] == bundle["canonical_record"]);
}

TEST_CASE("write_key_file writes the committed key file's content", "[test_signer]") {
  const auto dir = fresh_temp_dir("keyfile");
  write_key_file(test_signer(), dir / "k.json");
  CHECK(read_file(dir / "k.json") == read_data("test-signing-key.json"));
  CHECK(make_signed_state()["state_type"] == "pith_open_graph_state");
  std::filesystem::remove_all(dir);
}
