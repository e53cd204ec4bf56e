// SPDX-License-Identifier: GPL-3.0-or-later
// latex/pith.sty on its own (no verified data): number validation, options,
// the manual badge, the log message that says how to add the record, and
// the kernel check.
#include "pith/tex/sty.hpp"
#include "support/latex_matrix.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <regex>

using namespace pith::test;

namespace {
Compiled build(const std::string& tag, const Paper& paper, const std::string& sty = pith::tex::plain_sty(),
               Engine engine = Engine::pdflatex) {
  const auto dir = make_paper_dir(tag, paper, sty);
  return compile(dir, "paper", engine);
}
int pith_links(const Compiled& c) {
  int n = 0;
  for (const auto& l : page1_links(qpdf_json(c.pdf))) n += l.uri.find("/pith/") != std::string::npos;
  return n;
}
// TeX wraps log lines at 79 characters: join them back for searching.
std::string unwrapped(const std::string& log) { return std::regex_replace(log, std::regex("\n(\\(pith\\) +)?"), " "); }
}  // namespace

TEST_CASE("without verified data: number, link and a log line saying how to add the record") {
  Paper paper;
  paper.number = "  wxni57c2sj24 qk62db7dturea3 ";
  const auto c = build("plain", paper);
  INFO(c.output);
  REQUIRE(c.ok);
  CHECK(info_value(c.pdf, "PithNumber") == "pith:WXNI57C2SJ24QK62DB7DTUREA3");
  CHECK(info_value(c.pdf, "PithURL") == "https://pith.science/pith/WXNI57C2SJ24QK62DB7DTUREA3");
  CHECK(xmp_value(c.pdf, "Number") == "pith:WXNI57C2SJ24QK62DB7DTUREA3");
  CHECK(xmp_value(c.pdf, "CanonicalRecord").empty());
  CHECK_FALSE(detached(c.pdf, "pith-bundle.json"));
  CHECK(metadata_stream_count(qpdf_json(c.pdf)) == 1);
  CHECK(unwrapped(c.log).find("Run `pith-stamp paper.tex'") != std::string::npos);
  check_badge_between_title_and_abstract(c.pdf, "https://pith.science/pith/WXNI57C2SJ24QK62DB7DTUREA3");
}

TEST_CASE("the full form gives the year") {
  Paper paper;
  paper.number = "pith:2020:WXNI57C2SJ24QK62DB7DTUREA3";
  const auto c = build("fullform", paper);
  REQUIRE(c.ok);
  CHECK(info_value(c.pdf, "PithNumber") == "pith:2020:WXNI57C2SJ24QK62DB7DTUREA3");
}

TEST_CASE("a bad number is a LaTeX error naming the character and position") {
  Paper paper;
  paper.number = "WXNI07C2SJ24QK62DB7DTUREA3";
  const auto c = build("badchar", paper);
  CHECK_FALSE(c.ok);
  CHECK(unwrapped(c.log).find("character `0' at position 5 is not in A-Z, 2-7") != std::string::npos);
  paper.number = "WXNI57C2";
  const auto d = build("badlength", paper);
  CHECK_FALSE(d.ok);
  CHECK(unwrapped(d.log).find("has 8 characters; a Pith Number has 26") != std::string::npos);
  paper.number = "\\input{/etc/passwd}WXNI57C2SJ24QK62DB7DTUR";
  const auto e = build("badtex", paper);
  CHECK_FALSE(e.ok);
  CHECK(e.log.find("root:") == std::string::npos);
}

