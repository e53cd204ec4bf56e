// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/signed_json/canonical.hpp"
#include "pith/base/crypto.hpp"
#include "pith/signed_json/strict.hpp"
#include "support/test_data.hpp"

#include <catch2/catch.hpp>

namespace {
std::string canon_hex(const std::string& json_text) {
  auto doc = pith::signed_json::parse_strict_json(json_text);
  REQUIRE(doc.has_value());
  const std::string c = pith::signed_json::canon(*doc);
  return pith::to_hex(std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(c.data()), c.size()));
}
}  // namespace

// Expected bytes were produced by Python 3.11:
//   json.dumps(x, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode().hex()
TEST_CASE("canon matches Python json.dumps byte for byte", "[canonical_json]") {
  // key order, literals, nested objects, upper before lower case
  CHECK(canon_hex(R"({"b":1,"a":[true,false,null],"c":{"z":"y","Z":"Y"}})") ==
        "7b2261223a5b747275652c66616c73652c6e756c6c5d2c2262223a312c2263223a7b225a223a2259222c227a223a2279227d7d");
  // control characters: short escapes, \u00xx lower-case, 0x7f raw, '/' raw
  CHECK(canon_hex(R"({"s":"tab\there\nnl\r\b\f\u0001\u001F\u007f\/slash\"q\\b"})") ==
        "7b2273223a227461625c74686572655c6e6e6c5c725c625c665c75303030315c75303031667f2f736c6173685c22715c5c62227d");
  // keys sorted by code point, non-ASCII raw, astral via surrogate pair
  CHECK(canon_hex(R"({"\u00e9":1,"e":2,"z":3,"\u00ff":4,"\ud83d\ude00":5,"\uffff":6,"\u0100":7})") ==
        "7b2265223a322c227a223a332c22c3a9223a312c22c3bf223a342c22c480223a372c22efbfbf223a362c22f09f9880223a357d");
  // integer range
  CHECK(canon_hex(R"({"n":[-1,0,9223372036854775807,-9223372036854775808,18446744073709551615]})") ==
        "7b226e223a5b2d312c302c393232333337323033363835343737353830372c2d393232333337323033363835343737353830382c3138343436"
        "3734343037333730393535313631355d7d");
  // raw UTF-8 punctuation and U+2028/2029 (not escaped with ensure_ascii=False)
  CHECK(canon_hex("{\"u\":\"\xc3\x9cn\xc3\xaf" "c\xc3\xb6" "d\xc3\xa9 \xe2\x80\x93 \xe2\x80\x9cquotes\xe2\x80\x9d "
                  "\xf0\x9f\x98\x80 \\u2028\\u2029\"}") ==
        "7b2275223a22c39c6ec3af63c3b664c3a920e2809320e2809c71756f746573e2809d20f09f988020e280a8e280a9227d");
  CHECK(canon_hex("[]") == "5b5d");
  CHECK(canon_hex("{}") == "7b7d");
  CHECK(canon_hex(R"("")") == "2222");
  CHECK(canon_hex(R"({"":{"":[]}})") == "7b22223a7b22223a5b5d7d7d");
  // whitespace in the input is irrelevant
  CHECK(canon_hex(" { \"a\" : [ 1 , 2 ] } ") == canon_hex(R"({"a":[1,2]})"));
}

TEST_CASE("canon refuses values without a canonical form", "[canonical_json]") {
  nlohmann::json with_float = {{"a", 1.5}};
  CHECK_THROWS_AS(pith::signed_json::canon(with_float), pith::signed_json::CanonicalJsonError);
  CHECK_FALSE(pith::signed_json::try_canon(with_float).has_value());
  nlohmann::json bad_utf8 = {{"a", std::string("\xff")}};
  CHECK_THROWS_AS(pith::signed_json::canon(bad_utf8), pith::signed_json::CanonicalJsonError);
}

TEST_CASE("the fixture record hashes to the spec's canonical_sha256", "[canonical_json]") {
  auto record = pith::signed_json::parse_strict_json(pith::test::read_data("WXNI57C2SJ24QK62DB7DTUREA3.canonical_record.json"));
  REQUIRE(record.has_value());
  CHECK(pith::signed_json::canonical_sha256_hex(*record) == "b5da8efc5a9275c82bda187e39d22406cb4d4359bb8101b2b8200a6c524a5b91");
}

TEST_CASE("without_key drops one top-level key only", "[canonical_json]") {
  nlohmann::json v = {{"a", 1}, {"b", {{"a", 2}}}};
  auto w = pith::signed_json::without_key(v, "a");
  CHECK_FALSE(w.contains("a"));
  CHECK(w["b"]["a"] == 2);
  CHECK(v.contains("a"));
}
