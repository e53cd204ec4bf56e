// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/signed_json/diff.hpp"

#include <catch2/catch.hpp>

using nlohmann::json;

TEST_CASE("first difference is named by its JSON path", "[json_diff]") {
  json a = {{"a", 1}, {"b", {{"c", json::array({1, 2, 3})}}}};
  json b = a;
  CHECK_FALSE(pith::signed_json::first_difference(a, b).has_value());
  b["b"]["c"][1] = 5;
  auto d = pith::signed_json::first_difference(a, b);
  REQUIRE(d.has_value());
  CHECK(d->path == "$.b.c[1]");
  CHECK(d->left == "2");
  CHECK(d->right == "5");
  b = a;
  b["b"]["c"].push_back(4);
  CHECK(pith::signed_json::first_difference(a, b)->path == "$.b.c[3]");
  CHECK(pith::signed_json::first_difference(a, b)->left == "(absent)");
  b = a;
  b["odd key"] = true;
  CHECK(pith::signed_json::first_difference(a, b)->path == "$[\"odd key\"]");
  // Signed and unsigned integers of the same value are the same number.
  CHECK_FALSE(pith::signed_json::first_difference(json(2u), json(2)).has_value());
  CHECK(pith::signed_json::first_difference(json("2"), json(2))->path == "$");
}

TEST_CASE("previews are bounded", "[json_diff]") {
  const std::string p = pith::signed_json::json_preview(json(std::string(500, 'x')), 80);
  CHECK(p.size() <= 83);
}
