// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Visible bindings: does page 1, as a reader sees it, show the paper the
// record names? The record hashes its title and abstract
// (metadata.title_canon_sha256, abstract_canon_sha256: registry/title.hpp);
// the text a reader sees on page 1 (pdf/page_text.hpp: seen_lines) is
// normalised and every span of consecutive lines is hashed the same way.
// arXiv's watermark (`arXiv:ID vN [cat] date` in the left margin, with a
// link to https://arxiv.org/abs/ID vN) names the arXiv version the PDF is;
// only its text, seen, binds: a link is invisible by nature and may be a
// citation, so it is a hint.
//
// Pure functions of plain values: they run wherever the judging runs (the
// evidence crop excepted: it is rendered in a child, pdf/evidence.hpp).
#include "pith/base/error.hpp"
#include "pith/base/report.hpp"
#include "pith/pdf/glyph_visibility.hpp"
#include "pith/pdf/page_text.hpp"
#include "pith/registry/visible_title.hpp"

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pith::check {

// The span search lives with the title rule (registry/visible_title.hpp).
using registry::find_visible_abstract;
using registry::find_visible_span;
using registry::normalise_visible_text;
using registry::SpanSearch;
using registry::VisibleSpan;

// An arXiv identity on page 1.
struct ArxivSighting {
  std::string id;                 // 2106.02679 or hep-th/9901001
  std::optional<int> version;     // when written (v1)
  std::string where;              // "page 1 text 'arXiv:…'", "page 1 link 'https://arxiv.org/abs/…'"
  bool watermark = false;         // the margin text pattern (not a link that could be a citation)
  std::size_t line = 0;           // watermark: the index of its line
};
// arXiv's watermark text `arXiv:ID[vN] [cat]` in `lines`.
[[nodiscard]] std::vector<ArxivSighting> arxiv_watermarks(const std::vector<std::string>& lines);
// Links to arxiv.org/abs/ID[vN] (or /pdf/) among `uris`.
[[nodiscard]] std::vector<ArxivSighting> arxiv_links(const std::vector<std::string>& uris);

// --- Evidence: where a reader sees the binding (issue 22) --------------------

struct EvidenceRegion {
  std::string binding;  // visible_title, visible_abstract or arxiv_id
  pdf::Box box;         // points from the top left of page 1 as shown
};

// The first binding of the report that matched and says where it was seen
// (visible title, then abstract, then arXiv watermark); nullopt otherwise.
[[nodiscard]] std::optional<EvidenceRegion> evidence_region(const Report& report);

// pith-serve: the PNG of the report's evidence region (pdf/evidence.hpp)
// put into the report itself (details.evidence: binding, box, png_base64),
// for the page to show beside the verdict. Nothing when no binding says
// where it was seen; a render that fails leaves the report as it was.
void embed_evidence(Report& report, std::string_view pdf_bytes);

// For people: "the visible title" etc.
[[nodiscard]] std::string describe_binding(std::string_view binding);

}  // namespace pith::check
