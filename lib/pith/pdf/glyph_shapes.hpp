// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Glyphs told by their outlines (issue 34), noted while page 1 is rendered
// as a viewer shows it (pdf/seen_glyphs' page mode).
//
// A glyph's key is the SHA-256 of its outline as the font program draws it
// (FreeType, through poppler's Splash font engine: the very glyph the render
// fills, by the code-to-glyph map the render uses), at a fixed size of 1000
// pixels to the em and with the shape of its matrix (rotation, slant,
// aspect, to 1/256), without hinting. Subsetting, the file's encoding and
// its claims do not change a key; another outline, or the same outline
// squeezed or turned, does. Only glyphs drawn plainly are told: filled (text
// render mode 0) with a colour, not a pattern, wholly inside the clip, on a
// page without soft masks. A Type 3 glyph (a content stream, not an outline)
// is never told.
//
// Which letters a key draws is not decided here: the parent learns that from
// OCR readings (check/shape_memory.hpp). Internal to pdf/seen_glyphs; runs in
// the child.
#include "pith/pdf/text_layer.hpp"

#include <CharTypes.h>

#include <array>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

class GfxState;
class SplashFont;
class SplashFontFile;
class SplashOutputDev;

namespace pith::pdf {

class GlyphShapes {
 public:
  GlyphShapes() = default;
  GlyphShapes(const GlyphShapes&) = delete;
  GlyphShapes& operator=(const GlyphShapes&) = delete;
  // Deletes the fonts it made: before the device that owns their font files
  // is destroyed.
  ~GlyphShapes();

  // A new render of the page: the glyphs noted so far are forgotten (the
  // outlines already keyed are kept).
  void start_page();
  // A glyph the device is about to fill (SplashOutputDev::drawChar's arguments).
  void note_glyph(SplashOutputDev& device, GfxState* state, double x, double y, double origin_x, double origin_y,
                  CharCode code, const Unicode* u, int u_len, int position);
  // A Type 3 glyph about to be drawn at the top level: begin, then (when its
  // procedure runs, not drawn from Splash's glyph cache) the bounds its d1
  // gives and anything it draws that its procedure's bytes do not hold (an
  // image, a form, a shading, a pattern, text: it is then not told), then
  // end. Its key is its procedure's bytes with the shape of its matrix.
  // (Its origin is the translation of the CTM poppler sets for it.)
  void begin_type3_glyph(GfxState* state, CharCode code, const Unicode* u, int u_len, int position);
  void type3_bounds(GfxState* state, double llx, double lly, double urx, double ury);
  void taint_type3_glyph();
  void end_type3_glyph(SplashOutputDev& device, GfxState* state);
  // A soft mask on the page: what it hides of a glyph is not in the outline.
  void note_soft_mask() { soft_masked_ = true; }

  // The first lines of `layer` told by their glyphs (TextLayer::shapes and
  // shape_keys); `marks`: where anything but glyphs was drawn (device pixels).
  void tell_lines(TextLayer& layer, const std::vector<Box>& marks) const;

 private:
  using Shape = std::array<int, 4>;  // the matrix over its scale, in 1/256
  struct Outline {
    int key = -1;     // into keys_; -1: no outline
    bool inked = false;
    Box bounds;       // at the canonical size
  };
  struct Drawn {
    int position = 0;
    int key = -1;        // -1: not told
    bool inked = true;   // false: an empty outline (a space)
    bool upright = false;
    Box ink;             // device pixels
    std::string claimed;
  };

  struct Type3Glyph {
    int key = -1;                // into keys_; -1: its procedure cannot be keyed
    bool tainted = false;        // it drew what its bytes do not hold
    std::optional<Box> bounds;   // its d1 box, device pixels from its origin
  };
  using Type3Id = std::tuple<const void*, CharCode, Shape>;  // the GfxFont, the code, the shape

  SplashFont* canonical_font(SplashFontFile* file, const Shape& shape);
  int key_index(std::string key);
  // `drawn` told by `key` when drawn plainly: filled with a colour, wholly inside a clip of rectangles.
  static void tell_if_plain(Drawn& drawn, int key, SplashOutputDev& device, GfxState* state);
  Outline outline_of(SplashFontFile* file, const Shape& shape, CharCode code);

  std::map<std::tuple<SplashFontFile*, Shape>, SplashFont*> fonts_;
  std::map<std::tuple<SplashFontFile*, Shape, CharCode>, Outline> outlines_;
  std::map<Type3Id, Type3Glyph> type3_;
  struct OpenType3 {
    Type3Id id;
    Box origin;  // the origin, a point
  };
  std::optional<OpenType3> open_type3_;
  std::vector<std::string> keys_;  // 32 bytes each
  std::vector<Drawn> drawn_;
  bool soft_masked_ = false;
};

}  // namespace pith::pdf
