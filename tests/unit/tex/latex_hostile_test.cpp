// SPDX-License-Identifier: GPL-3.0-or-later
// Hostile registry data: a record whose title holds TeX, comment and
// parameter characters, unbalanced braces and non-ASCII text. The generated
// pith.sty compiles on every engine and the title comes out literally in
// the PDF's XMP (inside pith:canonicalRecord), nothing of it run as TeX.
#include "pith/tex/sty.hpp"
#include "support/latex_matrix.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>

using namespace pith::test;

namespace {
const std::string hostile_title =
    "\\write18{touch pwned} % comment # hash }{ \\input{/etc/passwd} \\def\\x{y} "
    "&amp; <b>\"q\"</b> (paren) ^^5c ~ $ _ Écoles — 数学 😀 \\endinput";

void check_hostile(Engine engine) {
  const auto record = signed_record_with_title(hostile_title);
  auto sty = pith::tex::generate_sty(record);
  REQUIRE(sty);
  Paper paper;
  paper.variant = Variant::hyperref_after;
  paper.number = record.number().body;
  const auto dir = make_paper_dir(std::string("hostile-") + to_string(engine), paper, *sty);
  INFO("paper in " << dir.string());
  const auto c = compile(dir, "paper", engine);
  INFO(c.output.substr(c.output.size() > 3000 ? c.output.size() - 3000 : 0));
  REQUIRE(c.ok);
  CHECK_FALSE(std::filesystem::exists(dir / "pwned"));
  CHECK(c.log.find("root:") == std::string::npos);  // /etc/passwd was not read
  const std::string xmp_record = xmp_value(c.pdf, "CanonicalRecord");
  CHECK(xmp_record == record.canonical_json);
  const auto parsed = nlohmann::json::parse(xmp_record, nullptr, false);
  REQUIRE_FALSE(parsed.is_discarded());
  CHECK(parsed["metadata"]["title"] == hostile_title);
  // The signed bundle, title and all, is embedded byte for byte.
  const auto bundle = detached(c.pdf, "pith-bundle.json");
  REQUIRE(bundle);
  CHECK(*bundle == record.document_bytes);
  CHECK(bundle->find(nlohmann::json(hostile_title).dump(-1, ' ', false)) != std::string::npos);
  CHECK(info_value(c.pdf, "PithNumber") == record.number().to_string());
  CHECK(metadata_stream_count(qpdf_json(c.pdf)) == 1);
  CHECK(qpdf_check_clean(c.pdf));
  // Signed by the test key: pith-check verifies the record when told to
  // trust that key, and refuses it otherwise. The harness paper shows its own
  // title, not the record's, so the genuine record is `unbound` to it (exit
  // 4), never `verified` (issue 10).
  const auto trusted = pith_check_offline(c.pdf, std::filesystem::path(PITH_TEST_DATA_DIR) / "test-signing-key.json");
  INFO(trusted.out);
  CHECK(trusted.status == 4);
  CHECK(trusted.out.find(": unbound pith:") != std::string::npos);
  CHECK(trusted.out.find("ok   receipt.signature.valid") != std::string::npos);
  const auto untrusted = pith_check_offline(c.pdf);
  CHECK(untrusted.status != 0);
  CHECK(untrusted.out.find(": unbound pith:") == std::string::npos);
}
}  // namespace

TEST_CASE("hostile title: pdflatex") { check_hostile(Engine::pdflatex); }
TEST_CASE("hostile title: lualatex") { check_hostile(Engine::lualatex); }
TEST_CASE("hostile title: xelatex") { check_hostile(Engine::xelatex); }
TEST_CASE("hostile title: latex+dvips+ps2pdf") { check_hostile(Engine::dvips); }
