// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Page 1 as a reader draws it, reduced to a fingerprint: pith-stamp's
// post-write check renders page 1 of the original and of the written file
// and keeps the file only when both are the same picture, apart from the
// badge's own rectangle (stamp/examine.hpp). The checks before it (the
// update's entries, /Root, the page count) cannot see a page that a reader
// draws differently: poppler rebuilt pdf-lib's flatten_form.pdf from a
// classic section after its xref stream, and a checkbox lost its tick.
//
// poppler's core API (pdf/poppler_document.hpp) and its Splash renderer,
// 8-bit grey without anti-aliasing (as `pdftoppm -gray -aa no -aaVector no`),
// at a resolution low enough to cost a few milliseconds (36 dpi: 306 x 396
// pixels for US Letter) and high enough to show a tick, a glyph or a form
// field. Run only in a sandboxed child: poppler parses the hostile PDF.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace pith::pdf {

// A rectangle in a page's user space: [x0 y0 x1 y1], as a PDF /Rect.
using PdfRect = std::array<double, 4>;

// The resolution of the comparison.
inline constexpr double page_check_dpi = 36;

struct PageFingerprint {
  int width = 0;
  int height = 0;
  std::string sha256;  // of the pixels, row by row (hex)
  friend bool operator==(const PageFingerprint&, const PageFingerprint&) = default;
};

// Page 1 of `bytes` drawn by poppler at `dpi` (less for a page larger than
// max_render_pixels at `dpi`: pdf/poppler_document.hpp), with `blank` (in
// page 1's user space, with a margin of two pixels) painted white before
// hashing. nullopt when poppler cannot open the file (damaged beyond repair,
// a password) or draw the page, or the page is too complex to draw within a
// DrawBudget (issue 32).
[[nodiscard]] std::optional<PageFingerprint> page_one_fingerprint(std::string_view bytes, double dpi,
                                                                  const std::optional<PdfRect>& blank);

}  // namespace pith::pdf
