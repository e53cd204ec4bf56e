// SPDX-License-Identifier: GPL-3.0-or-later
// A report's verdict and headline: `altered` between `unbound` and
// `verified`, its exit code, and every warning named on the verdict line
// and in the JSON, so that nothing a reader must know stays below it.
#include "pith/base/exit_codes.hpp"
#include "pith/base/report.hpp"

#include <catch2/catch.hpp>

using pith::Report;
using pith::Verdict;

namespace {

// A stamped PDF whose genuine record is bound by page 1's title.
Report bound_pdf() {
  Report r;
  r.input = "paper.pdf";
  r.pith_number = "pith:2020:WXNI57C2SJ24QK62DB7DTUREA3";
  r.requires_content_binding = true;
  r.trust_anchor("bundle.signature.valid", "signed by a trusted key");
  r.content_binding("pdf.title.visible_match", "page 1 shows the record's title");
  return r;
}

}  // namespace

TEST_CASE("a content change after stamping makes a bound PDF altered, never verified", "[report][verdict]") {
  Report r = bound_pdf();
  REQUIRE(r.verdict() == Verdict::verified);
  r.alteration("pdf.bytes.rewritten_text_changed",
               "text changed on page 3 since stamping, rewritten (an unsigned fingerprint recorded by pith-stamp)");
  CHECK(r.verdict() == Verdict::altered);
  CHECK(std::string(pith::to_string(r.verdict())) == "altered");
  CHECK(pith::exit_code_for(r.verdict()) == pith::exit_code::altered);
  CHECK(pith::exit_code::altered != pith::exit_code::ok);
  CHECK(pith::exit_code::altered != pith::exit_code::verification_failed);
  // The headline says what changed, not the qualification after " (".
  CHECK(r.headline() == "✗ paper.pdf: altered pith:2020:WXNI57C2SJ24QK62DB7DTUREA3 — text changed on page 3 since "
                        "stamping, rewritten; 1 warning: pdf.bytes.rewritten_text_changed");
  CHECK(r.to_json()["verdict"] == "altered");
  CHECK(r.to_json()["warnings"] == nlohmann::json::array({"pdf.bytes.rewritten_text_changed"}));
}

TEST_CASE("stronger verdicts outrank altered", "[report][verdict]") {
  SECTION("a failure") {
    Report r = bound_pdf();
    r.alteration("pdf.bytes.rewritten_text_changed", "text changed on page 3");
    r.fail("pdf.bytes.prefix_broken", "the first bytes changed");
    CHECK(r.verdict() == Verdict::failed);
  }
  SECTION("nothing binds: unbound, the alteration still named on the headline") {
    Report r;
    r.input = "paper.pdf";
    r.requires_content_binding = true;
    r.trust_anchor("bundle.signature.valid");
    r.alteration("pdf.bytes.rewritten_text_changed", "text changed on page 3");
    CHECK(r.verdict() == Verdict::unbound);
    CHECK_THAT(r.headline(), Catch::Matchers::Contains("1 warning: pdf.bytes.rewritten_text_changed"));
  }
  SECTION("an ordinary warning does not alter") {
    Report r = bound_pdf();
    r.warn("pdf.bytes.later_revisions", "1 later revision");
    CHECK(r.verdict() == Verdict::verified);
  }
}

TEST_CASE("the headline names every warning beside the verdict", "[report][headline]") {
  Report r = bound_pdf();
  CHECK(r.headline() == "✓ paper.pdf: verified pith:2020:WXNI57C2SJ24QK62DB7DTUREA3");
  CHECK(r.to_json()["warnings"] == nlohmann::json::array());
  r.warn("pdf.bytes.rewritten", "the file was rewritten as a whole");
  r.pass("pdf.title.match");
  r.warn("pdf.arxiv.other_version", "this PDF is v2");
  CHECK(r.headline() == "✓ paper.pdf: verified pith:2020:WXNI57C2SJ24QK62DB7DTUREA3 — 2 warnings: pdf.bytes.rewritten, "
                        "pdf.arxiv.other_version");
  CHECK(r.to_text().rfind(r.headline() + "\n", 0) == 0);
  // A hostile code or detail cannot draw on the terminal from the headline.
  r.warn("x\x1b[2J", "y");
  CHECK(r.headline().find('\x1b') == std::string::npos);
}

TEST_CASE("with many inputs an altered paper outranks every outcome but a failure", "[exit]") {
  using namespace pith::exit_code;
  CHECK(worst(altered, usage_or_io) == altered);
  CHECK(worst(altered, unverifiable) == altered);
  CHECK(worst(not_found, altered) == altered);
  CHECK(worst(ok, altered) == altered);
  CHECK(worst(altered, verification_failed) == verification_failed);
}
