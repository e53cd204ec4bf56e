// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/tex/stamp.hpp"
#include "pith/base/crypto.hpp"
#include "pith/registry/trust_store.hpp"
#include "support/test_data.hpp"
#include "support/latex_harness.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <sys/stat.h>

namespace fs = std::filesystem;

namespace {
const std::string paper = "\\documentclass{article}\n\\usepackage{pith}\n\\pithnumber{JFLLIOJUI2M3KX3FLLGP4N2V65}\n";
}  // namespace

TEST_CASE("stamp_tex writes pith.sty beside the paper, then leaves it byte-identical") {
  const auto d = pith::test::fresh_temp_dir("write");
  pith::test::write_file(d / "paper.tex", paper);
  const auto record = pith::test::fixture_record();
  auto first = pith::tex::stamp_tex(d / "paper.tex", record);
  REQUIRE(first);
  CHECK(first->written);
  CHECK(first->sty_path == d / "pith.sty");
  CHECK(pith::test::read_file(d / "pith.sty") == *pith::tex::generate_sty(record));
  struct stat before {};
  REQUIRE(::stat((d / "pith.sty").c_str(), &before) == 0);
  auto second = pith::tex::stamp_tex(d / "paper.tex", record);
  REQUIRE(second);
  CHECK_FALSE(second->written);
  struct stat after {};
  REQUIRE(::stat((d / "pith.sty").c_str(), &after) == 0);
  CHECK(before.st_ino == after.st_ino);  // not replaced
  CHECK(before.st_mtim.tv_nsec == after.st_mtim.tv_nsec);
  CHECK(before.st_mtim.tv_sec == after.st_mtim.tv_sec);
  // No temporary files left behind.
  int entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(d)) ++entries;
  CHECK(entries == 2);
}

TEST_CASE("the plain pith.sty (or an older generated one) is replaced") {
  const auto d = pith::test::fresh_temp_dir("replace");
  pith::test::write_file(d / "paper.tex", paper);
  pith::test::write_file(d / "pith.sty", pith::tex::plain_sty());
  auto r = pith::tex::stamp_tex(d / "paper.tex", pith::test::fixture_record());
  REQUIRE(r);
  CHECK(r->written);
}

TEST_CASE("a pith.sty that is not pith's package is never overwritten") {
  const auto d = pith::test::fresh_temp_dir("foreign");
  pith::test::write_file(d / "paper.tex", paper);
  pith::test::write_file(d / "pith.sty", "% someone else's pith.sty\n\\ProvidesPackage{pith}\n");
  auto r = pith::tex::stamp_tex(d / "paper.tex", pith::test::fixture_record());
  REQUIRE_FALSE(r);
  CHECK(r.error().message.find("not pith's package") != std::string::npos);
  CHECK(pith::test::read_file(d / "pith.sty") == "% someone else's pith.sty\n\\ProvidesPackage{pith}\n");
}

TEST_CASE("the record must be the paper's and verified") {
  const auto d = pith::test::fresh_temp_dir("mismatch");
  pith::test::write_file(d / "paper.tex", "\\pithnumber{WXNI57C2SJ24QK62DB7DTUREA3}\n");
  auto r = pith::tex::stamp_tex(d / "paper.tex", pith::test::fixture_record());
  REQUIRE_FALSE(r);
  CHECK(r.error().message.find("WXNI57C2SJ24QK62DB7DTUREA3") != std::string::npos);
  CHECK(r.error().message.find("JFLLIOJUI2M3KX3FLLGP4N2V65") != std::string::npos);
  CHECK(r.error().kind == pith::ErrorKind::conflict);
  CHECK_FALSE(fs::exists(d / "pith.sty"));

  pith::test::write_file(d / "paper.tex", "\\pithnumber{pith:2020:JFLLIOJUI2M3KX3FLLGP4N2V65}\n");  // wrong year
  CHECK_FALSE(pith::tex::stamp_tex(d / "paper.tex", pith::test::fixture_record()));

  pith::test::write_file(d / "paper.tex", paper);
  // An unverified record cannot reach stamp_tex: the verification of a
  // tampered bundle (its signed built_at changed) holds no record.
  auto tampered = nlohmann::json::parse(pith::test::read_data("JFLLIOJUI2M3KX3FLLGP4N2V65.bundle.json"));
  tampered["built_at"] = "2099-01-01T00:00:00Z";
  const auto u = pith::registry::verify_document(tampered.dump(), pith::registry::TrustStore::with_pinned_key(), "tampered");
  REQUIRE(u);
  CHECK(u->report.verdict() == pith::Verdict::failed);
  CHECK_FALSE(u->record().has_value());
  CHECK_FALSE(fs::exists(d / "pith.sty"));
}

