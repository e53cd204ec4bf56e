// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What a reader sees on page 1: its text lines in reading order and the URIs
// of its link annotations. A plain value (strings only) with a JSON form, so
// the isolated child that parses the PDF can hand it to a parent that judges
// it (check/visible.hpp).
//
// Text comes from poppler-cpp (Debian's libpoppler-cpp): its TextOutputDev
// applies ToUnicode maps, glyph-name fallbacks and the reading-order line
// builder. PoDoFo 0.9.8 has a content tokenizer and font encodings but no
// text extraction: lines in reading order would be hand-rolled from text
// matrices (docs/pdf-checking.md, "Bindings").
// poppler reads the current document (the newest revision): the text is
// what a viewer shows now.
#include "pith/base/error.hpp"

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pith::pdf {

struct PageText {
  std::vector<std::string> lines;      // page 1's text, one entry per line, reading order, valid UTF-8
  std::vector<std::string> link_uris;  // /URI of page 1's link annotations
  std::optional<std::string> problem;  // why no text could be read (the PDF opened, page 1 did not)

  [[nodiscard]] nlohmann::json to_json() const;  // {"lines", "link_uris", "problem"?}
  [[nodiscard]] static Result<PageText> from_json(const nlohmann::json& json);
  friend bool operator==(const PageText&, const PageText&) = default;
};

struct PageTextLimits {
  std::size_t max_lines = 400;          // page 1 of a paper has ~60; the rest is never searched
  std::size_t max_line_bytes = 4096;    // longer lines are cut (at a UTF-8 boundary)
};

// Page 1's text lines of the PDF in `bytes` (a complete file), with
// `link_uris` copied in (the lazy reader already read them:
// PdfMetadata::link_uris). A PDF poppler cannot open, or without pages, gives
// a PageText with `problem` set; never throws.
[[nodiscard]] PageText read_page_text(std::string_view bytes, std::vector<std::string> link_uris,
                                      const PageTextLimits& limits = {});

}  // namespace pith::pdf
