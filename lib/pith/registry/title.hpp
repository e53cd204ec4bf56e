// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Title binding: metadata.title_canon_sha256 = sha256(UTF-8 of the title
// lower-cased, runs of whitespace collapsed to one space, trimmed);
// punctuation is kept (spec §5; matches both fixture records). For non-ASCII
// titles the registry's Unicode rules are not determined by the data: pith
// applies NFC (utf8proc) + simple lower case, and reports a non-ASCII
// mismatch as "undetermined" (warn), never as a forgery.
#include "pith/base/crypto.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace pith::registry {

// The canonical title text (the hashed bytes). Invalid UTF-8 is kept as is
// (it cannot match a registry hash anyway).
[[nodiscard]] std::string title_canon(std::string_view title);
[[nodiscard]] std::string title_canon_sha256(std::string_view title);

// title_canon of ASCII text given in pieces, hashed as it is made: the
// SHA-256 of title_canon(a + b) is that of title_canon(a), extended by b.
// The visible title search (visible_title.cpp) hashes each span of lines
// so, as the span one line shorter plus a space and a line. Only for ASCII:
// the NFC of joined Unicode text need not be the join of its parts' NFC.
class AsciiTitleHash {
 public:
  void append(std::string_view ascii);
  [[nodiscard]] Sha256Digest digest() const { return hash_.digest(); }

 private:
  Sha256Prefix hash_;
  bool wrote_ = false;          // a letter was hashed
  bool pending_space_ = false;  // whitespace since the last letter, after one
};

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
