// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Finding a title (or abstract) the registry hashed among lines of text a
// reader sees (page 1 of a PDF): the text is normalised, spans of
// consecutive lines are joined and hashed with the title rule (title.hpp)
// against metadata.title_canon_sha256 / abstract_canon_sha256.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pith::registry {

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
// in NFKC, in NFC, without the footnote marks \thanks leaves after a word
// (∗ † ‡ § ¶ ⋆ ★ *, at a line's end or mid-title), and with typographic
// quotes as ASCII (’ → ', as metadata types them).
[[nodiscard]] std::optional<VisibleSpan> find_visible_span(const std::vector<std::string>& lines,
                                                           std::string_view expected_sha256,
                                                           const SpanSearch& search = {});

// The abstract: spans starting at, or right after, a line beginning with
// "Abstract" (the heading word itself stripped), up to 60 lines.
[[nodiscard]] std::optional<VisibleSpan> find_visible_abstract(const std::vector<std::string>& lines,
                                                               std::string_view expected_sha256);

}  // namespace pith::registry
