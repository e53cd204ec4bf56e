// SPDX-License-Identifier: GPL-3.0-or-later
// The child's cost of seeing page 1 (issue 22): pdf::read_page_text (the
// text layer, the page render, the ink renders) per call, CPU time, and a
// whole-page render alone for scale. Usage: seen_text_bench PDF [CALLS]
#include "pith/pdf/page_text.hpp"

#include <cstdio>
#include <ctime>
#include <fstream>
#include <sstream>
#include <string>

namespace {

double cpu_ms() { return 1000.0 * static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: seen_text_bench PDF [CALLS]\n");
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string bytes = buffer.str();
  const int calls = argc > 2 ? std::stoi(argv[2]) : 20;
  (void)pith::pdf::read_page_text(bytes, {});  // poppler's global state, fonts: what a worker pays once
  double start = cpu_ms();
  pith::pdf::PageText page;
  for (int i = 0; i < calls; ++i) page = pith::pdf::read_page_text(bytes, {});
  const double seen = (cpu_ms() - start) / calls;
  start = cpu_ms();
  for (int i = 0; i < calls; ++i) {
    (void)pith::pdf::render_page_crop(bytes, {0, 0, page.page_width, page.page_height}, 72);
  }
  const double render = (cpu_ms() - start) / calls;
  std::printf("   read_page_text: %.1f ms CPU a call (%llu lines, %llu glyphs, %llu hidden, %llu ink render(s), %llu bare)\n", seen,
              static_cast<unsigned long long>(page.lines.size()), static_cast<unsigned long long>(page.measure.glyphs),
              static_cast<unsigned long long>(page.measure.hidden),
              static_cast<unsigned long long>(page.measure.ink_renders),
              static_cast<unsigned long long>(page.measure.bare_renders));
  std::printf("   one whole-page render at 72 dpi (RGB, opening the PDF included): %.1f ms CPU\n", render);
  return 0;
}
