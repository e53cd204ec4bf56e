// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/pdf/seen_glyphs.hpp"

#include "pith/pdf/glyph_shapes.hpp"
#include "pith/pdf/poppler_document.hpp"

#include <GfxState.h>
#include <PDFDoc.h>
#include <SplashOutputDev.h>
#include <splash/Splash.h>
#include <splash/SplashBitmap.h>
#include <splash/SplashPattern.h>

#include <algorithm>
#include <memory>
#include <vector>

namespace pith::pdf {
namespace {

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
    if (mode_ == Mode::page) {
      marks_.clear();
      shapes_.start_page();
    }
    SplashOutputDev::startPage(page_number, state, xref_table);
  }

  void drawChar(GfxState* state, double x, double y, double dx, double dy, double originX, double originY,
                CharCode code, int nBytes, const Unicode* u, int uLen) override {
    if (type3_depth_ > 0) {  // text inside a Type 3 glyph is part of that glyph
      taint_type3();
      SplashOutputDev::drawChar(state, x, y, dx, dy, originX, originY, code, nBytes, u, uLen);
      return;
    }
    const int position = position_;
    position_ += nBytes;
    if (mode_ == Mode::page) {
      SplashOutputDev::drawChar(state, x, y, dx, dy, originX, originY, code, nBytes, u, uLen);
      shapes_.note_glyph(*this, state, x, y, originX, originY, code, u, uLen, position);  // after: the font is current
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
      if (mode_ == Mode::page) shapes_.begin_type3_glyph(state, code, u, uLen, position);
      if (mode_ == Mode::bare) return true;  // "drawn": Gfx skips its CharProc
      if (mode_ == Mode::ink) {
        if (!selected(position)) return true;
        state->setRender(0);  // the glyph's own saved state: restored after it
        paint_black();
      }
    }
    const bool done = SplashOutputDev::beginType3Char(state, x, y, dx, dy, code, u, uLen);
    if (!done) {
      ++type3_depth_;
    } else if (type3_depth_ == 0 && mode_ == Mode::page) {
      shapes_.end_type3_glyph(*this, state);  // drawn from Splash's glyph cache: no procedure runs
    }
    return done;
  }
  void endType3Char(GfxState* state) override {
    if (type3_depth_ > 0) --type3_depth_;
    SplashOutputDev::endType3Char(state);
    if (type3_depth_ == 0 && mode_ == Mode::page) shapes_.end_type3_glyph(*this, state);
  }
  void type3D1(GfxState* state, double wx, double wy, double llx, double lly, double urx, double ury) override {
    if (type3_depth_ == 1 && mode_ == Mode::page) shapes_.type3_bounds(state, llx, lly, urx, ury);
    SplashOutputDev::type3D1(state, wx, wy, llx, lly, urx, ury);
  }

  // Where the page mode drew anything but glyphs (device pixels): the page
  // without text differs from white paper only there.
  [[nodiscard]] const std::vector<Box>& marks() const { return marks_; }
  // Page mode: the glyphs drawn, told by their outlines.
  [[nodiscard]] const GlyphShapes& shapes() const { return shapes_; }

  // Page mode, inside a Type 3 glyph: it draws what its procedure's bytes do not hold.
  void taint_type3() {
    if (mode_ == Mode::page && type3_depth_ > 0) shapes_.taint_type3_glyph();
  }

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
    taint_type3();
    return drawing() ? SplashOutputDev::tilingPatternFill(state, gfx, catalog, pattern, mat, x0, y0, x1, y1, xStep, yStep)
                     : true;
  }
  bool functionShadedFill(GfxState* state, GfxFunctionShading* shading) override {
    note_clip(state);
    taint_type3();
    return drawing() ? SplashOutputDev::functionShadedFill(state, shading) : true;
  }
  bool axialShadedFill(GfxState* state, GfxAxialShading* shading, double tMin, double tMax) override {
    note_clip(state);
    taint_type3();
    return drawing() ? SplashOutputDev::axialShadedFill(state, shading, tMin, tMax) : true;
  }
  bool radialShadedFill(GfxState* state, GfxRadialShading* shading, double tMin, double tMax) override {
    note_clip(state);
    taint_type3();
    return drawing() ? SplashOutputDev::radialShadedFill(state, shading, tMin, tMax) : true;
  }
  bool gouraudTriangleShadedFill(GfxState* state, GfxGouraudTriangleShading* shading) override {
    note_clip(state);
    taint_type3();
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
    if (!inlineImg) taint_type3();  // an inline image is in the procedure's bytes
    if (drawing()) SplashOutputDev::drawImageMask(state, ref, str, width, height, invert, interpolate, inlineImg);
  }
  void setSoftMaskFromImageMask(GfxState* state, Object* ref, Stream* str, int width, int height, bool invert,
                                bool inlineImg, double* baseMatrix) override {
    note_image(state);
    if (!inlineImg) taint_type3();  // an inline image is in the procedure's bytes
    if (mode_ == Mode::page) shapes_.note_soft_mask();
    if (drawing()) SplashOutputDev::setSoftMaskFromImageMask(state, ref, str, width, height, invert, inlineImg, baseMatrix);
  }
  void unsetSoftMaskFromImageMask(GfxState* state, double* baseMatrix) override {
    if (drawing()) SplashOutputDev::unsetSoftMaskFromImageMask(state, baseMatrix);
  }
  void drawImage(GfxState* state, Object* ref, Stream* str, int width, int height, GfxImageColorMap* colorMap,
                 bool interpolate, const int* maskColors, bool inlineImg) override {
    note_image(state);
    if (!inlineImg) taint_type3();  // an inline image is in the procedure's bytes
    if (drawing()) SplashOutputDev::drawImage(state, ref, str, width, height, colorMap, interpolate, maskColors, inlineImg);
  }
  void drawMaskedImage(GfxState* state, Object* ref, Stream* str, int width, int height, GfxImageColorMap* colorMap,
                       bool interpolate, Stream* maskStr, int maskWidth, int maskHeight, bool maskInvert,
                       bool maskInterpolate) override {
    note_image(state);
    taint_type3();
    if (drawing())
      SplashOutputDev::drawMaskedImage(state, ref, str, width, height, colorMap, interpolate, maskStr, maskWidth,
                                       maskHeight, maskInvert, maskInterpolate);
  }
  void drawSoftMaskedImage(GfxState* state, Object* ref, Stream* str, int width, int height, GfxImageColorMap* colorMap,
                           bool interpolate, Stream* maskStr, int maskWidth, int maskHeight,
                           GfxImageColorMap* maskColorMap, bool maskInterpolate) override {
    note_image(state);
    taint_type3();
    if (drawing())
      SplashOutputDev::drawSoftMaskedImage(state, ref, str, width, height, colorMap, interpolate, maskStr, maskWidth,
                                           maskHeight, maskColorMap, maskInterpolate);
  }
  void setSoftMask(GfxState* state, const double* bbox, bool alpha, Function* transferFunc,
                   GfxColor* backdropColor) override {
    if (mode_ == Mode::page) shapes_.note_soft_mask();
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
    if (box.area() <= 0) return;
    // A page of millions of paths (issue 32) keeps max_marks boxes: the
    // rest are united into the last, which only ever touches more glyphs
    // (a bare render more, fewer lines told by their outlines).
    if (marks_.size() < max_marks) marks_.push_back(box);
    else marks_.back() = united(marks_.back(), box);
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
  static constexpr std::size_t max_marks = 65536;
  std::vector<Box> marks_;
  GlyphShapes shapes_;  // destroyed before the device's font engine: it holds fonts of its font files
};

