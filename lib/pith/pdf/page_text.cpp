// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/pdf/page_text.hpp"

#include "pith/base/utf8.hpp"
#include "pith/pdf/poppler_document.hpp"

#include <Error.h>
#include <GlobalParams.h>
#include <PDFDoc.h>
#include <SplashOutputDev.h>
#include <Stream.h>
#include <GfxFont.h>
#include <TextOutputDev.h>
#include <splash/Splash.h>
#include <splash/SplashBitmap.h>
#include <splash/SplashPattern.h>

#include <algorithm>
#include <climits>
#include <malloc.h>
#include <cmath>
#include <memory>
#include <optional>
#include <string>

namespace pith::pdf {

namespace {

// poppler reports recoverable damage through this hook (default: stderr).
// Silence it: the checker reports what it concludes, not the parser's chatter.
void ignore_poppler_error(ErrorCategory, Goffset, const char*) {}

void start_poppler() {
  static bool started = false;
  if (started) return;
  if (!globalParams) globalParams = std::make_unique<GlobalParams>();
  setErrorCallback(ignore_poppler_error);
  // The renders allocate and free page-sized bitmaps, over and over in a
  // worker: kept in the heap, not handed back to the kernel and faulted in
  // again each time (5 % of the work, measured). This runs in the child.
  mallopt(M_MMAP_THRESHOLD, 16 << 20);
  mallopt(M_TRIM_THRESHOLD, 64 << 20);
  started = true;
}

std::unique_ptr<PDFDoc> open_document(std::string_view bytes) { return open_poppler_document(bytes); }

// The size of page 1 as displayed: its CropBox, turned by /Rotate.
std::pair<double, double> shown_size(PDFDoc& doc) {
  const double w = doc.getPageCropWidth(1), h = doc.getPageCropHeight(1);
  return doc.getPageRotate(1) % 180 == 0 ? std::pair{w, h} : std::pair{h, w};
}

// Page 1 as every pass draws it: rotation from the page, the CropBox, as a
// viewer on screen (not printing: annotations flagged NoView are not drawn).
void display_page_one(PDFDoc& doc, OutputDev& out, double dpi) {
  doc.displayPage(&out, 1, dpi, dpi, 0, /*useMediaBox=*/false, /*crop=*/true, /*printing=*/false);
}

// --- The text layer ------------------------------------------------------

struct TextPageRelease {
  void operator()(TextPage* page) const { page->decRefCnt(); }
};
using TextPagePtr = std::unique_ptr<TextPage, TextPageRelease>;

using Glyph = GlyphSight;

struct LineChar {
  char32_t code_point = 0;
  int glyph = -1;  // index into the glyphs; -1: the space the line builder puts between words
};

// Which poppler line drew the character at a content-stream position: the
// text layer numbers characters by the bytes of the strings shown
// (TextWord::getCharPos); the renders count the same way (InkProbe).
struct DrawnBy {
  int start = 0, end = 0;  // [start, end) character positions
  std::size_t line = 0;
};

struct TextLayer {
  std::vector<Glyph> glyphs;
  std::vector<std::vector<LineChar>> lines;  // the output lines (hyphenated lines joined, as pdftotext)
  std::vector<std::vector<Box>> line_boxes;  // per poppler line: its glyph boxes
  std::vector<DrawnBy> drawn_by;             // sorted by start
};

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
TextLayer read_text_layer(TextPage& page) {
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
            Glyph glyph;
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

// pdfTeX draws a T1-encoded font it has no outlines for (no cm-super, no
// lmodern) as Type 3 bitmaps whose glyphs are named a<code>; poppler reads
// the letters from those names (the code as the character), so the T1
// slots below 32 (ligatures, dashes, quotes) come out as control
// characters ("E\x1Ecient" for "Efficient").
// Their text, from the T1 (Cork) encoding.
std::optional<std::u32string> tex_bitmap_glyph_text(GfxState* state, CharCode code) {
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

// The text layer, with the T1 slots above filled in for pdfTeX's bitmap fonts.
class TextProbe final : public TextOutputDev {
 public:
  TextProbe() : TextOutputDev(static_cast<TextOutputFunc>(nullptr), nullptr, /*physLayout=*/false, 0, /*rawOrder=*/false) {}
  void drawChar(GfxState* state, double x, double y, double dx, double dy, double originX, double originY,
                CharCode code, int nBytes, const Unicode* u, int uLen) override {
    if (uLen <= 1 && (code < 0x20 || code == 0x7F)) {
      if (const auto glyph_text = tex_bitmap_glyph_text(state, code)) {
        const std::vector<Unicode> units(glyph_text->begin(), glyph_text->end());
        TextOutputDev::drawChar(state, x, y, dx, dy, originX, originY, code, nBytes, units.data(),
                                static_cast<int>(units.size()));
        return;
      }
    }
    TextOutputDev::drawChar(state, x, y, dx, dy, originX, originY, code, nBytes, u, uLen);
  }
};

// --- The renders -----------------------------------------------------------

// SplashOutputDev as a viewer renders (page mode), the same without any
// text (bare mode), or drawing only the glyphs of some lines, in black,
// filled and unclipped, on white, with nothing else (ink mode). Glyphs are
// told apart by the order they are drawn in (their character position,
// counted as the text layer counts it), never by where they are: text drawn
// exactly over other text is still another glyph.
//
// Without antialiasing: the decision compares renders made alike, and at
// 72 dpi antialiased glyphs cost 2.4 times as much (measured on the 10-page
// sample's page 1: 6.2 against 2.6 ms a render).
//
// Without paper either: a render keeps its alpha channel and is seen over
// white only where a glyph is measured (GreyView::shown), instead of every
// pixel of three renders being put on paper (13 % of the work, measured).
class InkProbe final : public SplashOutputDev {
 public:
  InkProbe() : SplashOutputDev(splashModeMono8, 4, false, nullptr) {
    setFontAntialias(false);
    setVectorAntialias(false);
    setFreeTypeHinting(false, false);
  }

  void page_mode() { mode_ = Mode::page; }
  void bare_mode() { mode_ = Mode::bare; }
  // Only glyphs drawn by a line whose colour is `colour`.
  void ink_mode(const std::vector<DrawnBy>& drawn_by, const std::vector<int>& line_colour, int colour) {
    mode_ = Mode::ink;
    drawn_by_ = &drawn_by;
    line_colour_ = &line_colour;
    colour_ = colour;
  }

  bool needCharCount() override { return true; }  // count hidden text as the text layer does
  void incCharCount(int count) override {
    if (type3_depth_ == 0) position_ += count;
  }
  void startPage(int page_number, GfxState* state, XRef* xref_table) override {
    position_ = 0;
    type3_depth_ = 0;
    if (mode_ == Mode::page) marks_.clear();
    SplashOutputDev::startPage(page_number, state, xref_table);
  }

  void drawChar(GfxState* state, double x, double y, double dx, double dy, double originX, double originY,
                CharCode code, int nBytes, const Unicode* u, int uLen) override {
    if (type3_depth_ > 0) {  // text inside a Type 3 glyph is part of that glyph
      SplashOutputDev::drawChar(state, x, y, dx, dy, originX, originY, code, nBytes, u, uLen);
      return;
    }
    const int position = position_;
    position_ += nBytes;
    if (mode_ == Mode::page) {
      SplashOutputDev::drawChar(state, x, y, dx, dy, originX, originY, code, nBytes, u, uLen);
      return;
    }
    if (mode_ == Mode::bare || !selected(position)) return;
    const int render = state->getRender();
    state->setRender(0);
    paint_black();
    SplashOutputDev::drawChar(state, x, y, dx, dy, originX, originY, code, nBytes, u, uLen);
    state->setRender(render);
  }

  bool beginType3Char(GfxState* state, double x, double y, double dx, double dy, CharCode code, const Unicode* u,
                      int uLen) override {
    if (type3_depth_ == 0) {
      const int position = position_;
      position_ += 1;  // Type 3 fonts are simple fonts: one byte a character
      if (mode_ == Mode::bare) return true;  // "drawn": Gfx skips its CharProc
      if (mode_ == Mode::ink) {
        if (!selected(position)) return true;
        state->setRender(0);  // the glyph's own saved state: restored after it
        paint_black();
      }
    }
    const bool done = SplashOutputDev::beginType3Char(state, x, y, dx, dy, code, u, uLen);
    if (!done) ++type3_depth_;
    return done;
  }
  void endType3Char(GfxState* state) override {
    if (type3_depth_ > 0) --type3_depth_;
    SplashOutputDev::endType3Char(state);
  }

  // Where the page mode drew anything but glyphs (device pixels): the page
  // without text differs from white paper only there.
  [[nodiscard]] const std::vector<Box>& marks() const { return marks_; }

  // Ink mode: nothing but glyphs (a Type 3 glyph's own drawing included).
  void stroke(GfxState* state) override {
    note_path(state, state->getTransformedLineWidth());
    if (drawing()) SplashOutputDev::stroke(state);
  }
  void fill(GfxState* state) override {
    note_path(state, 0);
    if (drawing()) SplashOutputDev::fill(state);
  }
  void eoFill(GfxState* state) override {
    note_path(state, 0);
    if (drawing()) SplashOutputDev::eoFill(state);
  }
  bool tilingPatternFill(GfxState* state, Gfx* gfx, Catalog* catalog, GfxTilingPattern* pattern, const double* mat,
                         int x0, int y0, int x1, int y1, double xStep, double yStep) override {
    note_clip(state);
    return drawing() ? SplashOutputDev::tilingPatternFill(state, gfx, catalog, pattern, mat, x0, y0, x1, y1, xStep, yStep)
                     : true;
  }
  bool functionShadedFill(GfxState* state, GfxFunctionShading* shading) override {
    note_clip(state);
    return drawing() ? SplashOutputDev::functionShadedFill(state, shading) : true;
  }
  bool axialShadedFill(GfxState* state, GfxAxialShading* shading, double tMin, double tMax) override {
    note_clip(state);
    return drawing() ? SplashOutputDev::axialShadedFill(state, shading, tMin, tMax) : true;
  }
  bool radialShadedFill(GfxState* state, GfxRadialShading* shading, double tMin, double tMax) override {
    note_clip(state);
    return drawing() ? SplashOutputDev::radialShadedFill(state, shading, tMin, tMax) : true;
  }
  bool gouraudTriangleShadedFill(GfxState* state, GfxGouraudTriangleShading* shading) override {
    note_clip(state);
    return drawing() ? SplashOutputDev::gouraudTriangleShadedFill(state, shading) : true;
  }
  void clip(GfxState* state) override {
    if (drawing()) SplashOutputDev::clip(state);
  }
  void eoClip(GfxState* state) override {
    if (drawing()) SplashOutputDev::eoClip(state);
  }
  void clipToStrokePath(GfxState* state) override {
    if (drawing()) SplashOutputDev::clipToStrokePath(state);
  }
  void drawImageMask(GfxState* state, Object* ref, Stream* str, int width, int height, bool invert, bool interpolate,
                     bool inlineImg) override {
    note_image(state);
    if (drawing()) SplashOutputDev::drawImageMask(state, ref, str, width, height, invert, interpolate, inlineImg);
  }
  void setSoftMaskFromImageMask(GfxState* state, Object* ref, Stream* str, int width, int height, bool invert,
                                bool inlineImg, double* baseMatrix) override {
    note_image(state);
    if (drawing()) SplashOutputDev::setSoftMaskFromImageMask(state, ref, str, width, height, invert, inlineImg, baseMatrix);
  }
  void unsetSoftMaskFromImageMask(GfxState* state, double* baseMatrix) override {
    if (drawing()) SplashOutputDev::unsetSoftMaskFromImageMask(state, baseMatrix);
  }
  void drawImage(GfxState* state, Object* ref, Stream* str, int width, int height, GfxImageColorMap* colorMap,
                 bool interpolate, const int* maskColors, bool inlineImg) override {
    note_image(state);
    if (drawing()) SplashOutputDev::drawImage(state, ref, str, width, height, colorMap, interpolate, maskColors, inlineImg);
  }
  void drawMaskedImage(GfxState* state, Object* ref, Stream* str, int width, int height, GfxImageColorMap* colorMap,
                       bool interpolate, Stream* maskStr, int maskWidth, int maskHeight, bool maskInvert,
                       bool maskInterpolate) override {
    note_image(state);
    if (drawing())
      SplashOutputDev::drawMaskedImage(state, ref, str, width, height, colorMap, interpolate, maskStr, maskWidth,
                                       maskHeight, maskInvert, maskInterpolate);
  }
  void drawSoftMaskedImage(GfxState* state, Object* ref, Stream* str, int width, int height, GfxImageColorMap* colorMap,
                           bool interpolate, Stream* maskStr, int maskWidth, int maskHeight,
                           GfxImageColorMap* maskColorMap, bool maskInterpolate) override {
    note_image(state);
    if (drawing())
      SplashOutputDev::drawSoftMaskedImage(state, ref, str, width, height, colorMap, interpolate, maskStr, maskWidth,
                                           maskHeight, maskColorMap, maskInterpolate);
  }
  void setSoftMask(GfxState* state, const double* bbox, bool alpha, Function* transferFunc,
                   GfxColor* backdropColor) override {
    SplashOutputDev::setSoftMask(state, bbox, alpha, transferFunc, backdropColor);
    if (mode_ == Mode::ink) SplashOutputDev::clearSoftMask(state);  // the group is consumed; its mask does not hide ink
  }
  void updateFillColor(GfxState* state) override {
    SplashOutputDev::updateFillColor(state);
    if (mode_ == Mode::ink) paint_black();
  }
  void updateStrokeColor(GfxState* state) override {
    SplashOutputDev::updateStrokeColor(state);
    if (mode_ == Mode::ink) paint_black();
  }
  void updateFillOpacity(GfxState* state) override {
    SplashOutputDev::updateFillOpacity(state);
    if (mode_ == Mode::ink) paint_black();
  }
  void updateStrokeOpacity(GfxState* state) override {
    SplashOutputDev::updateStrokeOpacity(state);
    if (mode_ == Mode::ink) paint_black();
  }

 private:
  // Page mode draws everything; ink mode only inside a selected Type 3 glyph.
  [[nodiscard]] bool drawing() const { return mode_ != Mode::ink || type3_depth_ > 0; }

  // Page mode, outside a Type 3 glyph: a mark within the clip's box.
  [[nodiscard]] bool noting() const { return mode_ == Mode::page && type3_depth_ == 0; }
  void note(GfxState* state, Box box) {
    double x0, y0, x1, y1;
    state->getClipBBox(&x0, &y0, &x1, &y1);
    box = intersection(box, Box{x0, y0, x1, y1});
    if (box.area() > 0) marks_.push_back(box);
  }
  void note_clip(GfxState* state) {
    if (!noting()) return;
    double x0, y0, x1, y1;
    state->getClipBBox(&x0, &y0, &x1, &y1);
    note(state, {x0, y0, x1, y1});
  }
  void note_path(GfxState* state, double widen) {
    if (!noting()) return;
    const GfxPath* path = state->getPath();
    Box box{1e300, 1e300, -1e300, -1e300};
    for (int i = 0; path && i < path->getNumSubpaths(); ++i) {
      const GfxSubpath* sub = path->getSubpath(i);
      for (int j = 0; j < sub->getNumPoints(); ++j) {
        double x, y;
        state->transform(sub->getX(j), sub->getY(j), &x, &y);
        box = {std::min(box.x0, x), std::min(box.y0, y), std::max(box.x1, x), std::max(box.y1, y)};
      }
    }
    const double w = widen / 2 + 1;  // and a pixel for the rasteriser's rounding
    note(state, {box.x0 - w, box.y0 - w, box.x1 + w, box.y1 + w});
  }
  void note_image(GfxState* state) {  // the unit square through the CTM
    if (!noting()) return;
    Box box{1e300, 1e300, -1e300, -1e300};
    for (const auto& [u, v] : {std::pair{0.0, 0.0}, {1.0, 0.0}, {0.0, 1.0}, {1.0, 1.0}}) {
      double x, y;
      state->transform(u, v, &x, &y);
      box = {std::min(box.x0, x), std::min(box.y0, y), std::max(box.x1, x), std::max(box.y1, y)};
    }
    note(state, {box.x0 - 1, box.y0 - 1, box.x1 + 1, box.y1 + 1});
  }

  [[nodiscard]] bool selected(int position) const {
    const auto& spans = *drawn_by_;
    auto it = std::upper_bound(spans.begin(), spans.end(), position,
                               [](int p, const DrawnBy& d) { return p < d.start; });
    if (it == spans.begin()) return false;
    --it;
    if (position >= it->end) return false;
    return (*line_colour_)[it->line] == colour_;
  }

  void paint_black() {
    Splash* canvas = getSplash();
    if (!canvas) return;
    SplashColor black = {0, 0, 0, 0};
    canvas->setFillPattern(new SplashSolidColor(black));
    canvas->setStrokePattern(new SplashSolidColor(black));
    canvas->setFillAlpha(1.0);
    canvas->setStrokeAlpha(1.0);
  }

  enum class Mode { page, bare, ink };
  Mode mode_ = Mode::page;
  const std::vector<DrawnBy>* drawn_by_ = nullptr;
  const std::vector<int>* line_colour_ = nullptr;
  int colour_ = 0;
  int position_ = 0;
  int type3_depth_ = 0;
  std::vector<Box> marks_;
};

struct BitmapRelease {
  void operator()(SplashBitmap* bitmap) const { delete bitmap; }
};
using BitmapPtr = std::unique_ptr<SplashBitmap, BitmapRelease>;

GreyView view_of(SplashBitmap& bitmap, double scale) {
  return {bitmap.getDataPtr(), bitmap.getWidth(), bitmap.getHeight(), bitmap.getRowSize(), scale, bitmap.getAlphaPtr()};
}

// Decides every glyph's visibility: geometry first, then the page render, the
// page without text, and one ink render per colour of overlapping lines.
void decide_visibility(PDFDoc& doc, TextLayer& layer, double page_width, double page_height,
                       const PageTextLimits& limits, SeenMeasure& measure) {
  const VisibilityRules& rules = limits.rules;
  for (Glyph& g : layer.glyphs)
    g.hidden = geometry_hidden(g.font_size, g.advance_ratio, g.box, page_width, page_height, rules);
  const std::vector<int> colour = colour_lines(layer.line_boxes);
  const int colours = colour.empty() ? 0 : *std::max_element(colour.begin(), colour.end()) + 1;

  InkProbe probe;
  probe.startDoc(&doc);
  const double scale = limits.render_dpi / 72.0;
  probe.page_mode();
  display_page_one(doc, probe, limits.render_dpi);
  BitmapPtr page(probe.takeBitmap());
  const GreyView page_view = view_of(*page, scale);
  // The page without text: white paper where nothing else was drawn near a
  // glyph (most pages of most papers), else rendered.
  const auto near_glyph = [&](const Box& mark) {
    const Box points{mark.x0 / scale, mark.y0 / scale, mark.x1 / scale, mark.y1 / scale};
    return std::any_of(layer.glyphs.begin(), layer.glyphs.end(),
                       [&](const Glyph& g) { return intersection(points, g.box).area() > 0; });
  };
  BitmapPtr bare;
  GreyView bare_view{nullptr, page_view.width, page_view.height, 0, scale, nullptr};  // white paper
  if (std::any_of(probe.marks().begin(), probe.marks().end(), near_glyph)) {
    probe.bare_mode();
    display_page_one(doc, probe, limits.render_dpi);
    bare.reset(probe.takeBitmap());
    bare_view = view_of(*bare, scale);
    ++measure.bare_renders;
  }
  for (int c = 0; c < colours; ++c) {
    if (c >= limits.max_ink_renders) {
      for (Glyph& g : layer.glyphs) {
        if (colour[g.line] == c) g.hidden |= hidden_overprinted;
      }
      continue;
    }
    probe.ink_mode(layer.drawn_by, colour, c);
    display_page_one(doc, probe, limits.render_dpi);
    ++measure.ink_renders;
    SplashBitmap* ink = probe.getBitmap();
    const GreyView ink_view = view_of(*ink, scale);
    for (Glyph& g : layer.glyphs) {
      if (colour[g.line] != c || g.hidden) continue;
      const Contrast contrast = measure_contrast(page_view, bare_view, ink_view, g.box);
      g.ink_pixels = contrast.ink_pixels;
      if (contrast.value < rules.min_contrast) g.hidden |= hidden_no_contrast;
    }
  }
  settle_small_glyphs(layer.glyphs, rules);
  mark_overprinted(layer.glyphs, rules);
}

// --- The value ---------------------------------------------------------------

void append_utf8(std::string& out, char32_t c) {
  if (c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) c = 0xFFFD;
  if (c < 0x80) {
    out.push_back(static_cast<char>(c));
  } else if (c < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (c >> 6)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else if (c < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (c >> 12)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (c >> 18)));
    out.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  }
}

void fill_lines(const TextLayer& layer, const PageTextLimits& limits, PageText& out) {
  for (const auto& chars : layer.lines) {
    if (out.lines.size() >= limits.max_lines) break;
    std::string text, seen;
    std::uint8_t hidden = 0;
    Box box;
    for (const LineChar& c : chars) {
      std::string bytes;
      append_utf8(bytes, c.code_point);
      if (text.size() + bytes.size() > limits.max_line_bytes) break;
      text += bytes;
      const Glyph* g = c.glyph >= 0 ? &layer.glyphs[static_cast<std::size_t>(c.glyph)] : nullptr;
      seen.push_back(g && g->hidden ? '0' : '1');
      if (g) {
        hidden |= g->hidden;
        box = united(box, g->box);
      }
    }
    out.lines.push_back(std::move(text));
    out.seen.push_back(std::move(seen));
    out.hidden.push_back(hidden);
    out.boxes.push_back(box);
  }
  for (const Glyph& g : layer.glyphs) {
    ++out.measure.glyphs;
    if (g.hidden) ++out.measure.hidden;
  }
}

std::size_t code_points(std::string_view text) {
  std::size_t n = 0;
  while (!text.empty()) {
    const Utf8Step step = next_utf8(text);
    text.remove_prefix(step.length);
    ++n;
  }
  return n;
}

}  // namespace

std::unique_ptr<PDFDoc> open_poppler_document(std::string_view bytes) {
  start_poppler();
  auto* stream = new MemStream(bytes.data(), 0, static_cast<Goffset>(bytes.size()), Object(objNull));
  auto doc = std::make_unique<PDFDoc>(stream);  // owns the stream
  if (!doc->isOk()) return nullptr;
  return doc;
}

// --- PageText ------------------------------------------------------------------

PageText PageText::all_seen(std::vector<std::string> lines) {
  PageText page;
  for (const auto& line : lines) page.seen.emplace_back(code_points(line), '1');
  page.hidden.assign(lines.size(), 0);
  page.boxes.assign(lines.size(), Box{});
  page.lines = std::move(lines);
  return page;
}

std::vector<std::string> PageText::seen_lines() const {
  std::vector<std::string> out;
  out.reserve(lines.size());
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view text = lines[i];
    const std::string_view mask = i < seen.size() ? std::string_view(seen[i]) : std::string_view();
    std::string kept;
    std::size_t k = 0;
    while (!text.empty()) {
      const Utf8Step step = next_utf8(text);
      if (k < mask.size() && mask[k] == '1') kept.append(text.substr(0, step.length));
      text.remove_prefix(step.length);
      ++k;
    }
    out.push_back(std::move(kept));
  }
  return out;
}

bool PageText::all_seen(std::size_t first, std::size_t count) const {
  for (std::size_t i = first; i < first + count; ++i) {
    if (i >= seen.size() || seen[i].find('0') != std::string::npos) return false;
  }
  return true;
}

std::optional<std::string> PageText::inconsistency() const {
  if (seen.size() != lines.size() || hidden.size() != lines.size() || boxes.size() != lines.size())
    return "per-line visibility for another number of lines";
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (seen[i].find_first_not_of("01") != std::string::npos) return "a visibility mask of other than 0 and 1";
    if (seen[i].size() != code_points(lines[i])) return "a visibility mask of another length than its line";
  }
  if (!(page_width >= 0) || !(page_height >= 0)) return "a page size that is not a size";
  return std::nullopt;
}

