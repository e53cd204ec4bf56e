// SPDX-License-Identifier: GPL-3.0-or-later
// What a TeX build says about itself (tex/build_log.hpp): the first error
// whole (issue 31 item 6: "fontspec ... requires either XeTeX or" was cut at
// the log's 79-column wrap), the TeX Live that ran, the engine of a build's
// .fls, a biblatex .bbl's format version.
#include "pith/tex/build_log.hpp"

#include <catch2/catch.hpp>

using namespace pith;

namespace {
// pdflatex on \usepackage{fontspec} (TeX Live 2022/Debian), as logged.
const std::string fontspec_log =
    "This is pdfTeX, Version 3.141592653-2.6-1.40.24 (TeX Live 2022/Debian) (preloaded format=pdflatex 2026.12.6)  6 DEC 2026 19:53\n"
    "\n"
    "! Fatal Package fontspec Error: The fontspec package requires either XeTeX or\n"
    "(fontspec)                      LuaTeX.\n"
    "(fontspec)                      \n"
    "(fontspec)                      You must change your typesetting engine to,\n"
    "(fontspec)                      e.g., \"xelatex\" or \"lualatex\" instead of\n"
    "(fontspec)                      \"latex\" or \"pdflatex\".\n"
    "\n"
    "Type <return> to continue.\n"
    " ...                                              \n"
    "                                                  \n"
    "l.45 \\msg_fatal:nn {fontspec} {cannot-use-pdftex}\n"
    "                                                 \n"
    "\n"
    "LaTeX does not know anything more about this error, sorry.\n"
    "\n";
}  // namespace

TEST_CASE("the first error is read whole, its package's continuation lines joined", "[build_log]") {
  const auto f = tex::read_log(fontspec_log, "f");
  CHECK(f.first_error ==
        "Fatal Package fontspec Error: The fontspec package requires either XeTeX or LuaTeX. You must change your "
        "typesetting engine to, e.g., \"xelatex\" or \"lualatex\" instead of \"latex\" or \"pdflatex\".");
  CHECK(f.tex_live == "TeX Live 2022");
}

TEST_CASE("a line TeX wrapped at 79 columns goes on unspaced; an endless error ends at a sentence", "[build_log]") {
  const std::string wrapped = "! Undefined control sequence " + std::string(79 - 29, 'x') + "\nyz.\n\nl.3 \\foo\n";
  REQUIRE(wrapped.find('\n') == 79);
  CHECK(tex::read_log(wrapped, "p").first_error == "Undefined control sequence " + std::string(50, 'x') + "yz.");
  std::string endless = "! Bad.";
  for (int i = 0; i < 11; ++i) endless += "\nThis sentence goes on and on and on and on and on and on and on and on.";
  const auto error = tex::read_log(endless, "p").first_error;
  CHECK(error.size() < 700);
  CHECK(error.ends_with(". [the rest is in the log]"));
}

TEST_CASE("the engine of a build, from the format its .fls lists", "[build_log]") {
  CHECK(tex::engine_of_fls("PWD /p\nINPUT /usr/share/texlive/texmf-var/web2c/xetex/xelatex.fmt\nINPUT p.tex\n") == "xelatex");
  CHECK(tex::engine_of_fls("PWD /p\nINPUT /var/lib/texmf/web2c/pdftex/latex.fmt\n") == "latex");
  CHECK(tex::engine_of_fls("PWD /p\nINPUT /t/luahbtex/lualatex.fmt\n") == "lualatex");
  CHECK(tex::engine_of_fls("PWD /p\nINPUT p.tex\n").empty());
}

TEST_CASE("a biblatex .bbl names its format version; a BibTeX one none", "[build_log]") {
  CHECK(tex::bbl_format_version("% $ biblatex auxiliary file $\n% $ biblatex bbl format version 3.3 $\n") == "3.3");
  CHECK(tex::bbl_format_version("\\begin{thebibliography}{1}\n").empty());
}

TEST_CASE("biblatex saying the .bbl is in another format is seen", "[build_log]") {
  CHECK(tex::read_log("Package biblatex Warning: File 'main.bbl' is wrong format version \n(biblatex)  - expected 3.3.\n",
                      "main")
            .bbl_wrong_format);
  CHECK_FALSE(tex::read_log("(./main.bbl)\n", "main").bbl_wrong_format);
}
