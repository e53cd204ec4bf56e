#include "pith/registry/number.hpp"
#include "pith/signed_json/strict.hpp"
#include "support/test_data.hpp"

#include <catch2/catch.hpp>

using pith::registry::NumberForm;
using pith::registry::parse_pith_number;

TEST_CASE("the fixture record derives its number", "[pith_number]") {
  auto record = pith::signed_json::parse_strict_json(pith::test::read_data("WXNI57C2SJ24QK62DB7DTUREA3.canonical_record.json"));
  REQUIRE(record.has_value());
  auto n = pith::registry::derive_pith_number(*record);
  REQUIRE(n.has_value());
  CHECK(n->canonical_sha256 == "b5da8efc5a9275c82bda187e39d22406cb4d4359bb8101b2b8200a6c524a5b91");
  CHECK(n->full == "pith:2020:WXNI57C2SJ24QK62DB7DTUREA3");
  CHECK(n->body == "WXNI57C2SJ24QK62DB7DTUREA3");
  CHECK(n->year == 2020);
}

TEST_CASE("the fixture bundle's record derives its number", "[pith_number]") {
  auto bundle = pith::signed_json::parse_strict_json(pith::test::read_data("JFLLIOJUI2M3KX3FLLGP4N2V65.bundle.json"));
  REQUIRE(bundle.has_value());
  auto n = pith::registry::derive_pith_number((*bundle)["canonical_record"]);
  REQUIRE(n.has_value());
  CHECK(n->canonical_sha256 == "4956b439344699b55f655accfe3755f76675906c3782b2b848781fbe13e87432");
  CHECK(n->full == "pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65");
}

TEST_CASE("base32_130 agrees with RFC 4648 base32 of the first 17 bytes", "[pith_number]") {
  // Python: base64.b32encode(bytes(range(32))[:17])[:26]
  pith::Sha256Digest d{};
  for (std::size_t i = 0; i < d.size(); ++i) d[i] = static_cast<std::uint8_t>(i);
  CHECK(pith::registry::base32_130(d) == "AAAQEAYEAUDAOCAJBIFQYDIOB4");
  pith::Sha256Digest ff{};
  ff.fill(0xff);
  CHECK(pith::registry::base32_130(ff) == "77777777777777777777777777");
}

TEST_CASE("every input form parses and normalises", "[pith_number]") {
  auto full = parse_pith_number("pith:2020:WXNI57C2SJ24QK62DB7DTUREA3");
  REQUIRE(full.has_value());
  CHECK(full->form == NumberForm::full);
  CHECK(full->is_full());
  CHECK(full->year == 2020);
  CHECK(full->to_string() == "pith:2020:WXNI57C2SJ24QK62DB7DTUREA3");

  auto lower = parse_pith_number("  PITH:2020:wxni57c2sj24qk62db7dturea3\n");
  REQUIRE(lower.has_value());
  CHECK(lower->to_string() == "pith:2020:WXNI57C2SJ24QK62DB7DTUREA3");

  auto bare = parse_pith_number("wxni57c2sj24qk62db7dturea3");
  REQUIRE(bare.has_value());
  CHECK(bare->form == NumberForm::body);
  CHECK_FALSE(bare->year.has_value());
  CHECK(bare->has_whole_body());

  for (const char* s : {"pith:WXNI57C2", "pith:WXNI57C2SJ24", "pith:wxni57c2sj24qk62", "WXNI57C2"}) {
    auto shortn = parse_pith_number(s);
    REQUIRE(shortn.has_value());
    CHECK(shortn->is_short());
    CHECK(shortn->matches(*full));
  }
  CHECK(pith::registry::format_short_number("WXNI57C2SJ24QK62DB7DTUREA3") == "pith:WXNI57C2");
  CHECK(pith::registry::format_short_number("WXNI57C2SJ24QK62DB7DTUREA3", 16) == "pith:WXNI57C2SJ24QK62");
  CHECK(pith::registry::format_full_number(2020, "WXNI57C2SJ24QK62DB7DTUREA3") == "pith:2020:WXNI57C2SJ24QK62DB7DTUREA3");
}

TEST_CASE("short forms match only their own number and year", "[pith_number]") {
  auto full = *parse_pith_number("pith:2020:WXNI57C2SJ24QK62DB7DTUREA3");
  CHECK_FALSE(parse_pith_number("pith:WXNI57C3")->matches(full));
  CHECK_FALSE(parse_pith_number("pith:2021:WXNI57C2SJ24QK62DB7DTUREA3")->matches(full));
  CHECK(parse_pith_number("WXNI57C2SJ24QK62DB7DTUREA3")->matches(full));
}

TEST_CASE("bad input is refused naming the character and position", "[pith_number]") {
  auto zero = parse_pith_number("pith:2020:WXNI57C2SJ24QK62DB7DTURE03");
  REQUIRE_FALSE(zero.has_value());
  CHECK(zero.error().message.find("'0' at position 35") != std::string::npos);
  CHECK(zero.error().message.find("0, 1, 8 and 9 never occur") != std::string::npos);
  for (const char* s : {"WXNI57C1", "WXNI57C8", "WXNI57C9", "WXNI-7C2"}) CHECK_FALSE(parse_pith_number(s).has_value());
  auto dash = parse_pith_number("  WXNI-7C2");
  REQUIRE_FALSE(dash.has_value());
  CHECK(dash.error().message.find("'-' at position 7") != std::string::npos);
  CHECK_FALSE(parse_pith_number("").has_value());
  CHECK_FALSE(parse_pith_number("   ").has_value());
  CHECK_FALSE(parse_pith_number("pith:2020:WXNI57C2").has_value());  // year + short
  CHECK_FALSE(parse_pith_number("pith:20x0:WXNI57C2SJ24QK62DB7DTUREA3").has_value());
  CHECK_FALSE(parse_pith_number("WXNI57C2SJ").has_value());          // 10 characters
  CHECK_FALSE(parse_pith_number("WXNI57C2SJ24QK62DB7DTUREA3A").has_value());
  auto utf = parse_pith_number("WXNI57C\xc3\xa9");
  REQUIRE_FALSE(utf.has_value());
  CHECK(utf.error().message.find("byte 0xc3 at position 8") != std::string::npos);
}

TEST_CASE("key fingerprints use the same codec", "[pith_number]") {
  auto key = pith::from_hex_fixed<32>("b2d552b68890857171a78b36a5dccf368a953413288c353f7c9d9d6f94b709b3");
  REQUIRE(key.has_value());
  CHECK(pith::registry::key_fingerprint_hex(*key) == "8d4b5ee74e4693bcd1df2446408b0d54");
  CHECK(pith::registry::key_fingerprint_b32(*key) == "RVFV5Z2OI2J3ZUO7ERDEBCYNKS");
}

TEST_CASE("records without a usable submitted_at are refused", "[pith_number]") {
  CHECK_FALSE(pith::registry::derive_pith_number(nlohmann::json::object()).has_value());
  CHECK_FALSE(pith::registry::derive_pith_number({{"metadata", {{"submitted_at", "20-1-1"}}}}).has_value());
  CHECK_FALSE(pith::registry::derive_pith_number({{"metadata", {{"submitted_at", 2020}}}}).has_value());
  CHECK(pith::registry::derive_pith_number({{"metadata", {{"submitted_at", "2020-01-01T00:00:00Z"}}}}).has_value());
}
