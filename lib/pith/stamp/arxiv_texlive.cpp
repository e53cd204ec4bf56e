// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/stamp/arxiv_texlive.hpp"

#include "pith/tex/build_log.hpp"

namespace pith::stamp {
namespace {

std::string tree_name(const ArxivTexLive& t) { return "TeX Live " + std::to_string(t.year); }

// "TeX Live 2023 reads format 3.2 (Biber 2.19), TeX Live 2025 format 3.3 (Biber 2.21)"
std::string what_each_tree_reads() {
  std::string out;
  for (const auto& t : arxiv_tex_lives) {
    out += out.empty() ? "" : ", ";
    out += tree_name(t) + " reads format " + std::string(t.bbl_format) + " (Biber " + std::string(t.biber) + ")";
  }
  return out;
}

std::string all_tree_names() {
  std::string out;
  for (std::size_t i = 0; i < arxiv_tex_lives.size(); ++i)
    out += (i == 0 ? "" : i + 1 == arxiv_tex_lives.size() ? " and " : ", ") + tree_name(arxiv_tex_lives[i]);
  return out;
}

}  // namespace

std::optional<BblNeed> bbl_need(std::string_view name, std::string_view bbl) {
  const std::string format = tex::bbl_format_version(bbl);
  if (format.empty()) return std::nullopt;  // BibTeX's: any tree reads it
  std::string readers;
  std::size_t count = 0;
  for (const auto& t : arxiv_tex_lives) {
    if (t.bbl_format != format) continue;
    readers += (readers.empty() ? "" : " and ") + tree_name(t);
    ++count;
  }
  if (count == arxiv_tex_lives.size()) return std::nullopt;
  const std::string what = std::string(name) + " is a biblatex .bbl in format " + format;
  if (count == 0) {
    return BblNeed{false, std::string(name) + " in a format arXiv's TeX Live reads: it is a biblatex .bbl in format " +
                              format + ", which no tree arXiv runs reads (" + what_each_tree_reads() +
                              "): biblatex there would print its internal field list instead of the references. "
                              "Rebuild the .bbl with the Biber of the tree you will choose, or switch to BibTeX"};
  }
  return BblNeed{true, what + ", which only arXiv's " + readers + " reads (" + what_each_tree_reads() +
                           "): choose " + readers + " when submitting, or rebuild the .bbl with the matching Biber, "
                           "or switch to BibTeX"};
}

std::string local_tex_live_note(std::string_view here) {
  for (const auto& t : arxiv_tex_lives) {
    if (here == tree_name(t))
      return "rebuilt with this machine's " + std::string(here) + ", one of arXiv's trees (arXiv builds with " +
             all_tree_names() + ", docs/arxiv.md)";
  }
  const std::string local = here.empty() ? "this machine's TeX Live (its log names no version)" : "this machine's " + std::string(here);
  return "rebuilt with " + local + "; arXiv builds with " + all_tree_names() +
         " (docs/arxiv.md): a package that differs there can build otherwise";
}

}  // namespace pith::stamp
