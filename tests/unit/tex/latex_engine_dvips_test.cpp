// SPDX-License-Identifier: GPL-3.0-or-later
// The engine × loading-variant matrix for dvips: a paper with the generated
// pith.sty compiles, and its PDF carries the signed record exactly.
#include "support/latex_matrix.hpp"

#include <catch2/catch.hpp>

using namespace pith::test;

namespace {
void check(Variant v) {
  Paper paper;
  paper.variant = v;
  check_generated_sty_pdf(Engine::dvips, paper, fixture_record());
}
}  // namespace

TEST_CASE("dvips: no hyperref") { check(Variant::plain); }
TEST_CASE("dvips: hyperref before pith") { check(Variant::hyperref_before); }
TEST_CASE("dvips: hyperref after pith") { check(Variant::hyperref_after); }
TEST_CASE("dvips: hyperref + hyperxmp") { check(Variant::hyperxmp); }
TEST_CASE("dvips: DocumentMetadata") { check(Variant::document_metadata); }
TEST_CASE("dvips: DocumentMetadata + hyperref") { check(Variant::document_metadata_hyperref); }

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
