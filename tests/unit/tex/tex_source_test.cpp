// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/tex/source.hpp"
#include "support/test_data.hpp"

#include <catch2/catch.hpp>
#include <filesystem>

namespace fs = std::filesystem;

namespace {
constexpr const char* body = "WXNI57C2SJ24QK62DB7DTUREA3";
}  // namespace

TEST_CASE("argument: body, lower case, spaces, full form") {
  auto a = pith::tex::parse_tex_number_argument(" wxni57c2 sj24qk62db7dtureA3 ");
  REQUIRE(a);
  CHECK(a->number.body == body);
  CHECK_FALSE(a->number.year);
  auto b = pith::tex::parse_tex_number_argument("pith:2020:WXNI57C2SJ24QK62DB7DTUREA3");
  REQUIRE(b);
  CHECK(b->number.body == body);
  CHECK(b->number.year == 2020);
  CHECK(pith::tex::parse_tex_number_argument("PITH:WXNI57C2SJ24QK62DB7DTUREA3"));
}

TEST_CASE("argument: errors name the character and its position") {
  auto bad = pith::tex::parse_tex_number_argument("WXNI07C2SJ24QK62DB7DTUREA3");
  REQUIRE_FALSE(bad);
  CHECK(bad.error().message.find("'0' at position 5") != std::string::npos);
  auto tex = pith::tex::parse_tex_number_argument("\\input{x}");
  REQUIRE_FALSE(tex);
  CHECK(tex.error().message.find("'\\' at position 1") != std::string::npos);
  auto shortish = pith::tex::parse_tex_number_argument("WXNI57C2");
  REQUIRE_FALSE(shortish);
  CHECK(shortish.error().message.find("8 characters") != std::string::npos);
}

TEST_CASE("comments are ignored, escaped percent is not a comment") {
  const auto d = pith::test::fresh_temp_dir("comments");
  pith::test::write_file(d / "paper.tex",
        "% \\pithnumber{AAAAAAAAAAAAAAAAAAAAAAAAAA}\n"
        "50\\% done % \\pithnumber{BBBBBBBBBBBBBBBBBBBBBBBBBB}\n"
        "\\\\% \\pithnumber{CCCCCCCCCCCCCCCCCCCCCCCCCC}\n"
        "\\pithnumber\n  {wxni57c2sj24qk62db7dtureA3} % the real one\n");
  auto n = pith::tex::find_pith_number(d / "paper.tex");
  REQUIRE(n);
  CHECK(n->number.body == body);
  CHECK(n->line == 4);
  CHECK(n->location() == "paper.tex:4");
}

TEST_CASE("\\input and \\include are followed relative to the main file") {
  const auto d = pith::test::fresh_temp_dir("input");
  pith::test::write_file(d / "paper.tex", "\\documentclass{article}\n\\input{front/meta}\n\\include{chap}\n");
  pith::test::write_file(d / "front/meta.tex", "\\input front/deeper\n");
  pith::test::write_file(d / "front/deeper.tex", "\\pithnumber{pith:2020:WXNI57C2SJ24QK62DB7DTUREA3}\n");
  pith::test::write_file(d / "chap.tex", "\\pithnumber{WXNI57C2SJ24QK62DB7DTUREA3}\n");
  auto n = pith::tex::find_pith_number(d / "paper.tex");
  REQUIRE(n);
  CHECK(n->number.body == body);
  CHECK(n->number.year == 2020);
  CHECK(n->file.filename() == "deeper.tex");
}

TEST_CASE("conflicting numbers are an error naming both places") {
  const auto d = pith::test::fresh_temp_dir("conflict");
  pith::test::write_file(d / "paper.tex", "\\pithnumber{WXNI57C2SJ24QK62DB7DTUREA3}\n\\input{other}\n");
  pith::test::write_file(d / "other.tex", "\n\n\\pithnumber{JFLLIOJUI2M3KX3FLLGP4N2V65}\n");
  auto n = pith::tex::find_pith_number(d / "paper.tex");
  REQUIRE_FALSE(n);
  CHECK(n.error().message.find("paper.tex:1") != std::string::npos);
  CHECK(n.error().message.find("other.tex:3") != std::string::npos);
  CHECK(n.error().message.find("JFLLIOJUI2M3KX3FLLGP4N2V65") != std::string::npos);
}

TEST_CASE("include loops end; \\endinput stops a file; no number is an error") {
  const auto d = pith::test::fresh_temp_dir("loop");
  pith::test::write_file(d / "paper.tex", "\\input{a}\n");
  pith::test::write_file(d / "a.tex", "\\input{b}\n");
  pith::test::write_file(d / "b.tex", "\\input{a}\\input{paper}\n\\endinput\n\\pithnumber{WXNI57C2SJ24QK62DB7DTUREA3}\n");
  auto n = pith::tex::find_pith_number(d / "paper.tex");
  REQUIRE_FALSE(n);
  CHECK(n.error().message.find("no \\pithnumber") != std::string::npos);
  CHECK(n.error().kind == pith::ErrorKind::not_found);  // pith-stamp: exit 3
}

