#pragma once
// Title binding: metadata.title_canon_sha256 = sha256(UTF-8 of the title
// lower-cased, runs of whitespace collapsed to one space, trimmed);
// punctuation is kept (spec §5; matches both fixture records). For non-ASCII
// titles the registry's Unicode rules are not determined by the data: pith
// applies NFC (utf8proc) + simple lower case, and reports a non-ASCII
// mismatch as "undetermined" (warn), never as a forgery.
#include "pith/report.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace pith {

// The canonical title text (the hashed bytes). Invalid UTF-8 is kept as is
// (it cannot match a registry hash anyway).
[[nodiscard]] std::string title_canon(std::string_view title);
[[nodiscard]] std::string title_canon_sha256(std::string_view title);

enum class TitleMatch { match, mismatch, undetermined, unavailable };

struct TitleBinding {
  TitleMatch result = TitleMatch::unavailable;
  std::string expected;  // the record's title_canon_sha256
  std::string computed;  // title_canon_sha256(title)
  std::string detail;
};

// Compares `title` (e.g. a PDF's title) with `canonical_record`'s
// metadata.title_canon_sha256.
[[nodiscard]] TitleBinding check_title_binding(std::string_view title, const nlohmann::json& canonical_record);

// Adds the finding to `report`: title.match (pass), title.mismatch (fail,
// ASCII title), title.undetermined (warn, non-ASCII title), title.unavailable
// (skip: the record has no title hash).
void add_title_check(Report& report, std::string_view title, const nlohmann::json& canonical_record);

}  // namespace pith
