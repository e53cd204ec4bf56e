// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/pdf/page_image.hpp"

#include "pith/base/crypto.hpp"
#include "pith/pdf/poppler_document.hpp"

#include <PDFDoc.h>
#include <Page.h>
#include <SplashOutputDev.h>
#include <splash/SplashBitmap.h>

#include <algorithm>
#include <cmath>
#include <memory>

namespace pith::pdf {
namespace {

struct PixelBox {
  int x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // [x0, x1) x [y0, y1)
};

// Where `rect` (user space) lands in the picture poppler draws of `page`:
// the crop box's corner at the picture's top left, turned by the page's
// /Rotate (clockwise), at `dpi`; two pixels of margin for anti-aliasing.
PixelBox pixels_of(const PdfRect& rect, const Page& page, double dpi, int width, int height) {
  const PDFRectangle& crop = *page.getCropBox();
  const double s = dpi / 72.0;
  const double cx0 = crop.x1;
  const double cy0 = crop.y1;
  const double cx1 = crop.x2;
  const double cy1 = crop.y2;
  double xs[2];
  double ys[2];
  for (int i = 0; i < 2; ++i) {
    const double px = rect[2 * i];
    const double py = rect[2 * i + 1];
    switch (page.getRotate()) {
      case 90: xs[i] = (py - cy0) * s; ys[i] = (px - cx0) * s; break;
      case 180: xs[i] = (cx1 - px) * s; ys[i] = (py - cy0) * s; break;
      case 270: xs[i] = (cy1 - py) * s; ys[i] = (cx1 - px) * s; break;
      default: xs[i] = (px - cx0) * s; ys[i] = (cy1 - py) * s; break;
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
  std::unique_ptr<PDFDoc> doc = open_poppler_document(bytes);
  if (!doc || doc->getNumPages() < 1) return std::nullopt;
  Page* page = doc->getPage(1);
  if (!page) return std::nullopt;
  // A huge page is drawn coarser (at most max_render_pixels), a page too
  // complex to draw within the budget not at all: no picture to compare.
  const auto [shown_width, shown_height] = shown_size(*doc);
  dpi = bounded_dpi(dpi, shown_width, shown_height);
  DrawBudget budget;
  // 8-bit grey on white paper, without anti-aliasing or font hinting: the
  // same picture every time, as `pdftoppm -gray -aa no -aaVector no` draws.
  SplashColor paper = {0xff, 0xff, 0xff, 0xff};
  SplashOutputDev out(splashModeMono8, /*bitmapRowPad=*/4, /*reverseVideo=*/false, paper);
  out.setFontAntialias(false);
  out.setVectorAntialias(false);
  out.setFreeTypeHinting(false, false);
  out.startDoc(doc.get());
  // The crop box, turned by the page's /Rotate, as a viewer on screen.
  if (!display_page_one(*doc, out, dpi, budget)) return std::nullopt;
  SplashBitmap* bitmap = out.getBitmap();
  if (!bitmap || bitmap->getWidth() <= 0 || bitmap->getHeight() <= 0) return std::nullopt;
  const int width = bitmap->getWidth();
  const int height = bitmap->getHeight();
  const std::size_t stride = static_cast<std::size_t>(bitmap->getRowSize());
  unsigned char* pixels = bitmap->getDataPtr();
  if (blank) {
    const PixelBox box = pixels_of(*blank, *page, dpi, width, height);
    for (int y = box.y0; y < box.y1; ++y)
      std::fill(pixels + static_cast<std::size_t>(y) * stride + box.x0, pixels + static_cast<std::size_t>(y) * stride + box.x1,
                static_cast<unsigned char>(0xff));
  }
  Sha256Stream hash;
  for (int y = 0; y < height; ++y)
    hash.update(std::string_view(reinterpret_cast<const char*>(pixels) + static_cast<std::size_t>(y) * stride,
                                 static_cast<std::size_t>(width)));
  const Sha256Digest digest = hash.finish();
  return PageFingerprint{width, height, to_hex(digest)};
}

}  // namespace pith::pdf