nlohmann::json PageText::to_json() const {
  nlohmann::json box_list = nlohmann::json::array();
  for (const Box& b : boxes) box_list.push_back({b.x0, b.y0, b.x1, b.y1});
  nlohmann::json out = {{"lines", lines},
                        {"seen", seen},
                        {"hidden", hidden},
                        {"boxes", std::move(box_list)},
                        {"page_size", {page_width, page_height}},
                        {"measure", {measure.glyphs, measure.hidden, measure.ink_renders, measure.bare_renders}},
                        {"link_uris", link_uris}};
  if (problem) out["problem"] = *problem;
  return out;
}

Result<PageText> PageText::from_json(const nlohmann::json& json) {
  const auto bad = [](std::string why) { return std::unexpected(Error{ErrorKind::malformed, "page text", std::move(why)}); };
  if (!json.is_object()) return bad("not an object");
  PageText out;
  try {
    out.lines = json.at("lines").get<std::vector<std::string>>();
    out.seen = json.at("seen").get<std::vector<std::string>>();
    out.hidden = json.at("hidden").get<std::vector<std::uint8_t>>();
    for (const auto& b : json.at("boxes")) {
      out.boxes.push_back({b.at(0).get<double>(), b.at(1).get<double>(), b.at(2).get<double>(), b.at(3).get<double>()});
    }
    out.page_width = json.at("page_size").at(0).get<double>();
    out.page_height = json.at("page_size").at(1).get<double>();
    const auto& m = json.at("measure");
    out.measure = {m.at(0).get<std::uint64_t>(), m.at(1).get<std::uint64_t>(), m.at(2).get<std::uint64_t>(),
                   m.at(3).get<std::uint64_t>()};
    out.link_uris = json.at("link_uris").get<std::vector<std::string>>();
    if (const auto it = json.find("problem"); it != json.end()) out.problem = it->get<std::string>();
  } catch (const nlohmann::json::exception& e) {
    return bad(e.what());
  }
  if (auto why = out.inconsistency()) return bad(*why);
  return out;
}

