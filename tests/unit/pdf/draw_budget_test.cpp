// SPDX-License-Identifier: GPL-3.0-or-later
// Page 1's drawings are bounded whatever the page asks (issue 32): a page of
// more operators than a drawing may run is "too complex to draw" and what a
// reader sees of it is not decided (pdf/page_text.hpp: PageTextLimits), and
// a page of any size is drawn in at most max_render_pixels (pdf/page_image.hpp).
// tests/integration/hostile_pages.sh takes the same pages through the tools.
#include "pith/pdf/page_image.hpp"
#include "pith/pdf/page_text.hpp"
#include "support/pdf_samples.hpp"

#include <catch2/catch.hpp>

#include <string>

namespace {

// A one-page PDF, `media_box` points square, showing one line of Helvetica
// and then stroking `paths` paths of three operators each.
std::string page_of(int media_box, int paths) {
  std::string content = "BT /F1 18 Tf 72 500 Td (A costly page) Tj ET\n";
  for (int i = 0; i < paths; ++i) content += "0 0 m 1 1 l S\n";
  const std::string size = std::to_string(media_box);
  return pith::test::classic_pdf(
      {"<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
       "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 " + size + " " + size +
           "] /Contents 4 0 R /Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >> >>",
       "<< /Length " + std::to_string(content.size()) + " >>\nstream\n" + content + "\nendstream"});
}

}  // namespace

TEST_CASE("a page of more operators than a drawing may run is too complex to draw", "[draw_budget]") {
  const std::string pdf = page_of(612, 2000);  // 6,000 operators
  pith::pdf::PageTextLimits limits;
  const auto drawn = pith::pdf::read_page_text(pdf, {}, limits);
  REQUIRE_FALSE(drawn.problem);
  CHECK(drawn.seen_lines() == std::vector<std::string>{"A costly page"});

  limits.max_draw_operators = 1000;
  const auto stopped = pith::pdf::read_page_text(pdf, {"https://x"}, limits);
  REQUIRE(stopped.problem);
  CHECK(*stopped.problem == "page 1 is too complex to draw (more than 1000 operators)");
  CHECK(stopped.lines.empty());  // nothing of a half-drawn page is offered as seen
  CHECK(stopped.link_uris == std::vector<std::string>{"https://x"});
}

TEST_CASE("a page of any size is drawn in at most max_render_pixels", "[draw_budget]") {
  // 14,400 pt square, the largest PDF allows: 7,200 x 7,200 pixels at 36 dpi.
  const auto huge = pith::pdf::page_one_fingerprint(page_of(14400, 0), pith::pdf::page_check_dpi, std::nullopt);
  REQUIRE(huge);
  CHECK(static_cast<double>(huge->width) * huge->height <= 8e6);
  CHECK(huge->width > 2000);  // coarser, not a thumbnail
  // A page of a paper is drawn at the resolution asked.
  const auto letter = pith::pdf::page_one_fingerprint(page_of(612, 0), pith::pdf::page_check_dpi, std::nullopt);
  REQUIRE(letter);
  CHECK(letter->width == 306);
}
