// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Title binding: metadata.title_canon_sha256 = sha256(UTF-8 of the title
// lower-cased, runs of whitespace collapsed to one space, trimmed);
// punctuation is kept (spec §5; matches both fixture records). For non-ASCII
// titles the registry's Unicode rules are not determined by the data: pith
// applies NFC (utf8proc) + simple lower case, and reports a non-ASCII
// mismatch as "undetermined" (warn), never as a forgery.
#include <string>
#include <string_view>
#include <vector>

namespace pith::registry {

// The canonical title text (the hashed bytes). Invalid UTF-8 is kept as is
// (it cannot match a registry hash anyway).
[[nodiscard]] std::string title_canon(std::string_view title);
[[nodiscard]] std::string title_canon_sha256(std::string_view title);

// For messages: a title quoted, control characters shown as '?', cut after
// 120 bytes.
[[nodiscard]] std::string quoted_title(std::string_view title);

// The metadata-title rule (a PDF's XMP dc:title / Info /Title against the
// record): used by pith-check (check/pdf.hpp) and by pith-stamp before it
// writes.
enum class TitleVerdict { match, mismatch, undetermined };
[[nodiscard]] const char* to_string(TitleVerdict verdict);

struct TitleCandidate {
  std::string where;  // "XMP dc:title", "Info /Title"
  std::string title;
};

struct PdfTitleBinding {
  TitleVerdict verdict = TitleVerdict::undetermined;
  std::string detail;
};

// Compares each candidate with `expected_sha256` (metadata.title_canon_sha256),
// hashing the registry's canonical form of the title: lower case, runs of
// whitespace collapsed to one space, trimmed, punctuation kept (non-ASCII
// text: NFC, then lower case per code point).
// A real ASCII title that does not match → mismatch (even when another
// candidate matches: the PDF shows two titles). Else any match → match.
// Undetermined when there is no title, only placeholders (a file name such
// as "paper.dvi", "Untitled"), only non-ASCII titles that do not match (the
// registry's Unicode normalisation is not known), or no expected hash.
[[nodiscard]] PdfTitleBinding bind_title(const std::vector<TitleCandidate>& candidates, std::string_view expected_sha256);



}  // namespace pith::registry
