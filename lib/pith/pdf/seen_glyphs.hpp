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

// Sets every glyph's `hidden` bits in `layer` (page size in points, as
// shown) and counts the renders in `measure`.
void decide_visibility(PDFDoc& doc, TextLayer& layer, double page_width, double page_height,
                       const PageTextLimits& limits, SeenMeasure& measure);

}  // namespace pith::pdf
