// SPDX-License-Identifier: GPL-3.0-or-later
// The engine × loading-variant matrix for xelatex: a paper with the generated
// pith.sty compiles, and its PDF carries the signed record exactly.
#include "support/latex_matrix.hpp"

#include <catch2/catch.hpp>

using namespace pith::test;

namespace {
void check(Variant v) {
  Paper paper;
  paper.variant = v;
  check_generated_sty_pdf(Engine::xelatex, paper, fixture_record());
}
}  // namespace

TEST_CASE("xelatex: no hyperref") { check(Variant::plain); }
TEST_CASE("xelatex: hyperref before pith") { check(Variant::hyperref_before); }
TEST_CASE("xelatex: hyperref after pith") { check(Variant::hyperref_after); }
TEST_CASE("xelatex: hyperref + hyperxmp") { check(Variant::hyperxmp); }
TEST_CASE("xelatex: DocumentMetadata") { check(Variant::document_metadata); }
TEST_CASE("xelatex: DocumentMetadata + hyperref") { check(Variant::document_metadata_hyperref); }

// pith.sty fixes no options of color, xcolor or hyperref: the option sets of
// real papers, loaded before and after it, build without an option clash.
TEST_CASE("xelatex: color, xcolor and hyperref options before and after pith") {
  check_no_option_clash(Engine::xelatex);
}
