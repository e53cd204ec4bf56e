// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Evidence a person can look at (issue 22): the crop of page 1 where the
// record's binding was seen, rendered as a viewer shows it, as PNG bytes.
// pith-check --evidence DIR writes it beside the report; pith-serve's page
// shows it beside the verdict.
//
// The region comes from the judged report (details.bindings.*.region: the
// seen title, abstract or arXiv watermark); page 1 is rendered in a
// limited, sandboxed child (poppler never runs in the checking process),
// which sends raw pixels; the PNG is made here (base/png: the same render
// gives the same bytes).
#include "pith/base/error.hpp"
#include "pith/base/report.hpp"
#include "pith/pdf/glyph_visibility.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace pith::check {

struct EvidenceRegion {
  std::string binding;  // visible_title, visible_abstract or arxiv_id
  pdf::Box box;         // points from the top left of page 1 as shown
};

// The first binding of the report that matched and says where it was seen
// (visible title, then abstract, then arXiv watermark); nullopt otherwise.
[[nodiscard]] std::optional<EvidenceRegion> evidence_region(const Report& report);

// The PNG of `region` (with a margin) of page 1 of `pdf_bytes`, rendered at
// `dpi` in a sandboxed child.
[[nodiscard]] Result<std::string> render_evidence_png(std::string_view pdf_bytes, const EvidenceRegion& region,
                                                      double dpi = 150);

// pith-serve: the PNG of the report's evidence region put into the report
// itself (details.evidence: binding, box, png_base64), for the page to show
// beside the verdict. Nothing when no binding says where it was seen; a
// render that fails leaves the report as it was.
void embed_evidence(Report& report, std::string_view pdf_bytes);

// For people: "the visible title" etc.
[[nodiscard]] std::string describe_binding(std::string_view binding);

}  // namespace pith::check
