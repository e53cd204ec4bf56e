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

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pith::check {

// Extracted text in a comparable form: NFKC (ligatures such as ﬁ/ﬃ become
// letters), a dotless ı followed by a combining accent becomes i (Computer
// Modern's ï in OT1 is ı + ¨), soft hyphens and zero-width characters
// dropped, whitespace runs collapsed, trimmed. `compatibility` false: NFC
// only (a title whose canonical form keeps ² or ½ as they are).
[[nodiscard]] std::string normalise_visible_text(std::string_view text, bool compatibility = true);

struct VisibleSpan {
  std::size_t first_line = 0;  // 0-based index into PageText::lines
  std::size_t line_count = 0;
  std::string text;  // the joined, normalised text that hashed to the record's value
};

struct SpanSearch {
  std::size_t max_start_line = 80;  // spans start in the first N lines (the title is near the top)
  std::size_t max_span_lines = 8;   // a title spans a few lines
  // Only spans starting at these lines (empty: every line up to max_start_line).
  std::vector<std::size_t> starts;
};

// The first span of consecutive lines whose joined text has the registry's
// canonical title form hashing to `expected_sha256` (lower-case hex). Lines
// are joined with a space; a line ending in a hyphen is also tried joined
// without the space, keeping the hyphen ("fine-" "tuning") or dropping it
// ("hyphen-" "ation"), uniformly or line by line (bounded). Lines are tried
// in NFKC, in NFC, without trailing footnote marks (∗ † ‡ § ¶ * left by
// \thanks), and with typographic quotes as ASCII (’ → ', as metadata types them).
[[nodiscard]] std::optional<VisibleSpan> find_visible_span(const std::vector<std::string>& lines,
                                                           std::string_view expected_sha256,
                                                           const SpanSearch& search = {});

// The abstract: spans starting at, or right after, a line beginning with
// "Abstract" (the heading word itself stripped), up to 60 lines.
[[nodiscard]] std::optional<VisibleSpan> find_visible_abstract(const std::vector<std::string>& lines,
                                                               std::string_view expected_sha256);

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
