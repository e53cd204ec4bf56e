// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/pdf/glyph_shapes.hpp"

#include "pith/base/crypto.hpp"

#include <GfxState.h>
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

// Two glyphs of a line drawn over each other (beyond kerning's touch) make a
// shape neither outline is: the line is OCR's.
constexpr double max_overlap = 0.25;

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

std::string utf8_of(const Unicode* u, int u_len) {
  std::string out;
  for (int i = 0; u && i < u_len && i < 8; ++i) {
    char32_t c = u[i];
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
      std::string key = key_of(shape, *path);
      const auto known = std::find(keys_.begin(), keys_.end(), key);
      outline.key = static_cast<int>(known - keys_.begin());
      if (known == keys_.end()) keys_.push_back(std::move(key));
    }
  }
  outlines_.emplace(std::tuple{file, shape, code}, outline);
  return outline;
}

void GlyphShapes::note_glyph(SplashOutputDev& device, GfxState* state, double x, double y, double origin_x,
                             double origin_y, CharCode code, const Unicode* u, int u_len, int position) {
  Drawn drawn;
  drawn.position = position;
  drawn.claimed = utf8_of(u, u_len);
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
  // Told only when drawn plainly: filled with a colour, wholly inside the clip.
  const GfxColorSpace* fill = state->getFillColorSpace();
  const bool plain = state->getRender() == 0 && fill && fill->getMode() != csPattern;
  // Inside a clip of rectangles only (a clip path's bounds say nothing of what it cuts).
  Splash* canvas = device.getSplash();
  SplashClip* clip = canvas ? canvas->getClip() : nullptr;
  const bool inside = clip && clip->getNumPaths() == 0 && drawn.ink.x0 >= clip->getXMin() &&
                      drawn.ink.y0 >= clip->getYMin() && drawn.ink.x1 <= clip->getXMax() && drawn.ink.y1 <= clip->getYMax();
  if (plain && (inside || !drawn.inked)) drawn.key = outline.key;
  drawn_.push_back(std::move(drawn));
}

void GlyphShapes::note_type3_glyph(GfxState* state, double x, double y, int position) {
  Drawn drawn;
  drawn.position = position;
  double x1, y1;
  state->transform(x, y, &x1, &y1);
  const double size = state->getTransformedFontSize();
  drawn.ink = {x1 - size, y1 - 1.5 * size, x1 + 2 * size, y1 + 1.5 * size};
  drawn_.push_back(std::move(drawn));
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
