// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/signed_json/canonical.hpp"
#include "pith/registry/state_merge.hpp"
#include "pith/signed_json/strict.hpp"
#include "support/test_data.hpp"

#include <catch2/catch.hpp>

TEST_CASE("the fixture bundle's state is recomputed byte for byte", "[state_merge]") {
  auto bundle = pith::signed_json::parse_strict_json(pith::test::read_data("JFLLIOJUI2M3KX3FLLGP4N2V65.bundle.json"));
  REQUIRE(bundle.has_value());
  auto merged = pith::registry::recompute_state((*bundle)["events"], "pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65",
                                      pith::registry::TrustStore::with_pinned_key());
  CHECK(merged.state["state_sha256"] == "37afd725873fd1007cec750f0066347491cf96d30b470cf46be971f84f3c265f");
  CHECK(pith::signed_json::canon(merged.state) == pith::signed_json::canon((*bundle)["state"]));
  CHECK(merged.state["current"]["source_aliases"] == (*bundle)["source_aliases"]);
  REQUIRE(merged.events.size() == 2);
  CHECK(merged.events[0].valid);
  CHECK(merged.events[1].valid);
}

TEST_CASE("without the registry key the fixture's events are invalid", "[state_merge]") {
  auto bundle = pith::signed_json::parse_strict_json(pith::test::read_data("JFLLIOJUI2M3KX3FLLGP4N2V65.bundle.json"));
  REQUIRE(bundle.has_value());
  auto merged = pith::registry::recompute_state((*bundle)["events"], "pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65", pith::registry::TrustStore{});
  CHECK(merged.state["invalid_event_count"] == 2);
  CHECK(merged.state["applied_event_ids"].empty());
  CHECK(merged.state["current"]["canonical_record"].is_null());
}

TEST_CASE("source aliases of the WXNI57C2 record", "[state_merge]") {
  auto record = pith::signed_json::parse_strict_json(pith::test::read_data("WXNI57C2SJ24QK62DB7DTUREA3.canonical_record.json"));
  REQUIRE(record.has_value());
  auto aliases = pith::registry::derive_source_aliases(*record, "WXNI57C2SJ24QK62DB7DTUREA3", "2026-01-01T00:00:00Z");
  REQUIRE(aliases.size() == 6);
  CHECK(aliases[0]["alias_value"] == "2011.03641");
  CHECK(aliases[1]["alias_value"] == "2011.03641v3");
  CHECK(aliases[2]["alias_value"] == "10.48550/arxiv.2011.03641");
  CHECK(aliases[3]["alias_kind"] == "pith_short_12");
  CHECK(aliases[3]["alias_value"] == "WXNI57C2SJ24");
  CHECK(aliases[4]["alias_value"] == "WXNI57C2SJ24QK62");
  CHECK(aliases[5]["alias_value"] == "WXNI57C2");
}
