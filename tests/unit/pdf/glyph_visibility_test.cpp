// SPDX-License-Identifier: GPL-3.0-or-later
// The pure decisions of "seen, not extracted" (issue 22): contrast of a
// glyph's ink against what the final page shows there, the legibility rules
// on geometry, and the colouring of overlapping lines into ink renders.
#include "pith/pdf/glyph_visibility.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <vector>

using namespace pith::pdf;

namespace {

// A 20 x 20 grey image at 1 pixel a point, white.
struct Image {
  std::vector<std::uint8_t> pixels = std::vector<std::uint8_t>(400, 255);
  [[nodiscard]] GreyView view() const { return {pixels.data(), 20, 20, 20, 1.0}; }
  void fill(int x0, int y0, int x1, int y1, std::uint8_t grey) {
    for (int y = y0; y < y1; ++y)
      for (int x = x0; x < x1; ++x) pixels[static_cast<std::size_t>(y * 20 + x)] = grey;
  }
};

// The ink render: a glyph's strokes (a bar of 4 x 8 pixels) in its box.
Image glyph_ink() {
  Image ink;
  ink.fill(8, 6, 12, 14, 0);
  return ink;
}

const Box glyph_box{5, 4, 15, 16};

}  // namespace

TEST_CASE("black ink on white is fully seen; grey ink in proportion", "[seen]") {
  const Image ink = glyph_ink();
  const Image bare;  // the page without its text: white paper
  CHECK(visible_contrast(ink.view(), bare.view(), ink.view(), glyph_box) == Approx(1.0));
  Image grey;
  grey.fill(8, 6, 12, 14, 128);  // 50 % grey text
  CHECK(visible_contrast(grey.view(), bare.view(), ink.view(), glyph_box) == Approx(0.5).margin(0.01));
  Image light;
  light.fill(8, 6, 12, 14, 230);  // near-white text
  CHECK(visible_contrast(light.view(), bare.view(), ink.view(), glyph_box) < VisibilityRules{}.min_contrast);
  Image half;  // the lower half painted over
  half.fill(8, 6, 12, 10, 0);
  CHECK(visible_contrast(half.view(), bare.view(), ink.view(), glyph_box) == Approx(0.5).margin(0.01));
}

TEST_CASE("white text, text painted over, clipped or behind an image is not seen", "[seen]") {
  const Image ink = glyph_ink();
  const Image white_page;  // white text on white, painted over by white, clipped away, render mode 3
  CHECK(visible_contrast(white_page.view(), white_page.view(), ink.view(), glyph_box) == Approx(0.0));
  Image photo;  // behind an opaque image: the page is the image, with or without the text
  for (int y = 0; y < 20; ++y)
    for (int x = 0; x < 20; ++x) photo.pixels[static_cast<std::size_t>(y * 20 + x)] = static_cast<std::uint8_t>((x * 37 + y * 11) % 200);
  CHECK(visible_contrast(photo.view(), photo.view(), ink.view(), glyph_box) == Approx(0.0));
}

TEST_CASE("white text on a dark background is seen; a line drawn over a full stop does not hide it", "[seen]") {
  const Image ink = glyph_ink();
  Image bare;
  bare.fill(0, 0, 20, 20, 20);
  Image page = bare;
  page.fill(8, 6, 12, 14, 255);
  CHECK(visible_contrast(page.view(), bare.view(), ink.view(), glyph_box) > 0.9);
  // A link's border drawn over the left quarter of a small glyph (a full
  // stop after a hyperlink): what is left of it is seen.
  Image border_bare;
  border_bare.fill(8, 0, 9, 20, 180);
  Image border_page = border_bare;
  border_page.fill(9, 6, 12, 14, 0);
  CHECK(visible_contrast(border_page.view(), border_bare.view(), ink.view(), glyph_box) > VisibilityRules{}.min_contrast);
}

TEST_CASE("nothing to measure is not seen", "[seen]") {
  const Image blank;
  CHECK(visible_contrast(blank.view(), blank.view(), blank.view(), glyph_box) == 0.0);  // no ink at all
  const Image ink = glyph_ink();
  CHECK(visible_contrast(ink.view(), blank.view(), ink.view(), Box{30, 30, 40, 40}) == 0.0);  // off the render
  Image other;
  other.pixels.resize(100);
  CHECK(visible_contrast(GreyView{other.pixels.data(), 10, 10, 10, 1.0}, blank.view(), ink.view(), glyph_box) == 0.0);
}

