// SPDX-License-Identifier: GPL-3.0-or-later
// The engine × loading-variant matrix for lualatex: a paper with the generated
// pith.sty compiles, and its PDF carries the signed record exactly.
#include "support/latex_matrix.hpp"

#include <catch2/catch.hpp>

using namespace pith::test;

TEST_CASE("lualatex: every loading variant") { check_every_variant(Engine::lualatex); }

// pith.sty fixes no options of color, xcolor or hyperref: the option sets of
// real papers, loaded before and after it, build without an option clash.
TEST_CASE("lualatex: color, xcolor and hyperref options before and after pith") {
  check_no_option_clash(Engine::lualatex);
}
