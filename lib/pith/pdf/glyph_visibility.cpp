// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/pdf/glyph_visibility.hpp"

#include <algorithm>
#include <cmath>

namespace pith::pdf {

Box intersection(const Box& a, const Box& b) {
  Box out{std::max(a.x0, b.x0), std::max(a.y0, b.y0), std::min(a.x1, b.x1), std::min(a.y1, b.y1)};
  if (out.x1 <= out.x0 || out.y1 <= out.y0) return {};
  return out;
}

Box united(const Box& a, const Box& b) {
  if (a.area() <= 0) return b;
  if (b.area() <= 0) return a;
  return {std::min(a.x0, b.x0), std::min(a.y0, b.y0), std::max(a.x1, b.x1), std::max(a.y1, b.y1)};
}

std::string describe_hidden(std::uint8_t mask) {
  static constexpr std::pair<std::uint8_t, const char*> names[] = {
      {hidden_tiny, "too small to read"},
      {hidden_squeezed, "squeezed too narrow to read"},
      {hidden_off_page, "outside the page"},
      {hidden_no_contrast, "not visible against what lies beneath (white, covered, clipped, behind an image or "
                           "annotation, or an invisible render mode)"},
      {hidden_overprinted, "drawn over by other text"},
  };
  std::string out;
  for (const auto& [bit, name] : names) {
    if (mask & bit) out += (out.empty() ? "" : "; ") + std::string(name);
  }
  return out;
}

namespace {

struct PixelRect {
  int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
};

PixelRect pixels_of(const Box& box, const GreyView& view) {
  const auto clamp = [](double v, int hi) { return static_cast<int>(std::clamp(v, 0.0, static_cast<double>(hi))); };
  return {clamp(std::floor(box.x0 * view.scale), view.width), clamp(std::floor(box.y0 * view.scale), view.height),
          clamp(std::ceil(box.x1 * view.scale), view.width), clamp(std::ceil(box.y1 * view.scale), view.height)};
}

}  // namespace

Contrast measure_contrast(const GreyView& page, const GreyView& bare, const GreyView& ink, const Box& box) {
  const auto same_shape = [&](const GreyView& v) { return v.width == ink.width && v.height == ink.height; };
  if (!ink.pixels || !page.pixels || !same_shape(page) || !same_shape(bare)) return {};
  const PixelRect r = pixels_of(box, page);
  double ink_weight = 0, shown = 0;
  for (int y = r.y0; y < r.y1; ++y) {
    for (int x = r.x0; x < r.x1; ++x) {
      const double coverage = (255.0 - ink.shown(x, y)) / 255.0;
      if (coverage <= 0) continue;
      ink_weight += coverage;
      shown += coverage * std::abs(page.shown(x, y) - bare.shown(x, y));
    }
  }
  // No ink (nothing drawn, or a glyph outside the render): nothing to
  // measure. A full stop at 9 pt is 0.3 pixels of ink at 72 dpi: the bound
  // is below that.
  if (ink_weight < 0.1) return {0, ink_weight};
  return {shown / (255.0 * ink_weight), ink_weight};
}

void settle_small_glyphs(std::vector<GlyphSight>& glyphs, const VisibilityRules& rules) {
  std::vector<std::size_t> settled;
  for (std::size_t i = 0; i < glyphs.size(); ++i) {
    const GlyphSight& g = glyphs[i];
    if (g.hidden != hidden_no_contrast || g.ink_pixels >= rules.min_ink_pixels) continue;
    const auto seen_neighbour = [&](std::size_t j) { return glyphs[j].word == g.word && glyphs[j].hidden == 0; };
    const bool before = i > 0 && glyphs[i - 1].word == g.word;
    const bool after = i + 1 < glyphs.size() && glyphs[i + 1].word == g.word;
    if (!before && !after) continue;  // a word of its own: nothing to go by
    if ((!before || seen_neighbour(i - 1)) && (!after || seen_neighbour(i + 1))) settled.push_back(i);
  }
  for (const std::size_t i : settled) glyphs[i].hidden = 0;
}

std::uint8_t geometry_hidden(double font_size, double advance_ratio, const Box& box, double page_width,
                             double page_height, const VisibilityRules& rules) {
  std::uint8_t hidden = 0;
  if (!(font_size >= rules.min_font_size)) hidden |= hidden_tiny;  // NaN too
  if (!(advance_ratio >= rules.min_advance_ratio)) hidden |= hidden_squeezed;
  const Box page{0, 0, page_width, page_height};
  if (box.area() <= 0 || intersection(box, page).area() < rules.min_on_page * box.area()) hidden |= hidden_off_page;
  return hidden;
}

void mark_overprinted(std::vector<GlyphSight>& glyphs, const VisibilityRules& rules) {
  std::size_t lines = 0;
  for (const GlyphSight& g : glyphs) lines = std::max(lines, g.line + 1);
  std::vector<Box> extent(lines);
  std::vector<std::vector<std::size_t>> of_line(lines);
  for (std::size_t i = 0; i < glyphs.size(); ++i) {
    extent[glyphs[i].line] = united(extent[glyphs[i].line], glyphs[i].box);
    of_line[glyphs[i].line].push_back(i);
  }
  std::vector<bool> over(glyphs.size(), false);
  for (std::size_t a = 0; a < lines; ++a) {
    for (std::size_t b = a + 1; b < lines; ++b) {
      if (intersection(extent[a], extent[b]).area() <= 0) continue;
      for (const std::size_t i : of_line[a]) {
        for (const std::size_t j : of_line[b]) {
          const GlyphSight& x = glyphs[i];
          const GlyphSight& y = glyphs[j];
          const double shared = intersection(x.box, y.box).area();
          if (shared <= 0) continue;
          if (y.hidden == 0 && shared >= rules.overprint * x.box.area()) over[i] = true;
          if (x.hidden == 0 && shared >= rules.overprint * y.box.area()) over[j] = true;
        }
      }
    }
  }
  for (std::size_t i = 0; i < glyphs.size(); ++i) {
    if (over[i]) glyphs[i].hidden |= hidden_overprinted;
  }
}

namespace {

Box shrunk(const Box& b, double margin) {
  const double dx = b.width() * margin / 2, dy = b.height() * margin;
  return {b.x0 + dx, b.y0 + dy, b.x1 - dx, b.y1 - dy};
}

}  // namespace

std::vector<int> colour_lines(const std::vector<std::vector<Box>>& lines, double margin) {
  std::vector<std::vector<Box>> boxes(lines.size());
  std::vector<Box> extent(lines.size());
  for (std::size_t i = 0; i < lines.size(); ++i) {
    for (const Box& b : lines[i]) {
      const Box s = shrunk(b, margin);
      if (s.area() <= 0) continue;
      boxes[i].push_back(s);
      extent[i] = united(extent[i], s);
    }
  }
  const auto conflict = [&](std::size_t a, std::size_t b) {
    if (intersection(extent[a], extent[b]).area() <= 0) return false;
    for (const Box& x : boxes[a]) {
      for (const Box& y : boxes[b]) {
        if (intersection(x, y).area() > 0) return true;
      }
    }
    return false;
  };
  std::vector<int> colour(lines.size(), 0);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::vector<bool> used;
    for (std::size_t j = 0; j < i; ++j) {
      if (!conflict(i, j)) continue;
      const auto c = static_cast<std::size_t>(colour[j]);
      if (used.size() <= c) used.resize(c + 1, false);
      used[c] = true;
    }
    std::size_t c = 0;
    while (c < used.size() && used[c]) ++c;
    colour[i] = static_cast<int>(c);
  }
  return colour;
}

}  // namespace pith::pdf