TEST_CASE("the record source is asked for the number found in the paper") {
  const auto d = pith::test::fresh_temp_dir("source");
  pith::test::write_file(d / "paper.tex", paper);
  std::string asked;
  auto r = pith::tex::stamp_tex(d / "paper.tex", [&](const pith::tex::TexNumber& n) -> pith::Result<pith::registry::VerifiedRecord> {
    asked = n.number.body;
    return pith::test::fixture_record();
  });
  REQUIRE(r);
  CHECK(asked == "JFLLIOJUI2M3KX3FLLGP4N2V65");
}

// verify_existing_sty: what pith-stamp keeps when the registry cannot be reached.
namespace {
pith::tex::TexNumber number_of(const fs::path& tex) {
  auto n = pith::tex::find_pith_number(tex);
  REQUIRE(n);
  return *n;
}
}  // namespace

TEST_CASE("a generated pith.sty is read back and its record verified again") {
  const auto d = pith::test::fresh_temp_dir("existing");
  pith::test::write_file(d / "paper.tex", paper);
  const auto record = pith::test::fixture_record();
  REQUIRE(pith::tex::stamp_tex(d / "paper.tex", record));
  const auto trust = pith::registry::TrustStore::with_pinned_key();

  auto kept = pith::tex::verify_existing_sty(d / "paper.tex", number_of(d / "paper.tex"), trust);
  REQUIRE(kept);
  CHECK(kept->number() == record.number());
  CHECK(kept->document_bytes == record.document_bytes);

  auto data = pith::tex::read_sty_data(pith::test::read_file(d / "pith.sty"), "pith.sty");
  REQUIRE(data);
  CHECK(data->properties.canonical_record == record.canonical_json);
  CHECK(data->properties.number == record.number().to_string());
  CHECK(data->properties.number.ends_with(":JFLLIOJUI2M3KX3FLLGP4N2V65"));
  CHECK(data->properties == pith::carrier::pith_properties_of(record, "", ""));  // what a PDF's XMP carries of it
  CHECK(data->resolver == "https://pith.science");
}

TEST_CASE("a pith.sty kept offline must be generated, verified, consistent and the paper's") {
  const auto d = pith::test::fresh_temp_dir("existing-bad");
  pith::test::write_file(d / "paper.tex", paper);
  const auto trust = pith::registry::TrustStore::with_pinned_key();
  const auto check = [&] { return pith::tex::verify_existing_sty(d / "paper.tex", number_of(d / "paper.tex"), trust); };

  SECTION("none") {
    auto r = check();
    REQUIRE_FALSE(r);
    CHECK(r.error().kind == pith::ErrorKind::not_found);
  }
  SECTION("the plain package") {
    pith::test::write_file(d / "pith.sty", pith::tex::plain_sty());
    auto r = check();
    REQUIRE_FALSE(r);
    CHECK(r.error().kind == pith::ErrorKind::malformed);
  }
  SECTION("a baked value that is not the embedded record's") {
    const auto record = pith::test::fixture_record();
    std::string sty = *pith::tex::generate_sty(record);
    const std::string hash_hex = pith::to_hex(record.canonical_sha256);
    const auto at = sty.find(hash_hex);
    REQUIRE(at != std::string::npos);
    sty[at] = sty[at] == '3' ? '4' : '3';  // still hex, another hash
    pith::test::write_file(d / "pith.sty", sty);
    auto r = check();
    REQUIRE_FALSE(r);
    CHECK(r.error().kind == pith::ErrorKind::rejected);
  }
  SECTION("a baked year that is not the record's (the package would print and write another number)") {
    const auto record = pith::test::fixture_record();
    std::string sty = *pith::tex::generate_sty(record);
    const std::string year_line = "\\__pith_data:nn {year} {" + pith::to_hex(pith::registry::four_digit_year(*record.number().year)) + "}";
    const auto at = sty.find(year_line);
    REQUIRE(at != std::string::npos);
    sty.replace(at, year_line.size(), "\\__pith_data:nn {year} {" + pith::to_hex(std::string("1999")) + "}");
    pith::test::write_file(d / "pith.sty", sty);
    auto r = check();
    REQUIRE_FALSE(r);
    CHECK(r.error().kind == pith::ErrorKind::rejected);
  }
  SECTION("an embedded bundle that no longer verifies") {
    const auto record = pith::test::fixture_record();
    std::string sty = *pith::tex::generate_sty(record);
    const auto at = sty.find("\\__pith_data_bundle:n {");
    REQUIRE(at != std::string::npos);
    const auto digit = at + std::string("\\__pith_data_bundle:n {").size() + 40;
    sty[digit] = sty[digit] == '6' ? '7' : '6';
    pith::test::write_file(d / "pith.sty", sty);
    auto r = check();
    REQUIRE_FALSE(r);
  }
  SECTION("another number's") {
    REQUIRE(pith::tex::stamp_tex(d / "paper.tex", pith::test::fixture_record()));
    pith::test::write_file(d / "paper.tex", "\\pithnumber{WXNI57C2SJ24QK62DB7DTUREA3}\n");
    auto r = check();
    REQUIRE_FALSE(r);
    CHECK(r.error().kind == pith::ErrorKind::conflict);
  }
}
