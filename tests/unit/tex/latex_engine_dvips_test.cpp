// SPDX-License-Identifier: GPL-3.0-or-later
// The engine × loading-variant matrix for dvips: a paper with the generated
// pith.sty compiles, and its PDF carries the signed record exactly.
#include "support/latex_matrix.hpp"

#include <catch2/catch.hpp>

using namespace pith::test;

TEST_CASE("dvips: every loading variant") { check_every_variant(Engine::dvips); }

// latex + dvipdfmx (the class option selects the driver) takes the XeTeX path.
TEST_CASE("latex+dvipdfmx: no hyperref and hyperref after pith") {
  for (Variant v : {Variant::plain, Variant::hyperref_after}) {
    Paper paper;
    paper.class_options = "dvipdfmx";
    paper.variant = v;
    check_generated_sty_pdf(Engine::dvipdfmx, paper, fixture_record());
  }
}

// pith.sty fixes no options of color, xcolor or hyperref: the option sets of
// real papers, loaded before and after it, build without an option clash.
TEST_CASE("dvips: color, xcolor and hyperref options before and after pith") {
  check_no_option_clash(Engine::dvips);
}
