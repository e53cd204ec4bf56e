// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Whether a reader sees a glyph (issue 22, "seen, not extracted"): the pure
// decisions, apart from the poppler code that renders page 1
// (pdf/seen_glyphs.cpp), so they can be tested on small images.
//
// Three renders of page 1 at the same scale, 8-bit grey (255 = white):
//   - the page: everything a viewer draws (content, form XObjects, images,
//     annotation appearances, clipping, optional content as shown);
//   - the bare page: the same without any text;
//   - the ink: only the glyphs under test, in black, filled, unclipped, on
//     white, nothing else drawn: where each glyph would put ink.
// A glyph is seen when, where it puts ink, text changes the final page
// about as much as black ink on white paper would (visible_contrast):
// white text on white, text painted over, clipped away, behind an image or
// an annotation, and invisible render modes change nothing there. Text over
// text is decided on the glyphs' boxes (mark_overprinted). Legibility rules
// on the geometry (size after every transform, horizontal squeeze, on the
// page) come first.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace pith::pdf {

// A rectangle in points, y growing downwards, from the top-left corner of
// page 1's CropBox (the text extractor's device space at 72 dpi).
struct Box {
  double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  [[nodiscard]] double width() const { return x1 > x0 ? x1 - x0 : 0; }
  [[nodiscard]] double height() const { return y1 > y0 ? y1 - y0 : 0; }
  [[nodiscard]] double area() const { return width() * height(); }
  friend bool operator==(const Box&, const Box&) = default;
};
[[nodiscard]] Box intersection(const Box& a, const Box& b);
[[nodiscard]] Box united(const Box& a, const Box& b);  // an empty box (area 0) is ignored

// Why a glyph is not seen; a line carries the union of its glyphs' reasons.
enum HiddenReason : std::uint8_t {
  hidden_tiny = 1,          // smaller than min_font_size after every transform
  hidden_squeezed = 2,      // squeezed horizontally (Tz, a narrow matrix) below min_advance_ratio
  hidden_off_page = 4,      // mostly outside the CropBox
  hidden_no_contrast = 8,   // drawn but not visible: white, covered, clipped, behind an image or annotation,
                            // an invisible render mode
  hidden_overprinted = 16,  // drawn over by other visible text
};
// "too small, covered or white" for people: the reasons in `mask`, joined.
[[nodiscard]] std::string describe_hidden(std::uint8_t mask);

struct VisibilityRules {
  // Chosen from real papers (docs/pdf-checking.md, "Seen text"): the
  // smallest text on page 1 of the measured papers is 5 pt (footnote
  // marks); arXiv's watermark is 20 pt, titles 14-25 pt.
  double min_font_size = 4.0;
  // Mean advance per character over the font size; Latin text is 0.4-0.6,
  // a word of i's and l's 0.25.
  double min_advance_ratio = 0.12;
  // visible_contrast at or above this is seen (black on white is 1, grey
  // 50 % ink 0.5, white or covered text 0).
  double min_contrast = 0.3;
  // A glyph box at least this much inside the page (the rest is cut off).
  double min_on_page = 0.75;
  // A seen glyph of another line covering this much of a glyph's box
  // overprints it.
  double overprint = 0.5;
  // Below this much ink (pixels of full coverage) a glyph is too small to
  // measure on its own (settle_small_glyphs).
  double min_ink_pixels = 3;
};

// An 8-bit grey image (255 white), `stride` bytes a row, at `scale` pixels
// a point; with `alpha` (one byte a pixel, `width` a row), a render not yet
// put on paper: each pixel is seen over white, as a viewer shows it. Views
// only: the pixels belong to the caller.
struct GreyView {
  const std::uint8_t* pixels = nullptr;
  int width = 0;
  int height = 0;
  int stride = 0;
  double scale = 1.0;
  const std::uint8_t* alpha = nullptr;

  // The grey a viewer shows at (x, y), on white paper (no pixels: white
  // paper itself).
  [[nodiscard]] int shown(int x, int y) const {
    if (!pixels) return 255;
    const int grey = pixels[static_cast<std::ptrdiff_t>(y) * stride + x];
    if (!alpha) return grey;
    const int a = alpha[static_cast<std::ptrdiff_t>(y) * width + x];
    return (grey * a + 255 * (255 - a) + 127) / 255;
  }
};

// How much text shows where the glyph under test puts ink, relative to black
// ink on white (1.0): over `box`, the mean difference between the page and
// the bare page on the glyph's ink pixels, weighted by the ink's coverage,
// over 255. Black text 1, 50 % grey text 0.5, half covered 0.5, white text
// on a dark background near 1, covered or white on white 0. 0 when the box
// holds too little ink to measure.
struct Contrast {
  double value = 0;       // as above
  double ink_pixels = 0;  // the glyph's ink, in pixels of full coverage
};
[[nodiscard]] Contrast measure_contrast(const GreyView& page, const GreyView& bare, const GreyView& ink, const Box& box);
[[nodiscard]] inline double visible_contrast(const GreyView& page, const GreyView& bare, const GreyView& ink,
                                             const Box& box) {
  return measure_contrast(page, bare, ink, box).value;
}

// The geometry rules: a glyph of a word whose font size (points, after
// every transform) and advance per character over size are given, with its
// box and the page's size. Returns the HiddenReason bits (0: legible if it
// has the contrast).
[[nodiscard]] std::uint8_t geometry_hidden(double font_size, double advance_ratio, const Box& box, double page_width,
                                           double page_height, const VisibilityRules& rules = {});

// One character of the text layer whose visibility is decided.
struct GlyphSight {
  std::size_t line = 0;      // the text line it belongs to (the unit drawn per ink render)
  std::size_t word = 0;      // the word it belongs to (numbered across the page)
  Box box;
  double font_size = 0;      // its word's, points after every transform
  double advance_ratio = 0;  // its word's mean advance per character over its size
  std::uint8_t hidden = 0;   // HiddenReason bits
  double ink_pixels = 0;     // its ink in the renders (measure_contrast), once measured
};

// Glyphs too small to measure at the renders' scale (a full stop or a comma:
// a pixel or two, which a link's border or a rule can cover): one hidden
// only for lack of contrast, with less than `rules.min_ink_pixels` of ink,
// whose neighbours in its word are seen, is seen. A whole hidden word stays
// hidden, small glyphs included.
void settle_small_glyphs(std::vector<GlyphSight>& glyphs, const VisibilityRules& rules = {});

// Text drawn over text: a glyph whose box a glyph of another line, itself
// seen, covers by `rules.overprint` or more is overprinted (hidden). Both of
// two overlapping seen texts are, whichever was drawn last: a reader sees
// neither clearly, and a forger's white or invisible title drawn exactly
// over another paper's visible one must not bind, whatever contrast the
// overlap leaves.
void mark_overprinted(std::vector<GlyphSight>& glyphs, const VisibilityRules& rules = {});

// Greedy colouring of text lines so that no two lines of one colour have
// overlapping glyph boxes (each line: its glyph boxes; lines with boxes
// touching only at their edges, as consecutive lines set tightly do, do not
// conflict: a box is shrunk by `margin` of its height first). Lines of one
// colour can be drawn in one ink render without one's ink landing in
// another's box. Returns a colour per line, 0 first.
[[nodiscard]] std::vector<int> colour_lines(const std::vector<std::vector<Box>>& lines, double margin = 0.2);

}  // namespace pith::pdf
