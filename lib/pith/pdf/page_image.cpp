// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/pdf/page_image.hpp"

#include "pith/base/crypto.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <memory>
#include <poppler-document.h>
#include <poppler-global.h>
#include <poppler-image.h>
#include <poppler-page-renderer.h>
#include <poppler-page.h>

namespace pith::pdf {
namespace {

void ignore_poppler_message(const std::string&, void*) {}

struct PixelBox {
  int x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // [x0, x1) x [y0, y1)
};

// Where `rect` (user space) lands in the picture poppler draws of `page`:
// the crop box's corner at the picture's top left, turned by the page's
// /Rotate (clockwise), at `dpi`; two pixels of margin for anti-aliasing.
PixelBox pixels_of(const PdfRect& rect, const poppler::page& page, double dpi, int width, int height) {
  const poppler::rectf crop = page.page_rect(poppler::crop_box);
  const double s = dpi / 72.0;
  const double cx0 = crop.x();
  const double cy0 = crop.y();
  const double cx1 = crop.x() + crop.width();
  const double cy1 = crop.y() + crop.height();
  double xs[2];
  double ys[2];
  for (int i = 0; i < 2; ++i) {
    const double px = rect[2 * i];
    const double py = rect[2 * i + 1];
    switch (page.orientation()) {
      case poppler::page::landscape: xs[i] = (py - cy0) * s; ys[i] = (px - cx0) * s; break;     // /Rotate 90
      case poppler::page::upside_down: xs[i] = (cx1 - px) * s; ys[i] = (py - cy0) * s; break;   // 180
      case poppler::page::seascape: xs[i] = (cy1 - py) * s; ys[i] = (cx1 - px) * s; break;      // 270
      case poppler::page::portrait: xs[i] = (px - cx0) * s; ys[i] = (cy1 - py) * s; break;
    }
  }
  constexpr double margin = 2;
  const auto clamp_to = [](double v, int limit) { return static_cast<int>(std::clamp(v, 0.0, static_cast<double>(limit))); };
  return PixelBox{clamp_to(std::floor(std::min(xs[0], xs[1]) - margin), width),
                  clamp_to(std::floor(std::min(ys[0], ys[1]) - margin), height),
                  clamp_to(std::ceil(std::max(xs[0], xs[1]) + margin), width),
                  clamp_to(std::ceil(std::max(ys[0], ys[1]) + margin), height)};
}

}  // namespace

std::optional<PageFingerprint> page_one_fingerprint(std::string_view bytes, double dpi, const std::optional<PdfRect>& blank) {
  if (bytes.size() > static_cast<std::size_t>(INT_MAX)) return std::nullopt;
  poppler::set_debug_error_function(ignore_poppler_message, nullptr);
  // poppler keeps the pointer, never writes through it.
  std::unique_ptr<poppler::document> doc(
      poppler::document::load_from_raw_data(bytes.data(), static_cast<int>(bytes.size())));
  if (!doc || doc->is_locked() || doc->pages() < 1) return std::nullopt;
  std::unique_ptr<poppler::page> page(doc->create_page(0));
  if (!page) return std::nullopt;
  poppler::page_renderer renderer;
  renderer.set_image_format(poppler::image::format_gray8);
  poppler::image image = renderer.render_page(page.get(), dpi, dpi);
  if (!image.is_valid() || image.width() <= 0 || image.height() <= 0) return std::nullopt;
  const int width = image.width();
  const int height = image.height();
  const std::size_t stride = static_cast<std::size_t>(image.bytes_per_row());
  char* pixels = image.data();
  if (blank) {
    const PixelBox box = pixels_of(*blank, *page, dpi, width, height);
    for (int y = box.y0; y < box.y1; ++y)
      std::fill(pixels + static_cast<std::size_t>(y) * stride + box.x0, pixels + static_cast<std::size_t>(y) * stride + box.x1,
                static_cast<char>(0xff));
  }
  Sha256Stream hash;
  for (int y = 0; y < height; ++y)
    hash.update(std::string_view(pixels + static_cast<std::size_t>(y) * stride, static_cast<std::size_t>(width)));
  const Sha256Digest digest = hash.finish();
  return PageFingerprint{width, height, to_hex(digest)};
}

}  // namespace pith::pdf
