// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Visible bindings: does page 1, as a reader sees it, show the paper the
// record names? The record hashes its title and abstract
// (metadata.title_canon_sha256, abstract_canon_sha256: registry/title.hpp);
// the text extracted from page 1 (pdf/page_text.hpp) is normalised and every
// span of consecutive lines is hashed the same way. arXiv's watermark
// (`arXiv:ID vN [cat] date` in the left margin, a link to
// https://arxiv.org/abs/ID vN) names the arXiv version the PDF is.
//
// Pure functions of plain values: they run wherever the judging runs.
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

// An arXiv identity seen on page 1.
struct ArxivSighting {
  std::string id;                 // 2106.02679 or hep-th/9901001
  std::optional<int> version;     // when written (v1)
  std::string where;              // "page 1 watermark text 'arXiv:…'", "page 1 link 'https://arxiv.org/abs/…'"
  bool watermark = false;         // the margin text pattern (not a link that could be a citation)
};
// arXiv ids on page 1: watermark text `arXiv:ID[vN] [cat]` and links to
// arxiv.org/abs/ID[vN] (or /pdf/).
[[nodiscard]] std::vector<ArxivSighting> arxiv_sightings(const pdf::PageText& page);

}  // namespace pith::check
