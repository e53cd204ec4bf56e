// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/pdf/text_layer.hpp"

#include "pith/pdf/poppler_document.hpp"

#include <GfxFont.h>
#include <GfxState.h>
#include <PDFDoc.h>
#include <TextOutputDev.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace pith::pdf {
namespace {

struct TextPageRelease {
  void operator()(TextPage* page) const { page->decRefCnt(); }
};
using TextPagePtr = std::unique_ptr<TextPage, TextPageRelease>;

double primary_gap(const TextWord& a, const TextWord& b) {
  double ax0, ay0, ax1, ay1, bx0, by0, bx1, by1;
  a.getBBox(&ax0, &ay0, &ax1, &ay1);
  b.getBBox(&bx0, &by0, &bx1, &by1);
  switch (a.getRotation()) {
    case 0: return bx0 - ax1;
    case 1: return by0 - ay1;
    case 2: return ax0 - bx1;
    default: return ay0 - by1;
  }
}

// Small capitals (\textsc, arxiv.sty's titles in Times) are two sizes of one
// face, and the text layer breaks a word where the size changes, then puts
// a space in the break ("N ECESSARY"). Glyphs that touch are one word.
bool same_word_across_sizes(const TextWord& a, const TextWord& b) {
  const double small = std::min(a.getFontSize(), b.getFontSize());
  const double large = std::max(a.getFontSize(), b.getFontSize());
  if (large - small < 0.05 * large) return false;  // one size: the text layer's own spacing stands
  // Measured (Times small caps, arxiv.sty's title): 0.06 em between the
  // capital and the small capitals; TeX's tightest word space in Times is
  // 0.19 em.
  return std::fabs(primary_gap(a, b)) < 0.12 * small;
}

double advance_ratio(const TextWord& word) {
  double x0, y0, x1, y1;
  word.getBBox(&x0, &y0, &x1, &y1);
  const double extent = word.getRotation() % 2 == 0 ? x1 - x0 : y1 - y0;
  const double size = word.getFontSize();
  if (word.getLength() <= 0 || !(size > 0)) return 0;
  return extent / word.getLength() / size;
}

// The lines as pdftotext's reading order prints them (TextPage::dump):
// flows, blocks, lines; a line ending in a hyphen is joined to the next
// one without it.
TextLayer lines_of(TextPage& page) {
  TextLayer layer;
  std::vector<LineChar> current;
  const auto finish_line = [&] {
    const bool blank = std::all_of(current.begin(), current.end(),
                                   [](const LineChar& c) { return c.code_point == ' ' || c.code_point == '\t'; });
    if (!blank) layer.lines.push_back(std::move(current));
    current.clear();
  };
  std::size_t line_index = 0;
  std::size_t word_index = 0;
  for (const TextFlow* flow = page.getFlows(); flow; flow = flow->getNext()) {
    for (const TextBlock* block = flow->getBlocks(); block; block = block->getNext()) {
      for (const TextLine* line = block->getLines(); line; line = line->getNext(), ++line_index) {
        std::vector<LineChar> chars;
        std::vector<Box> boxes;
        for (const TextWord* word = line->getWords(); word; word = word->getNext(), ++word_index) {
          const double size = word->getFontSize();
          const double ratio = advance_ratio(*word);
          for (int i = 0; i < word->getLength(); ++i) {
            GlyphSight glyph;
            glyph.line = line_index;
            glyph.word = word_index;
            word->getCharBBox(i, &glyph.box.x0, &glyph.box.y0, &glyph.box.x1, &glyph.box.y1);
            glyph.font_size = size;
            glyph.advance_ratio = ratio;
            boxes.push_back(glyph.box);
            chars.push_back({static_cast<char32_t>(*word->getChar(i)), static_cast<int>(layer.glyphs.size())});
            layer.glyphs.push_back(glyph);
          }
          if (word->getCharLen() > 0)
            layer.drawn_by.push_back({word->getCharPos(), word->getCharPos() + word->getCharLen(), line_index});
          const TextWord* next = word->getNext();
          if (word->hasSpaceAfter() && !(next && same_word_across_sizes(*word, *next))) chars.push_back({U' ', -1});
        }
        if (line->isHyphenated() && (line->getNext() || block->getNext()) && !chars.empty()) {
          chars.pop_back();
          current.insert(current.end(), chars.begin(), chars.end());
        } else {
          current.insert(current.end(), chars.begin(), chars.end());
          finish_line();
        }
        layer.line_boxes.push_back(std::move(boxes));
      }
    }
    finish_line();
  }
  std::sort(layer.drawn_by.begin(), layer.drawn_by.end(), [](const DrawnBy& a, const DrawnBy& b) { return a.start < b.start; });
  return layer;
}

}  // namespace

