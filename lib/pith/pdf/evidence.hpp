// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Evidence a person can look at (issue 22): the crop of page 1 where the
// record's binding was seen, rendered as a viewer shows it, as PNG bytes.
// pith-check --evidence DIR writes it beside the report; pith-serve's page
// shows it beside the verdict.
//
// The region comes from the judged report (check/visible.hpp:
// evidence_region, details.bindings.*.region: the seen title, abstract or
// arXiv watermark). Two halves, both in this process as called: the
// drawing, which runs poppler on the hostile PDF and sends raw pixels on
// crop_wire.hpp, and the PNG made from those pixels (base/png: the same
// render gives the same bytes). The caller runs the drawing in a limited,
// sandboxed child (check/evidence_render.hpp, through runner/: poppler never
// runs in the checking process).
#include "pith/base/error.hpp"
#include "pith/pdf/glyph_visibility.hpp"

#include <string>
#include <string_view>

namespace pith::pdf {

// The child's half: `seen` (points from the top left of page 1 as shown)
// with a margin, of page 1 of `pdf_bytes`, drawn at `dpi`, as the crop's
// wire (crop_wire.hpp: the pixels, or why poppler drew none).
[[nodiscard]] std::string render_evidence_crop(std::string_view pdf_bytes, const Box& seen, double dpi = 150);

// The parent's half: the PNG of the crop the child sent (decoded as hostile:
// crop_wire.hpp), or why there is none.
[[nodiscard]] Result<std::string> evidence_png(std::string_view sent);

}  // namespace pith::pdf
