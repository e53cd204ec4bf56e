// SPDX-License-Identifier: GPL-3.0-or-later
// Each class: the badge's link lies between the title block and the
// abstract (or first section) on page 1, with the generated pith.sty.
#include "pith/tex/sty.hpp"
#include "support/latex_matrix.hpp"

#include <catch2/catch.hpp>

using namespace pith::test;

namespace {
void check_class(const std::string& cls, const std::string& options, Engine engine = Engine::pdflatex,
                 bool abstract_on_page1 = true) {
  Paper paper;
  paper.documentclass = cls;
  paper.class_options = options;
  const auto record = fixture_record();
  auto sty = pith::tex::generate_sty(record);
  REQUIRE(sty);
  const auto dir = make_paper_dir(cls + "-" + options + "-" + to_string(engine), paper, *sty);
  INFO("paper in " << dir.string());
  const auto c = compile(dir, "paper", engine);
  INFO(c.output.substr(c.output.size() > 3000 ? c.output.size() - 3000 : 0));
  REQUIRE(c.ok);
  CHECK(metadata_stream_count(qpdf_json(c.pdf)) == 1);
  check_badge_between_title_and_abstract(c.pdf, "https://pith.science/pith/JFLLIOJUI2M3KX3FLLGP4N2V65",
                                         abstract_on_page1);
  // Exactly one badge.
  int badges = 0;
  for (const auto& l : page1_links(qpdf_json(c.pdf))) badges += l.uri.find("/pith/") != std::string::npos;
  CHECK(badges == 1);
}
}  // namespace

TEST_CASE("article") { check_class("article", ""); }
TEST_CASE("article, two columns") { check_class("article", "twocolumn"); }
TEST_CASE("report without title page") { check_class("report", "notitlepage"); }
TEST_CASE("report with title page: badge on the title page") {
  check_class("report", "", Engine::pdflatex, false);
}
TEST_CASE("amsart") { check_class("amsart", ""); }
TEST_CASE("revtex4-2") { check_class("revtex4-2", ""); }
TEST_CASE("IEEEtran conference") { check_class("IEEEtran", "conference"); }
TEST_CASE("IEEEtran journal") { check_class("IEEEtran", "journal"); }
TEST_CASE("acmart") { check_class("acmart", "acmsmall"); }
TEST_CASE("llncs") { check_class("llncs", ""); }
TEST_CASE("IEEEtran with XeLaTeX") { check_class("IEEEtran", "conference", Engine::xelatex); }
TEST_CASE("acmart with latex+dvips") { check_class("acmart", "sigconf", Engine::dvips); }
