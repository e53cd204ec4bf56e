#pragma once
// Title binding: metadata.title_canon_sha256 = sha256(UTF-8 of the title
// lower-cased, runs of whitespace collapsed to one space, trimmed);
// punctuation is kept (spec §5; matches both fixture records). For non-ASCII
// titles the registry's Unicode rules are not determined by the data: pith
// applies NFC (utf8proc) + simple lower case, and reports a non-ASCII
// mismatch as "undetermined" (warn), never as a forgery.
#include <string>
#include <string_view>

namespace pith::registry {

// The canonical title text (the hashed bytes). Invalid UTF-8 is kept as is
// (it cannot match a registry hash anyway).
[[nodiscard]] std::string title_canon(std::string_view title);
[[nodiscard]] std::string title_canon_sha256(std::string_view title);

}  // namespace pith::registry
