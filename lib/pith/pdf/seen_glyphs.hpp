// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Which glyphs of page 1's text layer a reader sees, decided by rendering
// page 1 with poppler's SplashOutputDev: the page as a viewer shows it, the
// page without text (only when something else is drawn near a glyph), and
// one ink render per colour of overlapping lines, judged by the pure rules
// of pdf/glyph_visibility.hpp. Internal to pdf/page_text; runs in the child.
#include "pith/pdf/page_text.hpp"
#include "pith/pdf/text_layer.hpp"

class PDFDoc;

namespace pith::pdf {
class DrawBudget;
}

namespace pith::pdf {

// Sets every glyph's `hidden` bits in `layer` (page size in points, as
// shown) and counts the renders in `measure`. The renders are at
// limits.render_dpi, or less for a page larger than max_render_pixels
// (pdf/poppler_document.hpp). false: `budget` stopped a render (why:
// budget.stopped()), and the bits mean nothing.
[[nodiscard]] bool decide_visibility(PDFDoc& doc, TextLayer& layer, double page_width, double page_height,
                                     const PageTextLimits& limits, DrawBudget& budget, SeenMeasure& measure);

}  // namespace pith::pdf
