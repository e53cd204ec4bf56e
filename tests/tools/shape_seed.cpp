// SPDX-License-Identifier: GPL-3.0-or-later
// pith-test-shape-seed PDF...: the shape memory's seed (issue 34,
// check/shape_seed.txt) from glyph sheets pith typeset itself
// (scripts/shape-seed): every glyph of page 1's told lines, keyed by its
// outline (pdf/glyph_shapes), taught as the letters its font claims. Only
// for files whose claims are known true: never run it on a PDF from
// elsewhere (that is what OCR is for). Prints "<64 hex> <letters>" lines,
// sorted; a key claimed two ways is left out.
#include "pith/base/crypto.hpp"
#include "pith/base/mapped_file.hpp"
#include "pith/check/drawn_title.hpp"
#include "pith/pdf/page_text.hpp"

#include <cstdio>
#include <map>
#include <optional>
#include <string>

int main(int argc, char** argv) {
  using namespace pith;
  std::map<std::string, std::optional<std::string>> taught;  // hex key -> letters; nullopt: two ways
  for (int i = 1; i < argc; ++i) {
    auto file = MappedFile::open(argv[i]);
    if (!file) {
      std::fprintf(stderr, "pith-test-shape-seed: %s: %s\n", argv[i], file.error().describe().c_str());
      return 2;
    }
    const pdf::PageText page = pdf::read_page_text(file->bytes(), {});
    std::size_t told = 0;
    for (const pdf::LineShapes& line : page.shapes) {
      if (!line.told) continue;
      ++told;
      for (const pdf::ShapedGlyph& g : line.glyphs) {
        const std::string letters = check::comparable_letters(g.claimed);
        const auto [at, added] = taught.try_emplace(to_hex(page.shape_keys[g.key]), letters);
        if (!added && at->second != letters) at->second.reset();
      }
    }
    std::fprintf(stderr, "%s: %zu of %zu lines told\n", argv[i], told, page.shapes.size());
  }
  for (const auto& [key, letters] : taught) {
    if (letters) std::printf("%s %s\n", key.c_str(), letters->c_str());
  }
}