// pdfTeX draws a T1-encoded font it has no outlines for (no cm-super, no
// lmodern) as Type 3 bitmaps whose glyphs are named a<code>; poppler reads
// the letters from those names (the code as the character), so the T1
// slots below 32 (ligatures, dashes, quotes) come out as control
// characters ("E\x1Ecient" for "Efficient").
// Their text, from the T1 (Cork) encoding.
std::optional<std::u32string> tex_bitmap_glyph_text(GfxState* state, CharCode code, int u_len) {
  if (u_len > 1 || !(code < 0x20 || code == 0x7F)) return std::nullopt;
  const std::shared_ptr<GfxFont> font = state->getFont();
  if (!font || font->getType() != fontType3 || code > 0xFF) return std::nullopt;
  char** names = static_cast<Gfx8BitFont*>(font.get())->getEncoding();
  if (!names || !names[code] || std::string_view(names[code]) != "a" + std::to_string(code)) return std::nullopt;
  switch (code) {
    case 0x0D: return U"\u201A";  // quotesinglbase
    case 0x10: return U"\u201C";
    case 0x11: return U"\u201D";
    case 0x12: return U"\u201E";
    case 0x15: return U"\u2013";  // en dash
    case 0x16: return U"\u2014";  // em dash
    case 0x19: return U"\u0131";  // dotless i
    case 0x1B: return U"\uFB00";  // ff
    case 0x1C: return U"\uFB01";  // fi
    case 0x1D: return U"\uFB02";  // fl
    case 0x1E: return U"\uFB03";  // ffi
    case 0x1F: return U"\uFB04";  // ffl
    case 0x7F: return U"-";        // the hyphenation hyphen
    default: return std::nullopt;
  }
}

namespace {

// The text layer, with the T1 slots above filled in for pdfTeX's bitmap fonts.
class TextProbe final : public TextOutputDev {
 public:
  TextProbe() : TextOutputDev(static_cast<TextOutputFunc>(nullptr), nullptr, /*physLayout=*/false, 0, /*rawOrder=*/false) {}
  void drawChar(GfxState* state, double x, double y, double dx, double dy, double originX, double originY,
                CharCode code, int nBytes, const Unicode* u, int uLen) override {
    if (const auto glyph_text = tex_bitmap_glyph_text(state, code, uLen)) {
      const std::vector<Unicode> units(glyph_text->begin(), glyph_text->end());
      TextOutputDev::drawChar(state, x, y, dx, dy, originX, originY, code, nBytes, units.data(),
                              static_cast<int>(units.size()));
      return;
    }
    TextOutputDev::drawChar(state, x, y, dx, dy, originX, originY, code, nBytes, u, uLen);
  }
};

}  // namespace

Result<TextLayer> read_text_layer(PDFDoc& doc, DrawBudget& budget) {
  TextProbe text_device;
  if (!text_device.isOk()) return fail(ErrorKind::malformed, "page 1", "page 1's text could not be read");
  if (!display_page_one(doc, text_device, 72, budget)) return fail(ErrorKind::malformed, "page 1", *budget.stopped());
  const TextPagePtr page(text_device.takeText());
  if (!page) return fail(ErrorKind::malformed, "page 1", "page 1 could not be read");
  return lines_of(*page);
}

}  // namespace pith::pdf