TEST_CASE("badge=none: metadata but no badge; badge=manual: only where \\pithbadge is") {
  Paper none;
  none.pith_options = "badge=none";
  const auto c = build("none", none);
  REQUIRE(c.ok);
  CHECK(pith_links(c) == 0);
  CHECK(info_value(c.pdf, "PithNumber") == "pith:JFLLIOJUI2M3KX3FLLGP4N2V65");

  Paper manual;
  manual.pith_options = "badge=manual";
  manual.variant = Variant::hyperref_after;
  manual.body_before_title = "Badge here: \\pithbadge\n\n";
  const auto m = build("manual", manual);
  REQUIRE(m.ok);
  CHECK(pith_links(m) == 1);
  // The manual badge is above the title (where it was put), not after it.
  const auto links = page1_links(qpdf_json(m.pdf));
  const auto words = page1_words(m.pdf);
  const double height = page1_height(m.pdf);
  double title_top = 1e9;
  for (const auto& w : words) {
    if (w.text.find(title_word) != std::string::npos) title_top = std::min(title_top, w.y_min);
  }
  for (const auto& l : links) {
    if (l.uri.find("/pith/") != std::string::npos) CHECK(height - std::max(l.rect[1], l.rect[3]) < title_top);
  }
}

TEST_CASE("resolver option: the link and metadata use it") {
  Paper paper;
  paper.pith_options = "resolver=https://mirror.example.org/reg/";
  const auto c = build("resolver", paper);
  REQUIRE(c.ok);
  CHECK(info_value(c.pdf, "PithURL") == "https://mirror.example.org/reg/pith/JFLLIOJUI2M3KX3FLLGP4N2V65");
  bool found = false;
  for (const auto& l : page1_links(qpdf_json(c.pdf))) {
    found |= l.uri == "https://mirror.example.org/reg/pith/JFLLIOJUI2M3KX3FLLGP4N2V65";
  }
  CHECK(found);
  Paper bad;
  bad.pith_options = "resolver=javascript:alert(1)";
  CHECK_FALSE(build("badresolver", bad).ok);
}

TEST_CASE("a generated sty for another number: error, and the baked record is not written") {
  auto sty = pith::tex::generate_sty(fixture_record());
  REQUIRE(sty);
  Paper paper;
  paper.number = "WXNI57C2SJ24QK62DB7DTUREA3";
  const auto c = build("mismatch", paper, *sty);
  CHECK_FALSE(c.ok);
  CHECK(unwrapped(c.log).find("generated for JFLLIOJUI2M3KX3FLLGP4N2V65") != std::string::npos);
}

TEST_CASE("a generated sty needs no \\pithnumber: it carries its number") {
  auto sty = pith::tex::generate_sty(fixture_record());
  REQUIRE(sty);
  Paper paper;
  paper.number.clear();
  const auto c = build("nonumber-data", paper, *sty);
  REQUIRE(c.ok);
  CHECK(info_value(c.pdf, "PithNumber") == "pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65");
}

TEST_CASE("no number and no data: a warning, the paper still compiles") {
  Paper paper;
  paper.number.clear();
  const auto c = build("nonumber", paper);
  REQUIRE(c.ok);
  CHECK(unwrapped(c.log).find("No \\pithnumber given") != std::string::npos);
  CHECK(pith_links(c) == 0);
}

TEST_CASE("LaTeX older than 2021-06-01: a clear error") {
  Paper paper;
  paper.extra_preamble = "";
  auto text = pith::tex::plain_sty();
  const auto dir = make_paper_dir("oldkernel", paper, text);
  // Pretend to be an old kernel just for pith.sty's check.
  const std::string tex = "\\documentclass{article}\n\\makeatletter\\def\\fmtversion{2020-10-01}\\makeatother\n"
                          "\\usepackage{pith}\n\\begin{document}x\\end{document}\n";
  std::ofstream(dir / "paper.tex") << tex;
  const auto c = compile(dir, "paper", Engine::pdflatex);
  CHECK_FALSE(c.ok);
  CHECK(unwrapped(c.log).find("LaTeX 2021-06-01 or newer is needed") != std::string::npos);
  // That error and nothing else: the package stops reading itself cleanly.
  std::size_t errors = 0;
  for (auto at = c.log.find("\n! "); at != std::string::npos; at = c.log.find("\n! ", at + 1)) {
    errors += c.log.compare(at, 7, "\n!  ==>") != 0;  // not -halt-on-error's closing line
  }
  CHECK(errors == 1);
}
