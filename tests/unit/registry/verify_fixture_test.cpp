// SPDX-License-Identifier: GPL-3.0-or-later
// The real registry data verifies completely, and every signed byte of it is
// covered: changing any value anywhere in the bundle makes it fail.
#include "pith/signed_json/canonical.hpp"
#include "pith/signed_json/strict.hpp"
#include "pith/registry/trust_store.hpp"
#include "pith/registry/verify.hpp"
#include "support/test_data.hpp"

#include <catch2/catch.hpp>

using nlohmann::json;
using pith::CheckStatus;
using pith::Verdict;

namespace {

const std::string bundle_name = "JFLLIOJUI2M3KX3FLLGP4N2V65.bundle.json";

pith::registry::DocumentVerification verify_bytes(const std::string& bytes, const pith::registry::TrustStore& trust) {
  auto v = pith::registry::verify_document(bytes, trust, "test");
  REQUIRE(v.has_value());
  return std::move(*v);
}

bool passed(const pith::Report& r, const char* code) {
  const pith::Check* c = r.find(code);
  return c != nullptr && c->status == CheckStatus::pass;
}

void collect_leaves(const json& v, const json::json_pointer& at, std::vector<json::json_pointer>& out) {
  if (v.is_object() && !v.empty()) {
    for (auto it = v.begin(); it != v.end(); ++it) collect_leaves(it.value(), at / it.key(), out);
  } else if (v.is_array() && !v.empty()) {
    for (std::size_t i = 0; i < v.size(); ++i) collect_leaves(v[i], at / i, out);
  } else {
    out.push_back(at);
  }
}

json tampered(json value) {
  if (value.is_string()) {
    std::string s = value.get<std::string>();
    if (s.empty()) return "x";
    s[s.size() / 2] = s[s.size() / 2] == 'A' ? 'B' : 'A';
    return s;
  }
  if (value.is_number_integer()) return value.get<long long>() + 1;
  if (value.is_boolean()) return !value.get<bool>();
  if (value.is_null()) return "x";
  if (value.is_array()) return json::array({"x"});
  return json{{"x", 1}};
}

}  // namespace

TEST_CASE("the fixture bundle verifies completely with the pinned key", "[verify][fixture]") {
  const auto v = verify_bytes(pith::test::read_data(bundle_name), pith::registry::TrustStore::with_pinned_key());
  const pith::Report& r = v.report;
  INFO(r.to_text());
  CHECK(r.verdict() == Verdict::verified);
  CHECK_FALSE(r.has_failure());
  for (const auto* code : {"record.hash.match", "record.number.match", "bundle.short_number.match", "bundle.source.match",
                           "bundle.record.match", "receipt.hash.match", "receipt.signature.valid", "bundle.hash.match",
                           "bundle.signature.valid", "state.hash.match", "state.recomputed.match",
                           "bundle.source_aliases.match", "bundle.public_keys.hint"}) {
    INFO(code);
    CHECK(passed(r, code));
  }
  std::size_t event_signatures = 0;
  for (const auto& c : r.checks()) {
    CHECK(c.status != CheckStatus::warn);
    if (c.code == "event.signature.valid" && c.status == CheckStatus::pass) ++event_signatures;
  }
  CHECK(event_signatures == 2);
  CHECK(v.kind() == pith::registry::DocumentKind::bundle);
  CHECK(v.content().pith_number.value().to_string() == "pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65");
  CHECK(v.content().canonical_sha256 == "4956b439344699b55f655accfe3755f76675906c3782b2b848781fbe13e87432");
  CHECK(pith::sha256_hex(v.content().canonical_json) == v.content().canonical_sha256);
  CHECK(v.content().key_id == "pith-v1-2026-05");
  CHECK(v.content().key_fingerprint == "8d4b5ee74e4693bcd1df2446408b0d54");
  CHECK(v.content().receipt_signature_b64 ==
        "LATkpIUXJMlWEJHZI4zmLK6En7GKKRe38ota61W5nAZgBk5mTKP3Hm5nLNtNsi4Jl3sfonfNhorZ6Csq0IPdDw==");
  CHECK(v.content().document_bytes == pith::test::read_data(bundle_name));
  CHECK(r.pith_number == "pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65");
  CHECK(r.to_json()["verdict"] == "verified");
}

TEST_CASE("the pinned key matches the committed registry key file", "[verify][fixture]") {
  auto key = pith::registry::parse_key_file(pith::test::read_data("pith-signing-key.json"), "pith-signing-key.json");
  REQUIRE(key.has_value());
  const pith::registry::TrustedKey& pinned = pith::registry::pinned_registry_key();
  CHECK(key->key_id == pinned.key_id);
  CHECK(key->public_key == pinned.public_key);
  CHECK(pinned.fingerprint_hex == "8d4b5ee74e4693bcd1df2446408b0d54");
  CHECK(pinned.fingerprint_b32 == "RVFV5Z2OI2J3ZUO7ERDEBCYNKS");
}

