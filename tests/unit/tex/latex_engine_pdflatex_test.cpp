// SPDX-License-Identifier: GPL-3.0-or-later
// The engine × loading-variant matrix for pdflatex: a paper with the generated
// pith.sty compiles, and its PDF carries the signed record exactly.
#include "support/latex_matrix.hpp"

#include <catch2/catch.hpp>

using namespace pith::test;

namespace {
void check(Variant v) {
  Paper paper;
  paper.variant = v;
  check_generated_sty_pdf(Engine::pdflatex, paper, fixture_record());
}
}  // namespace

TEST_CASE("pdflatex: no hyperref") { check(Variant::plain); }
TEST_CASE("pdflatex: hyperref before pith") { check(Variant::hyperref_before); }
TEST_CASE("pdflatex: hyperref after pith") { check(Variant::hyperref_after); }
TEST_CASE("pdflatex: hyperref + hyperxmp") { check(Variant::hyperxmp); }
TEST_CASE("pdflatex: DocumentMetadata") { check(Variant::document_metadata); }
TEST_CASE("pdflatex: DocumentMetadata + hyperref") { check(Variant::document_metadata_hyperref); }

// pith.sty fixes no options of color, xcolor or hyperref: the option sets of
// real papers, loaded before and after it, build without an option clash.
TEST_CASE("pdflatex: color, xcolor and hyperref options before and after pith") {
  check_no_option_clash(Engine::pdflatex);
}