TEST_CASE("a malformed number in the paper names the file and line") {
  const auto d = pith::test::fresh_temp_dir("malformed");
  pith::test::write_file(d / "paper.tex", "\n\\pithnumber{WXNI57C2SJ24QK62DB7DTURE81}\n");
  auto n = pith::tex::find_pith_number(d / "paper.tex");
  REQUIRE_FALSE(n);
  CHECK(n.error().where.ends_with("paper.tex:2"));
  CHECK(n.error().message.find("'8' at position 25") != std::string::npos);
}

TEST_CASE("a missing main file is an error naming it") {
  auto n = pith::tex::find_pith_number("/nonexistent/paper.tex");
  REQUIRE_FALSE(n);
  CHECK(n.error().where.find("paper.tex") != std::string::npos);
}

TEST_CASE("a source in memory is scanned like a file; its \\input is not followed") {
  const auto d = pith::test::fresh_temp_dir("in_memory");
  pith::test::write_file(d / "other.tex", "\\pithnumber{JFLLIOJUI2M3KX3FLLGP4N2V65}\n");
  const std::string text = "% \\pithnumber{AAAAAAAAAAAAAAAAAAAAAAAAAA}\n\\input{other}\n\\pithnumber{pith:2020:wxni57c2sj24qk62db7dtureA3}\n";
  auto n = pith::tex::find_pith_number_in_text(text, d / "paper.tex");
  REQUIRE(n);
  CHECK(n->number.body == body);
  CHECK(n->number.year == 2020);
  CHECK(n->location() == "paper.tex:3");

  auto none = pith::tex::find_pith_number_in_text("\\input{other}\n", d / "paper.tex");
  REQUIRE_FALSE(none);
  CHECK(none.error().message.find("no \\pithnumber") != std::string::npos);

  auto two = pith::tex::find_pith_number_in_text(
      "\\pithnumber{WXNI57C2SJ24QK62DB7DTUREA3}\n\\pithnumber{JFLLIOJUI2M3KX3FLLGP4N2V65}", "p.tex");
  REQUIRE_FALSE(two);
  CHECK(two.error().message.find("p.tex:2") != std::string::npos);
}

TEST_CASE("\\title: line breaks, groups, text styles and \\thanks read as the text they typeset") {
  using pith::tex::title_argument_as_text;
  const auto text = [](const char* argument) {
    auto t = title_argument_as_text(argument);
    INFO(argument << ": " << (t ? *t : t.error().describe()));
    REQUIRE(t);
    return *t;
  };
  CHECK(text("Layered gradient\\\\ accumulation") == "Layered gradient accumulation");
  CHECK(text("Layered\\\\*[2ex]gradient~accumulation\\newline of {GPU}s") == "Layered gradient accumulation of GPUs");
  CHECK(text("\\emph{Deep} \\textbf{nets}\\thanks{Funded by \\$1.} \\& \\protect\\textsc{trees}\\footnote{x}") ==
        "Deep nets & trees");
  CHECK(text("  A\n   title  ") == "A title");
  // What it cannot be sure of is an error that names it.
  for (const char* unsure : {"$O(n)$ time", "Schr\\\"odinger bridges", "\\LaTeX{} papers", "a^b", "\\textbf"}) {
    auto t = title_argument_as_text(unsure);
    INFO(unsure);
    REQUIRE_FALSE(t);
    CHECK(t.error().message.find("does not read as text") != std::string::npos);
  }
  CHECK(title_argument_as_text("$x$").error().message.find("math") != std::string::npos);
  CHECK(title_argument_as_text("\\LaTeX").error().message.find("\\LaTeX") != std::string::npos);
}

TEST_CASE("\\title in the paper: the optional short title is skipped, comments ignored, absence said") {
  const auto d = pith::test::fresh_temp_dir("title");
  pith::test::write_file(d / "paper.tex",
                         "% \\title{Not this}\n\\newcommand{\\titlepagex}{}\n\\title[Short]{Long\\\\ title}\n");
  auto t = pith::tex::read_plain_title(d / "paper.tex");
  REQUIRE(t);
  CHECK(*t == "Long title");
  pith::test::write_file(d / "none.tex", "\\documentclass{article}\n\\begin{document}\n\\end{document}\n");
  auto none = pith::tex::read_plain_title(d / "none.tex");
  REQUIRE_FALSE(none);
  CHECK(none.error().message.find("no \\title") != std::string::npos);
  pith::test::write_file(d / "math.tex", "\\title{On $\\pi$}\n");
  auto math = pith::tex::read_plain_title(d / "math.tex");
  REQUIRE_FALSE(math);
  CHECK(math.error().describe().find("math.tex: \\title") != std::string::npos);
}
