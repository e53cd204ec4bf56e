// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/pdf/glyph_shapes.hpp"

#include "pith/base/crypto.hpp"
#include "pith/base/utf8.hpp"

#include <GfxFont.h>
#include <GfxState.h>
#include <Stream.h>
#include <SplashOutputDev.h>
#include <splash/Splash.h>
#include <splash/SplashClip.h>
#include <splash/SplashFont.h>
#include <splash/SplashFontFile.h>
#include <splash/SplashPath.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <set>

namespace pith::pdf {
namespace {

constexpr double canonical_size = 1000;  // pixels to the em: 26.6 outlines at this size are exact and stable
constexpr int shape_steps = 256;         // the matrix's shape, rounded to 1/256
constexpr std::string_view key_domain = "pith glyph outline 1";

// Two glyphs of a line drawn over each other make a shape neither outline
// is ("l" and "-" as a "t"): the line is OCR's. Boxes, not ink: kerning
// ("AV", "Ty") and pdfTeX's bitmap glyphs, whose boxes are padded, overlap
// by up to 40 % of the smaller box (measured: "ad" in a Type 3 title 36 %).
constexpr double max_overlap = 0.5;

void put_int(std::string& out, std::int64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((static_cast<std::uint64_t>(v) >> (8 * i)) & 0xFF));
}

// The 32-byte key of an outline drawn with `shape` (its points in 1/64 of a
// pixel at the canonical size, and each point's flags).
std::string key_of(const std::array<int, 4>& shape, SplashPath& path) {
  std::string bytes(key_domain);
  for (const int v : shape) put_int(bytes, v);
  for (int i = 0; i < path.getLength(); ++i) {
    double x, y;
    unsigned char flags;
    path.getPoint(i, &x, &y, &flags);
    bytes.push_back(static_cast<char>(flags));
    put_int(bytes, std::llround(x * 64));
    put_int(bytes, std::llround(y * 64));
  }
  const Sha256Digest digest = sha256(bytes);
  return {reinterpret_cast<const char*>(digest.data()), digest.size()};
}

Box bounds_of(SplashPath& path) {
  Box box{std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity(),
          -std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
  for (int i = 0; i < path.getLength(); ++i) {
    double x, y;
    unsigned char flags;
    path.getPoint(i, &x, &y, &flags);
    box = {std::min(box.x0, x), std::min(box.y0, y), std::max(box.x1, x), std::max(box.y1, y)};
  }
  return box;
}

// What the text layer takes the glyph for (its claim), as UTF-8.
std::string claimed_text(GfxState* state, CharCode code, const Unicode* u, int u_len) {
  std::string out;
  if (const auto tex = tex_bitmap_glyph_text(state, code, u_len)) {
    for (const char32_t c : *tex) append_utf8(out, c);
    return out;
  }
  for (int i = 0; u && i < u_len && i < 8; ++i) append_utf8(out, u[i]);
  return out;
}

// Upright: left to right, without rotation; a slant of a few degrees is
// allowed (a line's order is then still its glyphs' order along x).
bool upright(const std::array<int, 4>& s) {
  return s[0] > 0 && std::abs(s[1]) * 8 < s[0] && std::abs(s[2]) * 3 < std::abs(s[3]) && s[3] != 0;
}

bool overlapping(const Box& a, const Box& b, double share) {
  const double both = intersection(a, b).area();
  return both > 0 && both > share * std::min(a.area(), b.area());
}

Box widened(const Box& b, double by) { return {b.x0 - by, b.y0 - by, b.x1 + by, b.y1 + by}; }

}  // namespace

GlyphShapes::~GlyphShapes() {
  for (auto& [where, font] : fonts_) delete font;
}

void GlyphShapes::start_page() {
  drawn_.clear();
  soft_masked_ = false;
}

int GlyphShapes::key_index(std::string key) {
  const auto known = std::find(keys_.begin(), keys_.end(), key);
  if (known != keys_.end()) return static_cast<int>(known - keys_.begin());
  keys_.push_back(std::move(key));
  return static_cast<int>(keys_.size() - 1);
}

void GlyphShapes::tell_if_plain(Drawn& drawn, int key, SplashOutputDev& device, GfxState* state) {
  const GfxColorSpace* fill = state->getFillColorSpace();
  const bool plain = state->getRender() == 0 && fill && fill->getMode() != csPattern;
  // Inside a clip of rectangles only (a clip path's bounds say nothing of what it cuts).
  Splash* canvas = device.getSplash();
  SplashClip* clip = canvas ? canvas->getClip() : nullptr;
  const bool inside = clip && clip->getNumPaths() == 0 && drawn.ink.x0 >= clip->getXMin() &&
                      drawn.ink.y0 >= clip->getYMin() && drawn.ink.x1 <= clip->getXMax() && drawn.ink.y1 <= clip->getYMax();
  if (plain && (inside || !drawn.inked)) drawn.key = key;
}

SplashFont* GlyphShapes::canonical_font(SplashFontFile* file, const Shape& shape) {
  const auto at = fonts_.find({file, shape});
  if (at != fonts_.end()) return at->second;
  SplashCoord matrix[4];
  for (int i = 0; i < 4; ++i) matrix[i] = shape[i] * canonical_size / shape_steps;
  SplashFont* font = file->makeFont(matrix, matrix);
  fonts_.emplace(std::tuple{file, shape}, font);
  return font;
}

GlyphShapes::Outline GlyphShapes::outline_of(SplashFontFile* file, const Shape& shape, CharCode code) {
  const auto at = outlines_.find({file, shape, code});
  if (at != outlines_.end()) return at->second;
  Outline outline;
  if (SplashFont* font = canonical_font(file, shape)) {
    const std::unique_ptr<SplashPath> path(font->getGlyphPath(static_cast<int>(code)));
    if (path) {
      outline.inked = path->getLength() > 0;
      outline.bounds = outline.inked ? bounds_of(*path) : Box{};
      outline.key = key_index(key_of(shape, *path));
    }
  }
  outlines_.emplace(std::tuple{file, shape, code}, outline);
  return outline;
}

void GlyphShapes::note_glyph(SplashOutputDev& device, GfxState* state, double x, double y, double origin_x,
                             double origin_y, CharCode code, const Unicode* u, int u_len, int position) {
  Drawn drawn;
  drawn.position = position;
  drawn.claimed = claimed_text(state, code, u, u_len);
  double x1, y1;
  state->transform(x - origin_x, y - origin_y, &x1, &y1);  // where Splash puts the glyph's origin
  const double size = state->getTransformedFontSize();
  drawn.ink = {x1 - size, y1 - 1.5 * size, x1 + 2 * size, y1 + 1.5 * size};  // until the outline says better
  SplashFont* font = device.getCurrentFont();
  const SplashCoord* m = font ? font->getMatrix() : nullptr;
  const double scale = m ? std::sqrt(std::abs(m[0] * m[3] - m[1] * m[2])) : 0;
  if (!font || !(scale > 1e-3) || !std::isfinite(scale)) {
    drawn_.push_back(std::move(drawn));
    return;
  }
  Shape shape;
  for (int i = 0; i < 4; ++i) shape[i] = static_cast<int>(std::lround(std::clamp(m[i] / scale, -64.0, 64.0) * shape_steps));
  const Outline outline = outline_of(font->getFontFile(), shape, code);
  drawn.upright = upright(shape);
  drawn.inked = outline.key < 0 || outline.inked;
  if (outline.key >= 0 && outline.inked) {
    // The outline's y runs up (text space), the device's down.
    const double k = scale / canonical_size;
    drawn.ink = {x1 + outline.bounds.x0 * k, y1 - outline.bounds.y1 * k, x1 + outline.bounds.x1 * k,
                 y1 - outline.bounds.y0 * k};
  }
  tell_if_plain(drawn, outline.key, device, state);
  drawn_.push_back(std::move(drawn));
}

namespace {

// Whether a Type 3 procedure's bytes hold a token. An operator that names a
// resource draws what the bytes do not hold, and the name may be the
// page's (poppler looks names up through the page's resources too): `Do`
// (a form or image), `gs` (a graphics state: masks, blending, line width),
// `sh` (a shading), `cs`/`CS`/`scn`/`SCN` (a colour space or pattern),
// `BDC` (optional content), `Tf` (a font).
constexpr std::string_view resource_operators[] = {"Do", "gs", "sh", "cs", "CS", "scn", "SCN", "BDC", "Tf"};

bool holds_token(std::string_view bytes, std::string_view token) {
  const auto delimiter = [](char c) { return std::string_view(" \t\r\n\f\0()<>[]{}/%", 15).find(c) != std::string_view::npos; };
  for (std::size_t at = bytes.find(token); at != std::string_view::npos; at = bytes.find(token, at + 1)) {
    const bool before = at == 0 || delimiter(bytes[at - 1]);
    const bool after = at + token.size() == bytes.size() || delimiter(bytes[at + token.size()]);
    if (before && after) return true;
  }
  return false;
}

// The key of a Type 3 glyph: its procedure's bytes (bounded), its font's
// matrix and the shape it is drawn with; nullopt when they cannot say what it draws.
std::optional<std::string> type3_key(GfxState* state, CharCode code, const std::array<int, 4>& shape) {
  constexpr std::size_t max_procedure_bytes = 1 << 20;
  const std::shared_ptr<GfxFont> font = state->getFont();
  if (!font || font->getType() != fontType3) return std::nullopt;
  auto* type3 = static_cast<Gfx8BitFont*>(font.get());
  Object procedure = type3->getCharProc(static_cast<int>(code));
  if (!procedure.isStream()) return std::nullopt;
  Stream* stream = procedure.getStream();
  stream->reset();
  std::string bytes(key_domain);
  bytes += " type 3";
  for (const int v : shape) put_int(bytes, v);
  for (int i = 0; i < 6; ++i) put_int(bytes, std::llround(font->getFontMatrix()[i] * 1e9));
  const std::size_t header = bytes.size();
  for (int c = stream->getChar(); c != EOF; c = stream->getChar()) {
    if (bytes.size() - header >= max_procedure_bytes) {
      stream->close();
      return std::nullopt;
    }
    bytes.push_back(static_cast<char>(c));
  }
  stream->close();
  const std::string_view body = std::string_view(bytes).substr(header);
  for (const std::string_view op : resource_operators) {
    if (holds_token(body, op)) return std::nullopt;
  }
  const Sha256Digest digest = sha256(bytes);
  return std::string(reinterpret_cast<const char*>(digest.data()), digest.size());
}

// The shape of a Type 3 glyph's matrix, glyph space to the device: the CTM
// poppler sets before it asks the device about the glyph (its font matrix,
// the text matrix and the page's CTM, translated to the glyph's origin).
std::optional<std::array<int, 4>> type3_shape(const double* ctm) {
  const double scale = std::sqrt(std::abs(ctm[0] * ctm[3] - ctm[1] * ctm[2]));
  if (!(scale > 1e-9) || !std::isfinite(scale)) return std::nullopt;
  std::array<int, 4> shape;
  for (int i = 0; i < 4; ++i) shape[i] = static_cast<int>(std::lround(std::clamp(ctm[i] / scale, -64.0, 64.0) * shape_steps));
  return shape;
}

}  // namespace

void GlyphShapes::begin_type3_glyph(GfxState* state, CharCode code, const Unicode* u, int u_len,
                                    int position) {
  Drawn drawn;
  drawn.position = position;
  drawn.claimed = claimed_text(state, code, u, u_len);
  // Asked with the glyph's own CTM set: its translation is the glyph's origin on the device.
  const double* ctm = state->getCTM();
  const double x1 = ctm[4], y1 = ctm[5];
  const std::shared_ptr<GfxFont> font = state->getFont();
  const double* fm = font ? font->getFontMatrix() : nullptr;
  const double font_det = fm ? std::abs(fm[0] * fm[3] - fm[1] * fm[2]) : 0;
  const double size = font_det > 0 ? std::sqrt(std::abs(ctm[0] * ctm[3] - ctm[1] * ctm[2]) / font_det) : 0;
  const double em = std::isfinite(size) ? std::min(size, 1e4) : 0;
  drawn.ink = {x1 - em, y1 - 1.5 * em, x1 + 2 * em, y1 + 1.5 * em};  // until its d1 says better
  drawn_.push_back(std::move(drawn));
  open_type3_.reset();
  const auto shape = type3_shape(ctm);
  if (!shape) return;
  drawn_.back().upright = upright(*shape);
  const Type3Id id{font.get(), code, *shape};
  auto [at, added] = type3_.try_emplace(id);
  if (added) {
    const auto key = type3_key(state, code, *shape);
    at->second.key = key ? key_index(*key) : -1;
  }
  open_type3_ = OpenType3{id, Box{x1, y1, x1, y1}};
}

void GlyphShapes::type3_bounds(GfxState* state, double llx, double lly, double urx, double ury) {
  if (!open_type3_) return;
  Box box{std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity(),
          -std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
  for (const auto& [u, v] : {std::pair{llx, lly}, {urx, lly}, {llx, ury}, {urx, ury}}) {
    double x, y;
    state->transform(u, v, &x, &y);  // the procedure's CTM: glyph space to the device
    box = {std::min(box.x0, x), std::min(box.y0, y), std::max(box.x1, x), std::max(box.y1, y)};
  }
  const Box& origin = open_type3_->origin;
  type3_[open_type3_->id].bounds = Box{box.x0 - origin.x0, box.y0 - origin.y0, box.x1 - origin.x0, box.y1 - origin.y0};
}

void GlyphShapes::taint_type3_glyph() {
  if (open_type3_) type3_[open_type3_->id].tainted = true;
}

void GlyphShapes::end_type3_glyph(SplashOutputDev& device, GfxState* state) {
  if (!open_type3_ || drawn_.empty()) return;
  const Type3Glyph& glyph = type3_[open_type3_->id];
  Drawn& drawn = drawn_.back();
  const Box& origin = open_type3_->origin;
  open_type3_.reset();
  if (!glyph.bounds) return;  // a d0 glyph (or none seen): its extent unknown, not told
  drawn.ink = {origin.x0 + glyph.bounds->x0, origin.y0 + glyph.bounds->y0, origin.x0 + glyph.bounds->x1,
               origin.y0 + glyph.bounds->y1};
  if (glyph.key >= 0 && !glyph.tainted) tell_if_plain(drawn, glyph.key, device, state);
}

void GlyphShapes::tell_lines(TextLayer& layer, const std::vector<Box>& marks) const {
  layer.shapes.clear();
  layer.shape_keys.clear();
  // Each drawn glyph's poppler line (the text layer's word that holds its position), or none.
  const auto line_of = [&](int position) -> std::optional<std::size_t> {
    auto it = std::upper_bound(layer.drawn_by.begin(), layer.drawn_by.end(), position,
                               [](int p, const DrawnBy& d) { return p < d.start; });
    if (it == layer.drawn_by.begin()) return std::nullopt;
    --it;
    if (position >= it->end) return std::nullopt;
    return it->line;
  };
  std::vector<std::optional<std::size_t>> drawn_line;
  drawn_line.reserve(drawn_.size());
  for (const Drawn& d : drawn_) drawn_line.push_back(line_of(d.position));
  std::map<int, std::uint32_t> used;  // keys_ index -> shape_keys index
  const std::size_t lines = std::min(layer.lines.size(), max_shaped_lines);
  for (std::size_t l = 0; l < lines; ++l) {
    std::set<std::size_t> poppler_lines;
    for (const LineChar& c : layer.lines[l]) {
      if (c.glyph >= 0) poppler_lines.insert(layer.glyphs[static_cast<std::size_t>(c.glyph)].line);
    }
    std::vector<const Drawn*> members;
    bool told = !soft_masked_;
    Box united_ink;
    for (std::size_t i = 0; i < drawn_.size() && told; ++i) {
      if (!drawn_line[i] || !poppler_lines.contains(*drawn_line[i]) || !drawn_[i].inked) continue;
      if (drawn_[i].key < 0 || !drawn_[i].upright) told = false;
      members.push_back(&drawn_[i]);
      united_ink = united(united_ink, drawn_[i].ink);
    }
    told = told && !members.empty() && members.size() <= max_shaped_glyphs;
    std::stable_sort(members.begin(), members.end(), [](const Drawn* a, const Drawn* b) { return a->ink.x0 < b->ink.x0; });
    for (std::size_t i = 0; told && i < members.size(); ++i) {
      for (std::size_t j = i + 1; told && j < members.size() && members[j]->ink.x0 < members[i]->ink.x1; ++j)
        told = !overlapping(members[i]->ink, members[j]->ink, max_overlap);
    }
    // Nothing else is drawn on the line's glyphs: no glyph of another line
    // (or of none: a duplicate the text layer dropped), no path, no image.
    const auto touches_member = [&](const Box& other) {
      if (intersection(other, united_ink).area() <= 0) return false;
      return std::any_of(members.begin(), members.end(),
                         [&](const Drawn* m) { return intersection(other, widened(m->ink, 0.5)).area() > 0; });
    };
    for (std::size_t i = 0; told && i < drawn_.size(); ++i) {
      const bool member = drawn_line[i] && poppler_lines.contains(*drawn_line[i]);
      if (!member && drawn_[i].inked && touches_member(drawn_[i].ink)) told = false;
    }
    for (std::size_t i = 0; told && i < marks.size(); ++i) told = !touches_member(marks[i]);
    LineShapes shaped;
    shaped.told = told;
    for (const Drawn* m : told ? members : std::vector<const Drawn*>{}) {
      const auto [at, added] = used.try_emplace(m->key, static_cast<std::uint32_t>(layer.shape_keys.size()));
      if (added) layer.shape_keys.push_back(keys_[static_cast<std::size_t>(m->key)]);
      shaped.glyphs.push_back({at->second, m->claimed});
    }
    layer.shapes.push_back(std::move(shaped));
  }
}

}  // namespace pith::pdf