PageText read_page_text(std::string_view bytes, std::vector<std::string> link_uris, const PageTextLimits& limits) {
  PageText out;
  out.link_uris = std::move(link_uris);
  if (bytes.size() > static_cast<std::size_t>(INT_MAX)) {
    out.problem = "the file is too large for the text extractor";
    return out;
  }
  try {
    const std::unique_ptr<PDFDoc> doc = open_document(bytes);
    if (!doc) {
      out.problem = "the text extractor could not open the PDF";
      return out;
    }
    if (doc->getNumPages() < 1) {
      out.problem = "the PDF has no pages";
      return out;
    }
    std::tie(out.page_width, out.page_height) = shown_size(*doc);
    TextProbe text_device;
    if (!text_device.isOk()) {
      out.problem = "page 1's text could not be read";
      return out;
    }
    display_page_one(*doc, text_device, 72);
    const TextPagePtr page(text_device.takeText());
    if (!page) {
      out.problem = "page 1 could not be read";
      return out;
    }
    TextLayer layer = read_text_layer(*page);
    decide_visibility(*doc, layer, out.page_width, out.page_height, limits, out.measure);
    fill_lines(layer, limits, out);
  } catch (const std::exception& e) {
    PageText failed;
    failed.link_uris = std::move(out.link_uris);
    failed.problem = std::string("page 1's text could not be read: ") + e.what();
    return failed;
  }
  return out;
}

