// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/registry/number.hpp"
#include "pith/signed_json/strict.hpp"
#include "pith/tex/source.hpp"
#include "support/test_data.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using pith::registry::NumberForm;
using pith::registry::parse_pith_number;
using pith::registry::PithNumber;

TEST_CASE("the fixture record derives its number", "[pith_number]") {
  auto record = pith::signed_json::parse_strict_json(pith::test::read_data("WXNI57C2SJ24QK62DB7DTUREA3.canonical_record.json"));
  REQUIRE(record.has_value());
  auto n = pith::registry::derive_pith_number(*record);
  REQUIRE(n.has_value());
  CHECK(n->canonical_sha256 == "b5da8efc5a9275c82bda187e39d22406cb4d4359bb8101b2b8200a6c524a5b91");
  CHECK(n->number.to_string() == "pith:2020:WXNI57C2SJ24QK62DB7DTUREA3");
  CHECK(n->number.body == "WXNI57C2SJ24QK62DB7DTUREA3");
  CHECK(n->number.year == 2020);
}

TEST_CASE("the fixture bundle's record derives its number", "[pith_number]") {
  auto bundle = pith::signed_json::parse_strict_json(pith::test::read_data("JFLLIOJUI2M3KX3FLLGP4N2V65.bundle.json"));
  REQUIRE(bundle.has_value());
  auto n = pith::registry::derive_pith_number((*bundle)["canonical_record"]);
  REQUIRE(n.has_value());
  CHECK(n->canonical_sha256 == "4956b439344699b55f655accfe3755f76675906c3782b2b848781fbe13e87432");
  CHECK(n->number.to_string() == "pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65");
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
  CHECK(full->short_form().to_string() == "pith:WXNI57C2");
  CHECK(full->short_form(16).to_string() == "pith:WXNI57C2SJ24QK62");
  CHECK(PithNumber::full(2020, "WXNI57C2SJ24QK62DB7DTUREA3").to_string() == "pith:2020:WXNI57C2SJ24QK62DB7DTUREA3");
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

// --- One number, every spelling (table-driven) ---------------------------

namespace {

// The two fixture numbers (tests/data).
struct Fixture {
  std::string full;
  std::string body;
  int year;
};
const std::vector<Fixture> fixtures = {
    {"pith:2020:WXNI57C2SJ24QK62DB7DTUREA3", "WXNI57C2SJ24QK62DB7DTUREA3", 2020},
    {"pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65", "JFLLIOJUI2M3KX3FLLGP4N2V65", 2021},
};

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// A way to write a fixture's number, and its canonical spelling.
struct Spelling {
  std::string written;
  std::string canonical;
  NumberForm form;
};

std::vector<Spelling> spellings_of(const Fixture& f) {
  const std::string& b = f.body;
  const std::string y = std::to_string(f.year);
  const std::string whole = "pith:" + b;
  return {
      {f.full, f.full, NumberForm::full},
      {whole, whole, NumberForm::body},
      {b, whole, NumberForm::body},
      {lower(f.full), f.full, NumberForm::full},
      {"PITH:" + y + ":" + lower(b), f.full, NumberForm::full},
      {lower(whole), whole, NumberForm::body},
      {lower(b), whole, NumberForm::body},
      {"  " + f.full + "\n", f.full, NumberForm::full},
      {"\t" + b + " \r\n", whole, NumberForm::body},
      {"pith:" + b.substr(0, 8), "pith:" + b.substr(0, 8), NumberForm::short_prefix},
      {"pith:" + b.substr(0, 12), "pith:" + b.substr(0, 12), NumberForm::short_prefix},
      {"pith:" + b.substr(0, 16), "pith:" + b.substr(0, 16), NumberForm::short_prefix},
      {b.substr(0, 8), "pith:" + b.substr(0, 8), NumberForm::short_prefix},
      {lower(b.substr(0, 12)), "pith:" + b.substr(0, 12), NumberForm::short_prefix},
      {" Pith:" + lower(b.substr(0, 16)) + " ", "pith:" + b.substr(0, 16), NumberForm::short_prefix},
  };
}

// How a paper writes it: the \pithnumber argument (spaces inside allowed).
std::vector<Spelling> tex_spellings_of(const Fixture& f) {
  const std::string& b = f.body;
  const std::string whole = "pith:" + b;
  return {
      {b, whole, NumberForm::body},
      {" " + lower(b.substr(0, 8)) + " " + b.substr(8, 8) + "\n" + b.substr(16) + " ", whole, NumberForm::body},
      {whole, whole, NumberForm::body},
      {f.full, f.full, NumberForm::full},
      {lower(f.full), f.full, NumberForm::full},
  };
}

}  // namespace

TEST_CASE("every written form of a fixture number parses to it and matches the full number", "[pith_number]") {
  for (const Fixture& f : fixtures) {
    const auto full = parse_pith_number(f.full);
    REQUIRE(full);
    REQUIRE(full->to_string() == f.full);
    REQUIRE(full->year == f.year);
    for (const Spelling& s : spellings_of(f)) {
      INFO("written: '" << s.written << "'");
      const auto n = parse_pith_number(s.written);
      REQUIRE(n);
      CHECK(n->form == s.form);
      CHECK(n->to_string() == s.canonical);
      CHECK(f.body.starts_with(n->body));
      CHECK(n->year == (s.form == NumberForm::full ? std::optional<int>(f.year) : std::nullopt));
      CHECK(n->matches(*full));
      CHECK(full->matches(*n));  // the rule is symmetric
      const auto again = parse_pith_number(n->to_string());
      REQUIRE(again);
      CHECK(again->to_string() == s.canonical);  // the canonical spelling reads back as itself
    }
  }
}

TEST_CASE("a \\pithnumber argument goes through the same parser", "[pith_number]") {
  for (const Fixture& f : fixtures) {
    const auto full = *parse_pith_number(f.full);
    for (const Spelling& s : tex_spellings_of(f)) {
      INFO("\\pithnumber{" << s.written << "}");
      const auto tex = pith::tex::parse_tex_number_argument(s.written);
      REQUIRE(tex);
      CHECK(tex->number.form == s.form);
      CHECK(tex->number.to_string() == s.canonical);
      CHECK(tex->number.matches(full));
      CHECK(tex->as_written == s.written);
    }
    // A paper names its number in full: short forms are the user's shorthand only.
    const auto short_form = pith::tex::parse_tex_number_argument(f.body.substr(0, 16));
    REQUIRE_FALSE(short_form);
    CHECK(short_form.error().message.find("16 characters") != std::string::npos);
  }
}

TEST_CASE("another year is a conflict, another body another number", "[pith_number]") {
  for (const Fixture& f : fixtures) {
    const auto full = *parse_pith_number(f.full);
    const std::string other_year = "pith:" + std::to_string(f.year + 1) + ":" + f.body;
    const auto moved = *parse_pith_number(other_year);
    CHECK_FALSE(moved.matches(full));
    CHECK_FALSE(full.matches(moved));
    // Without a year on one side there is nothing to disagree about.
    const auto body_only = *parse_pith_number(f.body);
    CHECK(body_only.matches(moved));
    CHECK(body_only.matches(full));

    std::string changed = f.body;
    changed.back() = changed.back() == 'A' ? 'B' : 'A';
    const auto other_body = *parse_pith_number("pith:" + std::to_string(f.year) + ":" + changed);
    CHECK_FALSE(other_body.matches(full));
    CHECK_FALSE(parse_pith_number(changed)->matches(full));
    std::string changed_prefix = f.body.substr(0, 8);
    changed_prefix.front() = changed_prefix.front() == 'A' ? 'B' : 'A';
    CHECK_FALSE(parse_pith_number(changed_prefix)->matches(full));
    // Two short forms agree when one is a prefix of the other.
    CHECK(parse_pith_number(f.body.substr(0, 8))->matches(*parse_pith_number(f.body.substr(0, 16))));
  }
  CHECK_FALSE(parse_pith_number(fixtures[0].full)->matches(*parse_pith_number(fixtures[1].full)));
}

TEST_CASE("malformed numbers are refused naming the character, its position and why", "[pith_number]") {
  struct Bad {
    std::string input;
    std::string says;
  };
  const std::vector<Bad> table = {
      {"pith:2020:WXNI57C2SJ24QK62DB7DTURE03", "invalid character '0' at position 35"},
      {"pith:2020:WXNI57C2SJ24QK62DB7DTURE03", "0, 1, 8 and 9 never occur"},
      {"WXNI57C1", "invalid character '1' at position 8"},
      {"  WXNI-7C2", "invalid character '-' at position 7"},
      {"pith:20x0:WXNI57C2SJ24QK62DB7DTUREA3", "invalid character 'x' at position 8"},
      {"pith:20x0:WXNI57C2SJ24QK62DB7DTUREA3", "four digits"},
      {"pith:2020:WXNI57C2", "26-character body, got 8"},
      {"WXNI57C2SJ", "got 10"},
      {"pith:JFLLIOJUI2M3KX3FLLGP4N2V65A", "got 27"},
      {"WXNI57C\xc3\xa9", "byte 0xc3 at position 8"},
      {"WXNI 57C2", "invalid character byte 0x20 at position 5"},
      {"2020:WXNI57C2SJ24QK62DB7DTUREA3", "invalid character '0' at position 2"},  // a year needs pith:
      {"", "empty"},
      {" \t ", "empty"},
  };
  for (const Bad& bad : table) {
    INFO("input: '" << bad.input << "'");
    const auto n = parse_pith_number(bad.input);
    REQUIRE_FALSE(n);
    CHECK_THAT(n.error().message, Catch::Matchers::Contains(bad.says));
  }
}

TEST_CASE("same_number: written numbers that name the same paper", "[pith_number]") {
  using pith::registry::same_number;
  CHECK(same_number("pith:JFLLIOJUI2M3KX3FLLGP4N2V65", "pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65"));
  CHECK(same_number(" jflliojui2m3kx3fllgp4n2v65 ", "pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65"));
  CHECK(same_number("pith:JFLLIOJU", "pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65"));
  CHECK_FALSE(same_number("pith:2020:JFLLIOJUI2M3KX3FLLGP4N2V65", "pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65"));
  CHECK_FALSE(same_number("pith:2021:WXNI57C2SJ24QK62DB7DTUREA3", "pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65"));
  CHECK_FALSE(same_number("not a number", "pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65"));
}
