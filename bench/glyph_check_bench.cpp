// SPDX-License-Identifier: GPL-3.0-or-later
// The glyph check's tolerance, measured (issue 34): every line of page 1 of
// each PDF given, as its text layer reads and as OCR reads its drawn
// letters (pdf/drawn_letters.hpp, in this process), compared as the check
// compares a title (check/drawn_title.hpp). Genuine papers' lines show how
// far OCR strays from honest glyphs; one line a row:
//   FILE LINE COMPARED DISTANCE RATIO MS TEXT
// then, per file, the lines judged and the worst ratio.
//   glyph_check_bench PDF...
#include "pith/base/mapped_file.hpp"
#include "pith/check/drawn_title.hpp"
#include "pith/pdf/drawn_letters.hpp"
#include "pith/pdf/page_text.hpp"

#include <chrono>
#include <cstdio>
#include <string>

int main(int argc, char** argv) {
  using namespace pith;
  for (int i = 1; i < argc; ++i) {
    auto file = MappedFile::open(argv[i]);
    if (!file) {
      std::fprintf(stderr, "%s: %s\n", argv[i], file.error().describe().c_str());
      continue;
    }
    const std::string_view bytes = file->bytes();
    const pdf::PageText page = pdf::read_page_text(bytes, {});
    std::size_t judged = 0;
    double worst = 0;
    for (std::size_t l = 0; l < page.lines.size(); ++l) {
      const auto start = std::chrono::steady_clock::now();
      auto read = pdf::read_drawn_letters_here(bytes, {page.boxes[l]});
      const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
      if (!read) continue;
      const auto c = check::compare_drawn_title(page.lines[l], *read);
      if (!c.applicable) continue;
      ++judged;
      worst = std::max(worst, c.ratio());
      std::printf("%s\t%zu\t%zu\t%zu\t%.3f\t%.1f\t%s\t|\t%s\n", argv[i], l, c.compared, c.distance, c.ratio(), ms,
                  page.lines[l].c_str(), (*read)[0].c_str());
    }
    std::printf("# %s: %zu lines judged, worst ratio %.3f\n", argv[i], judged, worst);
  }
}
