// SPDX-License-Identifier: GPL-3.0-or-later
// Parsing what users type to name a paper, and matching fetched records to it.
#include "pith/registry/identifier.hpp"

#include <catch2/catch.hpp>

using pith::registry::IdentifierKind;
using pith::registry::parse_identifier;

namespace {
const nlohmann::json arxiv_record = {{"source", {{"kind", "arxiv"}, {"id", "2011.03641"}, {"version", 3}}}};
// The full number of a fetched record (Identifier::matches takes the record's PithNumber).
pith::registry::PithNumber record_number(const char* text) { return pith::registry::parse_pith_number(text).value(); }
const auto wxni = record_number("pith:2020:WXNI57C2SJ24QK62DB7DTUREA3");
}

TEST_CASE("full numbers, bodies and short forms are normalised", "[identifier]") {
  auto full = parse_identifier("  pith:2020:wxni57c2sj24qk62db7dturea3\n");
  REQUIRE(full);
  CHECK(full->kind() == IdentifierKind::full_number);
  CHECK(full->text() == "pith:2020:WXNI57C2SJ24QK62DB7DTUREA3");
  CHECK(full->number()->year == 2020);
  CHECK(full->path_id() == "WXNI57C2SJ24QK62DB7DTUREA3");

  auto body = parse_identifier("WXNI57C2SJ24QK62DB7DTUREA3");
  REQUIRE(body);
  CHECK(body->kind() == IdentifierKind::body);
  CHECK(body->matches(wxni, {}));
  CHECK_FALSE(body->matches(record_number("pith:2020:WXNI57C2SJ24QK62DB7DTUREA4"), {}));

  for (const char* s : {"pith:WXNI57C2", "pith:wxni57c2sj24", "PITH:WXNI57C2SJ24QK62"}) {
    auto short_form = parse_identifier(s);
    REQUIRE(short_form);
    CHECK(short_form->kind() == IdentifierKind::short_form);
    CHECK(short_form->matches(wxni, {}));
    CHECK_FALSE(short_form->matches(record_number("pith:2020:AXNI57C2SJ24QK62DB7DTUREA3"), {}));
  }
}

TEST_CASE("bad characters and lengths are named with their position", "[identifier]") {
  auto bad = parse_identifier("pith:2020:WXNI57C2SJ24QK62DB7DTURE01");
  REQUIRE_FALSE(bad);
  CHECK(bad.error().where == "pith:2020:WXNI57C2SJ24QK62DB7DTURE01");
  CHECK(bad.error().message.find("at position 35") != std::string::npos);
  auto short_bad = parse_identifier("pith:WXNI5");
  REQUIRE_FALSE(short_bad);
  CHECK(short_bad.error().message.find("8, 12 or 16") != std::string::npos);
  CHECK_FALSE(parse_identifier("paper.pdf"));
  CHECK_FALSE(parse_identifier(""));
  CHECK_FALSE(pith::registry::looks_like_identifier("README"));
  CHECK_FALSE(pith::registry::looks_like_identifier("paper.tex"));
  CHECK(pith::registry::looks_like_identifier("wxni57c2"));  // a bare short form, as the codec accepts
}

TEST_CASE("arXiv ids, with and without version, old and new style", "[identifier]") {
  auto plain = parse_identifier("2011.03641");
  REQUIRE(plain);
  CHECK(plain->kind() == IdentifierKind::arxiv);
  CHECK(plain->path_id() == "2011.03641");
  CHECK(plain->matches(wxni, arxiv_record));

  auto versioned = parse_identifier("arXiv:2011.03641v3");
  REQUIRE(versioned);
  CHECK(versioned->arxiv()->id == "2011.03641");
  CHECK(versioned->arxiv()->version == 3);
  CHECK(versioned->text() == "2011.03641v3");
  CHECK(versioned->matches(wxni, arxiv_record));

  auto other_version = parse_identifier("ARXIV:2011.03641v2");
  REQUIRE(other_version);
  CHECK_FALSE(other_version->matches(wxni, arxiv_record));
  CHECK(other_version->mismatch(wxni, arxiv_record) ==
        "asked for arXiv 2011.03641v2, got pith:2020:WXNI57C2SJ24QK62DB7DTUREA3 whose source is arxiv 2011.03641v3");

  auto other_paper = parse_identifier("2011.03642");
  REQUIRE(other_paper);
  CHECK_FALSE(other_paper->matches(wxni, arxiv_record));
  CHECK_FALSE(other_paper->matches(wxni, nlohmann::json::object()));

  auto old = parse_identifier("hep-th/9901001v2");
  REQUIRE(old);
  CHECK(old->arxiv()->id == "hep-th/9901001");
  CHECK(old->arxiv()->version == 2);
  CHECK(parse_identifier("2106.02679"));
  CHECK_FALSE(parse_identifier("2011.036"));
  CHECK_FALSE(parse_identifier("2011.03641v"));
}
