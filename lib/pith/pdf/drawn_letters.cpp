// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/pdf/drawn_letters.hpp"

#include "pith/base/utf8.hpp"
#include "pith/pdf/poppler_document.hpp"
#include "pith/pdf/tesseract_library.hpp"

#include <PDFDoc.h>
#include <SplashOutputDev.h>
#include <splash/SplashBitmap.h>

#include <algorithm>
#include <cstdlib>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>

namespace pith::pdf {
namespace {

// A line is drawn about this tall: Tesseract's LSTM reads best with a
// capital height of 20-40 pixels, and a line's box (ascender to descender)
// is about twice that. Bounded resolution, bounded pixels.
constexpr double line_pixels = 64;
constexpr double min_dpi = 72, max_dpi = 600;
constexpr int max_crop_width = 8000;

// The English model, loaded once per process (80-170 ms, measured: most of
// an OCR reading's cost) from the system's tessdata, read-only, and kept:
// the reading children forked after it inherit it loaded, so the model is
// in memory before the sandbox is entered and before any PDF byte is
// parsed. Only Tesseract's own data is read here, never the hostile PDF.
//
// Ended at exit by a handler registered after Init, so before Tesseract's
// own static caches go (a reader outliving them makes Tesseract print
// "WARNING! LEAK!" at exit, on the user's terminal).
struct Reader {
  const TesseractLibrary* library = nullptr;
  TessBaseAPI* api = nullptr;
};
Reader loaded_reader;

void end_reader() {
  if (!loaded_reader.api) return;
  loaded_reader.library->end(loaded_reader.api);
  loaded_reader.library->destroy(loaded_reader.api);
  loaded_reader.api = nullptr;
}

Result<Reader> english_reader() {
  static bool tried = false;
  static std::optional<Error> failed;
  if (!tried) {
    tried = true;
    auto library = tesseract_library();
    if (!library) {
      failed = library.error();
    } else {
      TessBaseAPI* api = (*library)->create();
      // nullptr: the data path Tesseract was built with (TESSDATA_PREFIX overrides).
      if (api && (*library)->init(api, nullptr, "eng", tesseract::OEM_LSTM_ONLY) == 0) {
        loaded_reader = {*library, api};
        std::atexit(end_reader);
      } else {
        if (api) (*library)->destroy(api);
        failed = Error{ErrorKind::internal, "glyph check",
                       "Tesseract's English model could not be loaded (install tesseract-ocr-eng)"};
      }
    }
  }
  if (failed) return std::unexpected(*failed);
  return loaded_reader;
}

// The band of the page (top and bottom, in points) that belongs to one line.
// poppler's line box spans its font's ascent to descent, and a Type 3 font
// (pdfTeX's bitmap fonts: \usepackage[T1]{fontenc} without lmodern) claims
// a box far taller than its glyphs: a title's line boxes then overlap (35 pt
// tall at 22 pt leading, measured), and a crop of one line holds the lower
// half of the line above and the upper half of the line below, which
// Tesseract reads as garbage. Where two lines' boxes overlap, each keeps its
// side of the overlap's middle. A line no other overlaps keeps its whole
// crop, margin included (an accent or a descender may leave its box).
struct Band {
  double top = -std::numeric_limits<double>::infinity();
  double bottom = std::numeric_limits<double>::infinity();
};

std::vector<Band> bands_of(const std::vector<Box>& lines) {
  std::vector<Band> bands(lines.size());
  for (std::size_t i = 0; i < lines.size(); ++i) {
    for (std::size_t j = i + 1; j < lines.size(); ++j) {
      const double i_middle = lines[i].y0 + lines[i].y1, j_middle = lines[j].y0 + lines[j].y1;  // doubled
      if (i_middle == j_middle || intersection(lines[i], lines[j]).area() <= 0) continue;  // side by side, or apart
      const std::size_t upper = i_middle < j_middle ? i : j, lower = upper == i ? j : i;
      const double middle = (lines[lower].y0 + lines[upper].y1) / 2;
      bands[upper].bottom = std::min(bands[upper].bottom, middle);
      bands[lower].top = std::max(bands[lower].top, middle);
    }
  }
  return bands;
}

// `box` drawn as a viewer shows it, 8-bit grey on white, with a margin of a
// quarter of its height around it (Tesseract wants white around a line),
// and whatever the crop holds above or below the line's band made white.
struct GreyCrop {
  int width = 0, height = 0, row = 0;
  std::unique_ptr<SplashBitmap> bitmap;
};

void whiten_outside(GreyCrop& crop, double crop_top, double scale, const Band& band) {
  unsigned char* data = crop.bitmap->getDataPtr();
  for (int r = 0; r < crop.height; ++r) {
    const double y = crop_top + (r + 0.5) / scale;
    if (y < band.top || y > band.bottom) std::fill_n(data + static_cast<std::ptrdiff_t>(r) * crop.row, crop.width, 255);
  }
}

Result<GreyCrop> render_line(PDFDoc& doc, const Box& box, const Band& band, DrawBudget& budget) {
  const Box line{box.x0, std::max(box.y0, band.top), box.x1, std::min(box.y1, band.bottom)};
  const double tall = line.y1 - line.y0;
  if (!(tall > 0) || !(line.x1 > line.x0)) return fail(ErrorKind::malformed, "glyph check", "an empty line box");
  const double dpi = std::clamp(72.0 * line_pixels / tall, min_dpi, max_dpi);
  const double scale = dpi / 72.0, margin = tall / 4;
  const auto [w, h] = shown_size(doc);
  const Box shown = intersection(Box{line.x0 - margin, line.y0 - margin, line.x1 + margin, line.y1 + margin}, Box{0, 0, w, h});
  if (shown.area() <= 0) return fail(ErrorKind::malformed, "glyph check", "the line is outside the page");
  const int x = static_cast<int>(std::floor(shown.x0 * scale)), y = static_cast<int>(std::floor(shown.y0 * scale));
  const int width = std::clamp(static_cast<int>(std::ceil(shown.x1 * scale)) - x, 1, max_crop_width);
  const int height = std::max(1, static_cast<int>(std::ceil(shown.y1 * scale)) - y);
  SplashColor white = {255, 255, 255, 0};
  SplashOutputDev device(splashModeMono8, 4, false, white);
  device.setFontAntialias(true);
  device.setVectorAntialias(true);
  device.setFreeTypeHinting(false, false);
  device.startDoc(&doc);
  if (!display_page_one(doc, device, dpi, budget, PixelSlice{x, y, width, height}))
    return fail(ErrorKind::malformed, "glyph check", *budget.stopped());
  GreyCrop crop;
  crop.bitmap.reset(device.takeBitmap());
  if (!crop.bitmap || crop.bitmap->getWidth() <= 0 || crop.bitmap->getHeight() <= 0)
    return fail(ErrorKind::internal, "glyph check", "the line's render is empty");
  crop.width = crop.bitmap->getWidth();
  crop.height = crop.bitmap->getHeight();
  crop.row = crop.bitmap->getRowSize();
  whiten_outside(crop, y / scale, scale, band);
  return crop;
}

// Tesseract's text of one line: its line breaks (and any control
// character) made spaces, a byte that is not UTF-8 made U+FFFD (the parent
// refuses an answer that is not text: drawn_letters_from_wire), surrounding
// space trimmed.
std::string one_line(const char* text) {
  const std::string_view read = text ? text : "";
  std::string out;
  out.reserve(read.size());
  for (std::size_t i = 0; i < read.size();) {
    const Utf8Step step = next_utf8(read.substr(i));
    if (step.code_point < 0) append_utf8(out, U'\uFFFD');
    else if (step.code_point < 0x20) out += ' ';
    else out.append(read.substr(i, step.length));
    i += step.length;
  }
  const auto first = out.find_first_not_of(' ');
  if (first == std::string::npos) return {};
  return out.substr(first, out.find_last_not_of(' ') - first + 1);
}

}  // namespace

Result<std::vector<std::string>> read_drawn_letters_here(std::string_view pdf_bytes, const std::vector<Box>& lines,
                                                         ReadMode mode) {
  if (lines.empty() || lines.size() > max_drawn_lines)
    return fail(ErrorKind::internal, "glyph check", "asked to read " + std::to_string(lines.size()) + " lines");
  if (mode == ReadMode::available) return std::vector<std::string>{};  // the bytes are here: they could be read
  auto reader = english_reader();  // before the PDF is parsed
  if (!reader) return std::unexpected(reader.error());
  const TesseractLibrary& tess = *reader->library;
  TessBaseAPI* api = reader->api;
  tess.set_page_seg_mode(api, mode == ReadMode::line ? tesseract::PSM_SINGLE_LINE : tesseract::PSM_SINGLE_BLOCK);
  auto doc = open_for_text(pdf_bytes);
  if (!doc) return std::unexpected(doc.error());
  std::vector<std::string> read;
  const std::vector<Band> bands = bands_of(lines);
  DrawBudget budget;  // each line its operators, all lines within the seconds
  for (std::size_t i = 0; i < lines.size(); ++i) {
    auto crop = render_line(**doc, lines[i], bands[i], budget);
    if (!crop) return std::unexpected(crop.error());
    tess.set_image(api, crop->bitmap->getDataPtr(), crop->width, crop->height, 1, crop->row);
    tess.set_source_resolution(api, 300);
    char* text = tess.get_utf8_text(api);
    read.push_back(one_line(text));
    tess.delete_text(text);
    tess.clear(api);
  }
  return read;
}

Result<void> load_drawn_letters_model() {
  if (auto reader = english_reader(); !reader) return std::unexpected(reader.error());
  return {};
}

std::string drawn_letters_to_wire(const Result<std::vector<std::string>>& read) {
  if (!read) return "error\n" + read.error().message;
  std::string out = "ok\n";
  for (const auto& l : *read) out += l + "\n";
  return out;
}

Result<std::vector<std::string>> drawn_letters_from_wire(std::string_view wire, std::size_t lines) {
  if (wire.starts_with("error\n")) return fail(ErrorKind::internal, "glyph check", std::string(wire.substr(6, 300)));
  if (!wire.starts_with("ok\n")) return fail(ErrorKind::internal, "glyph check", "the reading child sent a malformed answer");
  std::vector<std::string> read;
  std::string_view rest = wire.substr(3);
  while (!rest.empty()) {
    const auto newline = rest.find('\n');
    if (newline == std::string_view::npos) break;
    read.emplace_back(rest.substr(0, newline));
    rest.remove_prefix(newline + 1);
  }
  // The child sends what Tesseract read, checked as valid UTF-8 (read_drawn_letters_here):
  // anything else is a child taken over, whose lines are not compared.
  const bool each_text = std::all_of(read.begin(), read.end(), [](const std::string& l) { return is_valid_utf8(l); });
  if (read.size() != lines || !rest.empty() || !each_text)
    return fail(ErrorKind::internal, "glyph check", "the reading child sent a malformed answer");
  return read;
}

}  // namespace pith::pdf