struct BitmapRelease {
  void operator()(SplashBitmap* bitmap) const { delete bitmap; }
};
using BitmapPtr = std::unique_ptr<SplashBitmap, BitmapRelease>;

GreyView view_of(SplashBitmap& bitmap, double scale) {
  return {bitmap.getDataPtr(), bitmap.getWidth(), bitmap.getHeight(), bitmap.getRowSize(), scale, bitmap.getAlphaPtr()};
}

}  // namespace

// Decides every glyph's visibility: geometry first, then the page render, the
// page without text, and one ink render per colour of overlapping lines.
bool decide_visibility(PDFDoc& doc, TextLayer& layer, double page_width, double page_height,
                       const PageTextLimits& limits, DrawBudget& budget, SeenMeasure& measure) {
  const VisibilityRules& rules = limits.rules;
  for (GlyphSight& g : layer.glyphs)
    g.hidden = geometry_hidden(g.font_size, g.advance_ratio, g.box, page_width, page_height, rules);
  const std::vector<int> colour = colour_lines(layer.line_boxes);
  const int colours = colour.empty() ? 0 : *std::max_element(colour.begin(), colour.end()) + 1;

  InkProbe probe;
  probe.startDoc(&doc);
  const double dpi = bounded_dpi(limits.render_dpi, page_width, page_height);
  const double scale = dpi / 72.0;
  probe.page_mode();
  if (!display_page_one(doc, probe, dpi, budget)) return false;
  BitmapPtr page(probe.takeBitmap());
  probe.shapes().tell_lines(layer, probe.marks());
  const GreyView page_view = view_of(*page, scale);
  // The page without text: white paper where nothing else was drawn near a
  // glyph (most pages of most papers), else rendered.
  const auto near_glyph = [&](const Box& mark) {
    const Box points{mark.x0 / scale, mark.y0 / scale, mark.x1 / scale, mark.y1 / scale};
    return std::any_of(layer.glyphs.begin(), layer.glyphs.end(),
                       [&](const GlyphSight& g) { return intersection(points, g.box).area() > 0; });
  };
  BitmapPtr bare;
  GreyView bare_view{nullptr, page_view.width, page_view.height, 0, scale, nullptr};  // white paper
  if (std::any_of(probe.marks().begin(), probe.marks().end(), near_glyph)) {
    probe.bare_mode();
    if (!display_page_one(doc, probe, dpi, budget)) return false;
    bare.reset(probe.takeBitmap());
    bare_view = view_of(*bare, scale);
    ++measure.bare_renders;
  }
  for (int c = 0; c < colours; ++c) {
    if (c >= limits.max_ink_renders) {
      for (GlyphSight& g : layer.glyphs) {
        if (colour[g.line] == c) g.hidden |= hidden_overprinted;
      }
      continue;
    }
    probe.ink_mode(layer.drawn_by, colour, c);
    if (!display_page_one(doc, probe, dpi, budget)) return false;
    ++measure.ink_renders;
    SplashBitmap* ink = probe.getBitmap();
    const GreyView ink_view = view_of(*ink, scale);
    for (GlyphSight& g : layer.glyphs) {
      if (colour[g.line] != c || g.hidden) continue;
      const Contrast contrast = measure_contrast(page_view, bare_view, ink_view, g.box);
      g.ink_pixels = contrast.ink_pixels;
      if (contrast.value < rules.min_contrast) g.hidden |= hidden_no_contrast;
    }
  }
  settle_small_glyphs(layer.glyphs, rules);
  mark_overprinted(layer.glyphs, rules);
  return true;
}

}  // namespace pith::pdf
