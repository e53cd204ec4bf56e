// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/tex/sty.hpp"
#include "pith/base/version.hpp"
#include "support/latex_harness.hpp"

#include <catch2/catch.hpp>
#include <regex>

TEST_CASE("the compiled-in package is latex/pith.sty with its data marker and version") {
  const auto text = pith::tex::pith_sty_template();
  CHECK(text.find(pith::tex::sty_data_marker) != std::string_view::npos);
  const std::string provides = std::string("\\ProvidesExplPackage{pith}{");
  const auto at = text.find(provides);
  REQUIRE(at != std::string_view::npos);
  // The package version is the project version.
  CHECK(text.find(std::string("}{") + pith::version_string + "}", at) != std::string_view::npos);
  CHECK(text.find(std::string("pith.sty~") + pith::version_string) != std::string_view::npos);
}

TEST_CASE("generated sty: package text + hex-only data block, deterministic") {
  const auto record = pith::test::signed_record_with_title("\\write18{rm -rf /} % # }{ \\input{/etc/passwd} é");
  auto a = pith::tex::generate_sty(record);
  auto b = pith::tex::generate_sty(record);
  REQUIRE(a);
  REQUIRE(b);
  CHECK(*a == *b);
  CHECK(a->find(pith::tex::sty_data_marker) == std::string::npos);
  const auto data_at = a->find("% ---- verified data");
  REQUIRE(data_at != std::string::npos);
  CHECK(a->substr(0, data_at) == std::string(pith::tex::pith_sty_template().substr(0, data_at)));
  // Every data argument is lower-case hex: no byte of registry data is TeX.
  const std::string block = a->substr(data_at);
  const std::regex call(R"(\\__pith_data(?:_bundle)?:nn? \{(?:[a-zA-Z0-9]+\} \{)?([^}]*)\})");
  int calls = 0;
  for (auto it = std::sregex_iterator(block.begin(), block.end(), call); it != std::sregex_iterator(); ++it) {
    ++calls;
    CHECK(std::regex_match((*it)[1].str(), std::regex("[0-9a-f]*")));
  }
  CHECK(calls > 20);
  CHECK(block.find("write18") == std::string::npos);
  CHECK(block.find("etc/passwd") == std::string::npos);
  // Only the comment lines and the \__pith_data* calls are in the block.
  std::istringstream lines(block);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.empty()) continue;
    CHECK((line.starts_with("%") || line.starts_with("\\__pith_data")));
  }
}

TEST_CASE("generated sty size: about twice the bundle plus the package") {
  const auto record = pith::test::fixture_record();
  auto sty = pith::tex::generate_sty(record);
  REQUIRE(sty);
  const auto base = pith::tex::pith_sty_template().size();
  CHECK(sty->size() > base + 2 * record.document_bytes.size());
  CHECK(sty->size() < base + 2 * record.document_bytes.size() * 11 / 10 + 2 * record.canonical_json.size() + 4096);
}

TEST_CASE("a record without a receipt or document is refused") {
  auto record = pith::test::fixture_record();
  record.receipt_signature_b64.clear();
  auto r = pith::tex::generate_sty(record);
  REQUIRE_FALSE(r);
  CHECK(r.error().message.find("receipt") != std::string::npos);
  record = pith::test::fixture_record();
  record.document_bytes.assign(pith::tex::sty_max_document_bytes + 1, 'x');
  CHECK_FALSE(pith::tex::generate_sty(record));
  record = pith::test::fixture_record();
  record.pith_number = pith::registry::parse_pith_number("pith:WXNI57C2SJ24QK62DB7DTUREA3").value();
  CHECK_FALSE(pith::tex::generate_sty(record));
}

TEST_CASE("the resolver must be an http(s) URL; trailing slashes go") {
  const auto record = pith::test::fixture_record();
  pith::tex::StyOptions options;
  options.resolver_base = "javascript:alert(1)";
  CHECK_FALSE(pith::tex::generate_sty(record, options));
  options.resolver_base = "https://mirror.example.org/reg/";
  auto sty = pith::tex::generate_sty(record, options);
  REQUIRE(sty);
  // hex of https://mirror.example.org/reg (no trailing slash) followed by the closing brace
  CHECK(sty->find("68747470733a2f2f6d6972726f722e6578616d706c652e6f72672f726567}") != std::string::npos);
}