TEST_CASE("text drawn over other text: neither binds, whatever contrast the overlap leaves", "[seen]") {
  // The record's title drawn white (or invisibly) exactly over another
  // paper's visible title: where its ink lies the page may still contrast
  // (holes punched in the other title, or the other title's own ink), so
  // overlap is decided on the glyphs' boxes, not on the pixels.
  std::vector<GlyphSight> glyphs = {
      {0, 0, {72, 100, 80, 112}, 12, 0.5, 0},  // the record's title, line 0
      {0, 0, {80, 100, 88, 112}, 12, 0.5, 0},
      {1, 1, {72, 100, 81, 112}, 12, 0.5, 0},  // the other paper's, line 1, over it
      {2, 2, {72, 113, 80, 125}, 12, 0.5, 0},  // the next line: touching, not over
  };
  mark_overprinted(glyphs);
  CHECK(glyphs[0].hidden == hidden_overprinted);
  CHECK(glyphs[1].hidden == 0);  // no seen glyph of another line covers half of it
  CHECK(glyphs[2].hidden == hidden_overprinted);
  CHECK(glyphs[3].hidden == 0);
  // An unseen glyph overprints nothing: invisible text over a title leaves it seen.
  std::vector<GlyphSight> under = {{0, 0, {72, 100, 80, 112}, 12, 0.5, 0},
                                   {1, 1, {72, 100, 80, 112}, 12, 0.5, hidden_no_contrast}};
  mark_overprinted(under);
  CHECK(under[0].hidden == 0);
  CHECK((under[1].hidden & hidden_no_contrast) != 0);
}

TEST_CASE("a full stop too small to measure goes by its word", "[seen]") {
  const auto glyph = [](std::size_t word, std::uint8_t hidden, double ink) {
    return GlyphSight{0, word, {0, 0, 5, 10}, 10, 0.5, hidden, ink};
  };
  // "link." with the full stop under a link's border: seen.
  std::vector<GlyphSight> link = {glyph(0, 0, 12), glyph(0, 0, 9), glyph(0, hidden_no_contrast, 1.5)};
  settle_small_glyphs(link);
  CHECK(link[2].hidden == 0);
  // A whole hidden word stays hidden; so does a big glyph, or a small one
  // hidden for another reason, or one standing alone.
  std::vector<GlyphSight> hidden = {glyph(0, hidden_no_contrast, 12), glyph(0, hidden_no_contrast, 1.5),
                                    glyph(1, 0, 12), glyph(1, hidden_no_contrast, 8), glyph(2, 0, 12),
                                    glyph(2, hidden_tiny | hidden_no_contrast, 0.5), glyph(3, hidden_no_contrast, 1)};
  settle_small_glyphs(hidden);
  for (const std::size_t i : {0, 1, 3, 5, 6}) CHECK(hidden[i].hidden != 0);
}

TEST_CASE("legible geometry: size after transforms, squeeze, on the page", "[seen]") {
  const Box box{100, 100, 106, 112};
  CHECK(geometry_hidden(12, 0.5, box, 612, 792) == 0);
  CHECK(geometry_hidden(4, 0.5, box, 612, 792) == 0);
  CHECK(geometry_hidden(0.05, 0.5, box, 612, 792) == hidden_tiny);
  CHECK(geometry_hidden(3.9, 0.5, box, 612, 792) == hidden_tiny);
  CHECK(geometry_hidden(12, 0.05, box, 612, 792) == hidden_squeezed);
  CHECK(geometry_hidden(12, 0.25, box, 612, 792) == 0);  // a word of i's and l's
  CHECK(geometry_hidden(12, 0.5, Box{-100, 100, -94, 112}, 612, 792) == hidden_off_page);
  CHECK(geometry_hidden(12, 0.5, Box{608, 100, 614, 112}, 612, 792) == hidden_off_page);  // two thirds off
  CHECK(geometry_hidden(12, 0.5, Box{100, 100, 100, 112}, 612, 792) == hidden_off_page);  // no area
  CHECK(geometry_hidden(std::numeric_limits<double>::quiet_NaN(), 0.5, box, 612, 792) == hidden_tiny);
}

TEST_CASE("lines overlapping each other get different ink renders; neighbours do not", "[seen]") {
  // Three lines set 14 pt apart whose 12 pt boxes touch; a fourth drawn
  // exactly over the first (the other paper's title over the record's).
  const auto line = [](double y) {
    std::vector<Box> boxes;
    for (int i = 0; i < 10; ++i) boxes.push_back({72.0 + 6 * i, y - 9, 78.0 + 6 * i, y + 3.5});
    return boxes;
  };
  const std::vector<int> colours = colour_lines({line(100), line(112), line(124), line(100)});
  CHECK(colours == std::vector<int>{0, 0, 0, 1});
  CHECK(colour_lines({}).empty());
}

TEST_CASE("hidden reasons are named for people", "[seen]") {
  CHECK(describe_hidden(0).empty());
  CHECK(describe_hidden(hidden_tiny) == "too small to read");
  CHECK(describe_hidden(hidden_tiny | hidden_overprinted) == "too small to read; drawn over by other text");
}
