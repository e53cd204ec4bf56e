// SPDX-License-Identifier: GPL-3.0-or-later
// Hostile input: every node of the real bundle replaced by values of every
// JSON type, and random byte-level corruption. verify_document must never
// throw or crash, and must never say `verified` for data that differs from
// the signed original (except in the one field no signature covers).
#include "pith/signed_json/strict.hpp"
#include "pith/registry/trust_store.hpp"
#include "pith/registry/verify.hpp"
#include "support/test_data.hpp"

#include <catch2/catch.hpp>
#include <random>

using nlohmann::json;

namespace {

void collect_nodes(const json& v, const json::json_pointer& at, std::vector<json::json_pointer>& out) {
  out.push_back(at);
  if (v.is_object()) {
    for (auto it = v.begin(); it != v.end(); ++it) collect_nodes(it.value(), at / it.key(), out);
  } else if (v.is_array()) {
    for (std::size_t i = 0; i < v.size(); ++i) collect_nodes(v[i], at / i, out);
  }
}

// Equal to the original apart from the unsigned bundle_signature.signed_at.
bool same_signed_content(json a, json b) {
  for (json* x : {&a, &b}) {
    if (x->is_object() && x->contains("bundle_signature") && (*x)["bundle_signature"].is_object()) {
      (*x)["bundle_signature"].erase("signed_at");
    }
  }
  return a == b;
}

}  // namespace

TEST_CASE("every node replaced by every JSON type: no exception, never verified", "[verify][mutation]") {
  const auto trust = pith::registry::TrustStore::with_pinned_key();
  const json original = *pith::signed_json::parse_strict_json(pith::test::read_data("JFLLIOJUI2M3KX3FLLGP4N2V65.bundle.json"));
  std::vector<json::json_pointer> nodes;
  collect_nodes(original, json::json_pointer(), nodes);
  const std::vector<json> replacements = {nullptr, 0, -1, "", "x", json::array(), json::object(), true,
                                          json::array({json::object()}), std::uint64_t{18446744073709551615u}};
  std::size_t runs = 0;
  for (const auto& node : nodes) {
    if (node.empty()) continue;  // the root itself
    for (const json& r : replacements) {
      json copy = original;
      copy[node] = r;
      if (same_signed_content(copy, original)) continue;
      INFO(node.to_string() << " := " << r.dump());
      pith::Result<pith::registry::DocumentVerification> v = pith::fail(pith::ErrorKind::internal, "", "");
      REQUIRE_NOTHROW(v = pith::registry::verify_document(copy.dump(), trust, "mutant"));
      if (v) {
        INFO(v->report.to_text());
        CHECK(v->report.verdict() != pith::Verdict::verified);
        REQUIRE_NOTHROW(v->report.to_json().dump());
      }
      ++runs;
    }
  }
  CHECK(runs > 2000);
}

TEST_CASE("random byte corruption: no exception, never verified", "[verify][mutation]") {
  const auto trust = pith::registry::TrustStore::with_pinned_key();
  const std::string bytes = pith::test::read_data("JFLLIOJUI2M3KX3FLLGP4N2V65.bundle.json");
  const json original = *pith::signed_json::parse_strict_json(bytes);
  std::mt19937 rng(20260705);
  std::uniform_int_distribution<std::size_t> pos(0, bytes.size() - 1);
  std::uniform_int_distribution<int> byte(0, 255);
  std::uniform_int_distribution<int> how(0, 3);
  std::size_t parsed = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string m = bytes;
    const int edits = 1 + how(rng) % 3;
    for (int e = 0; e < edits; ++e) {
      const std::size_t p = pos(rng) % m.size();
      switch (how(rng)) {
        case 0: m[p] = static_cast<char>(byte(rng)); break;
        case 1: m.erase(p, 1); break;
        case 2: m.insert(p, 1, static_cast<char>(byte(rng))); break;
        default: m[p] = static_cast<char>(m[p] ^ (1 << (byte(rng) % 8))); break;
      }
    }
    pith::Result<pith::registry::DocumentVerification> v = pith::fail(pith::ErrorKind::internal, "", "");
    REQUIRE_NOTHROW(v = pith::registry::verify_document(m, trust, "mutant"));
    if (!v) continue;
    ++parsed;
    REQUIRE_NOTHROW(v->report.to_json().dump(-1, ' ', false, json::error_handler_t::replace));
    if (v->report.verdict() == pith::Verdict::verified) {
      // Only a change that leaves the signed content equal may verify
      // (whitespace can't occur in this compact file; signed_at can change).
      CHECK(same_signed_content(v->content().document, original));
    }
  }
  CHECK(parsed > 100);
}
