// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The LaTeX test matrix: papers in each package-loading variant and class,
// compiled with each engine, and the checks every resulting PDF must pass.
#include "support/latex_harness.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace pith::test {

enum class Variant { plain, hyperref_before, hyperref_after, hyperxmp, document_metadata, document_metadata_hyperref };
[[nodiscard]] const char* to_string(Variant v);

// The fixture record's title (so title binding holds), and unique words
// the placement check looks for on page 1 (case-insensitively).
inline constexpr const char* fixture_title =
    "Layered gradient accumulation and modular pipeline parallelism: fast and efficient training of large "
    "language models";
inline constexpr const char* title_word = "Layered";
inline constexpr const char* abstract_word = "Wombatabstract";
inline constexpr const char* section_word = "Numbatsection";

struct Paper {
  std::string documentclass = "article";
  std::string class_options;
  Variant variant = Variant::plain;
  std::string number = "JFLLIOJUI2M3KX3FLLGP4N2V65";
  std::string title = fixture_title;
  std::string pith_options;     // \usepackage[<here>]{pith}
  std::string extra_preamble;
  std::string preamble_before_pith;  // packages the paper loads before \usepackage{pith}
  std::string body_before_title;  // e.g. \pithbadge tests
};
// A small paper: title, author, abstract, a section, in the class's usual
// order (abstract before \maketitle for amsart, revtex and acmart).
[[nodiscard]] std::string paper_text(const Paper& paper);

// A fresh directory holding paper.tex and the pith.sty given.
[[nodiscard]] std::filesystem::path make_paper_dir(const std::string& tag, const Paper& paper,
                                                   const std::string& sty);

// Compiles and checks everything a PDF from the generated sty must hold:
// no errors, exactly one /Metadata stream, qpdf --check clean, Info and
// XMP values, pith-bundle.json byte-identical, the badge's link, and the
// badge between the title and the abstract on page 1.
void check_generated_sty_pdf(Engine engine, const Paper& paper, const registry::VerifiedRecord& record);

// The plain paper in each loading variant (one section each), through
// check_generated_sty_pdf: the matrix of one engine.
void check_every_variant(Engine engine);

// The badge's link annotation lies below the title and above the abstract
// (or first section) on page 1; `abstract_on_page1` false for title pages.
void check_badge_between_title_and_abstract(const std::filesystem::path& pdf, const std::string& url,
                                            bool abstract_on_page1 = true);

// The option sets real papers give color, xcolor and hyperref, each loaded
// before and after pith (\hypersetup always after both): none may clash
// with what pith.sty loads, and each PDF must pass check_generated_sty_pdf.
struct PackageOptionSet {
  const char* name;
  const char* packages;   // \usepackage lines
  const char* after_all;  // e.g. \hypersetup, after pith and the packages
};
[[nodiscard]] const std::vector<PackageOptionSet>& package_option_sets();
void check_no_option_clash(Engine engine);

}  // namespace pith::test
