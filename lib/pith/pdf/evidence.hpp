// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Evidence a person can look at (issue 22): the crop of page 1 where the
// record's binding was seen, rendered as a viewer shows it, as PNG bytes.
// pith-check --evidence DIR writes it beside the report; pith-serve's page
// shows it beside the verdict.
//
// The region comes from the judged report (check/visible.hpp:
// evidence_region, details.bindings.*.region: the seen title, abstract or
// arXiv watermark); page 1 is rendered in a limited, sandboxed child
// (poppler never runs in the checking process), which sends raw pixels; the
// PNG is made here (base/png: the same render gives the same bytes).
#include "pith/base/error.hpp"
#include "pith/pdf/glyph_visibility.hpp"

#include <string>
#include <string_view>

namespace pith::pdf {

// The PNG of `seen` (points from the top left of page 1 as shown, with a
// margin) of page 1 of `pdf_bytes`, rendered at `dpi` in a sandboxed child.
[[nodiscard]] Result<std::string> render_evidence_png(std::string_view pdf_bytes, const Box& seen, double dpi = 150);

}  // namespace pith::pdf