TEST_CASE("without the registry key the fixture is unverifiable, not verified", "[verify][fixture]") {
  const auto v = verify_bytes(pith::test::read_data(bundle_name), pith::registry::TrustStore{});
  const pith::Report& r = v.report;
  INFO(r.to_text());
  CHECK(r.verdict() == Verdict::unverifiable);
  const pith::Check* untrusted = r.find("key.untrusted");
  REQUIRE(untrusted != nullptr);
  CHECK(untrusted->status == CheckStatus::warn);
  // Integrity is still checked and reported apart from trust.
  CHECK(passed(r, "record.hash.match"));
  CHECK(passed(r, "bundle.hash.match"));
  CHECK(r.find("bundle.public_keys.untrusted") != nullptr);
  CHECK(r.find("key.shipped_in_data") != nullptr);
}

TEST_CASE("the fixture's state alone verifies through its receipt", "[verify][fixture]") {
  auto bundle = pith::signed_json::parse_strict_json(pith::test::read_data(bundle_name));
  REQUIRE(bundle.has_value());
  const std::string state_bytes = (*bundle)["state"].dump();
  const auto v = verify_bytes(state_bytes, pith::registry::TrustStore::with_pinned_key());
  const pith::Report& r = v.report;
  INFO(r.to_text());
  CHECK(v.kind() == pith::registry::DocumentKind::state);
  CHECK(r.verdict() == Verdict::verified);
  CHECK(passed(r, "state.hash.match"));
  CHECK(passed(r, "receipt.signature.valid"));
  CHECK(passed(r, "state.record.match"));
  CHECK(passed(r, "state.source_aliases.match"));
  REQUIRE(r.find("events.unavailable") != nullptr);
  CHECK(r.find("events.unavailable")->status == CheckStatus::skip);
  CHECK(r.find("bundle.signature.unavailable")->status == CheckStatus::skip);
  CHECK(v.content().pith_number.value().to_string() == "pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65");
}

TEST_CASE("the WXNI57C2 record alone derives its number but is unverifiable", "[verify][fixture]") {
  const auto v = verify_bytes(pith::test::read_data("WXNI57C2SJ24QK62DB7DTUREA3.canonical_record.json"),
                              pith::registry::TrustStore::with_pinned_key());
  CHECK(v.kind() == pith::registry::DocumentKind::record);
  CHECK(v.content().pith_number.value().to_string() == "pith:2020:WXNI57C2SJ24QK62DB7DTUREA3");
  CHECK(passed(v.report, "record.number.derived"));
  CHECK(v.report.verdict() == Verdict::unverifiable);
  CHECK(v.content().receipt_signature_b64.empty());
}

TEST_CASE("changing any value anywhere in the fixture bundle makes it fail", "[verify][fixture][tamper]") {
  const auto trust = pith::registry::TrustStore::with_pinned_key();
  auto bundle = pith::signed_json::parse_strict_json(pith::test::read_data(bundle_name));
  REQUIRE(bundle.has_value());
  std::vector<json::json_pointer> leaves;
  collect_leaves(*bundle, json::json_pointer(), leaves);
  REQUIRE(leaves.size() > 200);
  std::size_t tried = 0;
  for (const auto& leaf : leaves) {
    // The one value no signature covers (spec §3: signed_at is unsigned).
    if (leaf.to_string() == "/bundle_signature/signed_at") continue;
    json copy = *bundle;
    copy[leaf] = tampered(copy[leaf]);
    const auto v = verify_bytes(copy.dump(), trust);
    INFO(leaf.to_string());
    INFO(v.report.to_text());
    CHECK(v.report.verdict() == Verdict::failed);
    ++tried;
  }
  CHECK(tried + 1 == leaves.size());
  // And the exception really is harmless to the verdict.
  json copy = *bundle;
  copy["bundle_signature"]["signed_at"] = "1999-01-01T00:00:00Z";
  CHECK(verify_bytes(copy.dump(), trust).report.verdict() == Verdict::verified);
}

TEST_CASE("removing any top-level key of the fixture bundle makes it fail", "[verify][fixture][tamper]") {
  const auto trust = pith::registry::TrustStore::with_pinned_key();
  auto bundle = pith::signed_json::parse_strict_json(pith::test::read_data(bundle_name));
  REQUIRE(bundle.has_value());
  for (auto it = bundle->begin(); it != bundle->end(); ++it) {
    if (it.key() == "bundle_type") continue;  // then it is not a bundle at all
    json copy = *bundle;
    copy.erase(it.key());
    auto v = pith::registry::verify_document(copy.dump(), trust, "test");
    INFO(it.key());
    if (v) CHECK(v->report.verdict() == Verdict::failed);
  }
}
