// SPDX-License-Identifier: GPL-3.0-or-later
// Page 1 as a reader sees it, put together: poppler opens the file
// (pdf/poppler_document), its text layer gives the lines (pdf/text_layer),
// renders decide which glyphs are seen (pdf/seen_glyphs), and the lines
// become the PageText value the child sends its parent; also a crop of page
// 1 rendered for people (pith-check --evidence).
#include "pith/pdf/page_text.hpp"

#include "pith/base/crypto.hpp"
#include "pith/base/utf8.hpp"
#include "pith/pdf/poppler_document.hpp"
#include "pith/pdf/seen_glyphs.hpp"
#include "pith/pdf/text_layer.hpp"

#include <PDFDoc.h>
#include <SplashOutputDev.h>
#include <splash/SplashBitmap.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <tuple>

namespace pith::pdf {

namespace {


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
      const GlyphSight* g = c.glyph >= 0 ? &layer.glyphs[static_cast<std::size_t>(c.glyph)] : nullptr;
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
  for (const GlyphSight& g : layer.glyphs) {
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
  if (shapes.size() > lines.size() || shapes.size() > max_shaped_lines) return "glyph shapes for lines it does not have";
  for (const auto& key : shape_keys) {
    if (key.size() != 32) return "a glyph shape key of another length than 32 bytes";
  }
  for (const LineShapes& line : shapes) {
    if (line.glyphs.size() > max_shaped_glyphs || (!line.told && !line.glyphs.empty())) return "a line's glyph shapes out of form";
    for (const ShapedGlyph& g : line.glyphs) {
      if (g.key >= shape_keys.size()) return "a glyph shape naming no key";
      if (g.claimed.size() > 64 || !is_valid_utf8(g.claimed)) return "a glyph's claimed letters out of form";
    }
  }
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
  if (!shapes.empty()) {
    nlohmann::json keys = nlohmann::json::array(), lines_json = nlohmann::json::array();
    for (const auto& key : shape_keys) keys.push_back(to_hex(key));
    for (const LineShapes& line : shapes) {
      nlohmann::json glyphs = nlohmann::json::array();
      for (const ShapedGlyph& g : line.glyphs) glyphs.push_back({g.key, g.claimed});
      lines_json.push_back({{"told", line.told}, {"glyphs", std::move(glyphs)}});
    }
    out["shapes"] = {{"keys", std::move(keys)}, {"lines", std::move(lines_json)}};
  }
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
    if (const auto it = json.find("shapes"); it != json.end()) {
      for (const auto& key : it->at("keys")) {
        const auto bytes = from_hex_fixed<32>(key.get<std::string>());
        if (!bytes) return bad("a glyph shape key that is not hex");
        out.shape_keys.emplace_back(bytes->begin(), bytes->end());
      }
      for (const auto& line : it->at("lines")) {
        LineShapes shaped{line.at("told").get<bool>(), {}};
        for (const auto& g : line.at("glyphs")) shaped.glyphs.push_back({g.at(0).get<std::uint32_t>(), g.at(1).get<std::string>()});
        out.shapes.push_back(std::move(shaped));
      }
    }
  } catch (const nlohmann::json::exception& e) {
    return bad(e.what());
  }
  if (auto why = out.inconsistency()) return bad(*why);
  return out;
}

PageText read_page_text(std::string_view bytes, std::vector<std::string> link_uris, const PageTextLimits& limits) {
  PageText out;
  out.link_uris = std::move(link_uris);
  try {
    const Result<std::unique_ptr<PDFDoc>> opened = open_for_text(bytes);
    if (!opened) {
      out.problem = opened.error().message;
      return out;
    }
    PDFDoc& doc = **opened;
    std::tie(out.page_width, out.page_height) = shown_size(doc);
    DrawBudget budget(limits.max_draw_operators, std::chrono::seconds(limits.draw_seconds));
    Result<TextLayer> layer = read_text_layer(doc, budget);
    if (!layer) {
      out.problem = layer.error().message;
      return out;
    }
    if (!decide_visibility(doc, *layer, out.page_width, out.page_height, limits, budget, out.measure)) {
      out.problem = *budget.stopped();  // what is seen is not known: nothing binds through it
      return out;
    }
    fill_lines(*layer, limits, out);
    out.shapes = std::move(layer->shapes);
    out.shape_keys = std::move(layer->shape_keys);
    if (out.shapes.size() > out.lines.size()) out.shapes.resize(out.lines.size());
  } catch (const std::bad_alloc&) {
    throw;  // the child's memory budget: reported by it, naming the option that raises it (runner/child_budget.hpp)
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
  const std::unique_ptr<PDFDoc> doc = open_poppler_document(bytes);
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
  DrawBudget budget;
  if (!display_page_one(*doc, device, dpi, budget, PixelSlice{x, y, width, height}))
    return fail(ErrorKind::malformed, "page 1", *budget.stopped());
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