Result<PageCrop> render_page_crop(std::string_view bytes, const Box& box, double dpi) {
  if (bytes.size() > static_cast<std::size_t>(INT_MAX)) return fail(ErrorKind::malformed, "page 1", "too large to render");
  const std::unique_ptr<PDFDoc> doc = open_document(bytes);
  if (!doc || doc->getNumPages() < 1) return fail(ErrorKind::malformed, "page 1", "could not be rendered");
  const double scale = dpi / 72.0;
  const auto [w, h] = shown_size(*doc);
  const Box shown = intersection(box, Box{0, 0, w, h});
  if (shown.area() <= 0) return fail(ErrorKind::malformed, "page 1", "the region to render is outside the page");
  const int x = static_cast<int>(std::floor(shown.x0 * scale)), y = static_cast<int>(std::floor(shown.y0 * scale));
  const int width = std::max(1, static_cast<int>(std::ceil(shown.x1 * scale)) - x);
  const int height = std::max(1, static_cast<int>(std::ceil(shown.y1 * scale)) - y);
  SplashColor white = {255, 255, 255, 0};
  SplashOutputDev device(splashModeRGB8, 4, false, white);
  device.setFontAntialias(true);
  device.setVectorAntialias(true);
  device.setFreeTypeHinting(false, false);
  device.startDoc(doc.get());
  doc->displayPageSlice(&device, 1, dpi, dpi, 0, false, true, false, x, y, width, height);
  SplashBitmap* bitmap = device.getBitmap();
  if (!bitmap || bitmap->getWidth() <= 0 || bitmap->getHeight() <= 0)
    return fail(ErrorKind::internal, "page 1", "the render is empty");
  PageCrop crop;
  crop.width = bitmap->getWidth();
  crop.height = bitmap->getHeight();
  const std::size_t row = static_cast<std::size_t>(crop.width) * 3;
  crop.rgb.reserve(row * static_cast<std::size_t>(crop.height));
  for (int r = 0; r < crop.height; ++r) {
    const auto* data = reinterpret_cast<const char*>(bitmap->getDataPtr()) + static_cast<std::ptrdiff_t>(r) * bitmap->getRowSize();
    crop.rgb.append(data, row);
  }
  return crop;
}

}  // namespace pith::pdf
