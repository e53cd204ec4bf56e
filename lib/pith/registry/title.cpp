// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/registry/title.hpp"
#include "pith/base/ascii.hpp"
#include "pith/base/utf8.hpp"

#include "pith/base/crypto.hpp"

#include <algorithm>
#include <cstdlib>
#include <utf8proc.h>

namespace pith::registry {

namespace {

// Python's str.split() whitespace: the ASCII set plus Unicode spaces.
bool is_whitespace(utf8proc_int32_t cp) {
  if (cp == ' ' || (cp >= 0x09 && cp <= 0x0d) || (cp >= 0x1c && cp <= 0x1f) || cp == 0x85) return true;
  if (cp < 0x80) return false;
  const utf8proc_category_t cat = utf8proc_category(cp);
  return cat == UTF8PROC_CATEGORY_ZS || cat == UTF8PROC_CATEGORY_ZL || cat == UTF8PROC_CATEGORY_ZP;
}


// title_canon's rule for ASCII, one character at a time: letters lowered,
// a run of whitespace one space between letters, none at either end.
// `emit` receives what the canonical text gains; `wrote`/`pending_space`
// carry the rule's state from one piece of text to the next.
template <class Emit>
void collapse_lower_ascii_into(std::string_view s, bool& wrote, bool& pending_space, Emit&& emit) {
  for (char c : s) {
    const bool space = c == ' ' || (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x1f);
    if (space) {
      pending_space = wrote;
      continue;
    }
    if (pending_space) emit(' ');
    pending_space = false;
    emit(ascii_lower(c));
    wrote = true;
  }
}

std::string collapse_lower_ascii(std::string_view s) {
  std::string out;
  bool wrote = false;
  bool pending_space = false;
  collapse_lower_ascii_into(s, wrote, pending_space, [&out](char c) { out += c; });
  return out;
}

}  // namespace

std::string title_canon(std::string_view title) {
  if (is_ascii(title)) return collapse_lower_ascii(title);
  utf8proc_uint8_t* nfc = nullptr;
  const utf8proc_ssize_t len = utf8proc_map(reinterpret_cast<const utf8proc_uint8_t*>(title.data()),
                                            static_cast<utf8proc_ssize_t>(title.size()), &nfc,
                                            static_cast<utf8proc_option_t>(UTF8PROC_STABLE | UTF8PROC_COMPOSE));
  if (len < 0) return collapse_lower_ascii(title);  // invalid UTF-8: cannot match anyway
  std::string out;
  bool pending_space = false;
  utf8proc_ssize_t pos = 0;
  while (pos < len) {
    utf8proc_int32_t cp = 0;
    const utf8proc_ssize_t n = utf8proc_iterate(nfc + pos, len - pos, &cp);
    if (n <= 0) break;
    pos += n;
    if (is_whitespace(cp)) {
      pending_space = !out.empty();
      continue;
    }
    if (pending_space) out += ' ';
    pending_space = false;
    append_utf8(out, static_cast<char32_t>(utf8proc_tolower(cp)));
  }
  std::free(nfc);
  return out;
}

std::string title_canon_sha256(std::string_view title) { return sha256_hex(title_canon(title)); }

void AsciiTitleHash::append(std::string_view ascii) {
  std::string canonical;
  canonical.reserve(ascii.size() + 1);
  collapse_lower_ascii_into(ascii, wrote_, pending_space_, [&canonical](char c) { canonical += c; });
  hash_.append(canonical);
}

namespace {


// Titles that name no paper: empty, a file name (dvips/ps2pdf use the .dvi
// name when there is no title), or a placeholder.
bool is_placeholder_title(std::string_view title) {
  const std::string canon = title_canon(title);
  if (canon.empty() || canon == "untitled" || canon == "title") return true;
  for (const char* ext : {".dvi", ".tex", ".pdf", ".ps", ".doc", ".docx", ".odt"}) {
    if (canon.ends_with(ext) && canon.find(' ') == std::string::npos) return true;
  }
  return false;
}

bool title_canon_sha256_matches(std::string_view title, std::string_view expected_sha256) {
  return title_canon_sha256(title) == ascii_lower(expected_sha256);
}

// For messages: a title quoted, control characters escaped, cut when long.
}  // namespace

std::string quoted_title(std::string_view title) {
  std::string out = "\"";
  std::size_t shown = 0;
  for (const char c : title) {
    if (++shown > 120) {
      out += "…";
      break;
    }
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7F) {
      out += '?';
    } else {
      out += c;
    }
  }
  return out + "\"";
}


const char* to_string(TitleVerdict verdict) {
  switch (verdict) {
    case TitleVerdict::match: return "match";
    case TitleVerdict::mismatch: return "mismatch";
    case TitleVerdict::undetermined: return "undetermined";
  }
  return "undetermined";
}

PdfTitleBinding bind_title(const std::vector<TitleCandidate>& candidates, std::string_view expected_sha256) {
  if (expected_sha256.empty()) return {TitleVerdict::undetermined, "the record has no title_canon_sha256"};
  std::vector<const TitleCandidate*> real;
  for (const auto& c : candidates) {
    if (!is_placeholder_title(c.title)) real.push_back(&c);
  }
  if (real.empty()) {
    const auto named = std::find_if(candidates.begin(), candidates.end(),
                                    [](const TitleCandidate& c) { return !title_canon(c.title).empty(); });
    if (named == candidates.end()) return {TitleVerdict::undetermined, "the PDF has no title"};
    return {TitleVerdict::undetermined,
            "the PDF's title is a placeholder: " + named->where + " " + quoted_title(named->title)};
  }
  // Every real ASCII title must match: a PDF whose Info title is another
  // paper's next to a matching XMP title has been edited (and readers show
  // either one).
  for (const auto* c : real) {
    if (is_ascii(c->title) && !title_canon_sha256_matches(c->title, expected_sha256)) {
      return {TitleVerdict::mismatch, c->where + " " + quoted_title(c->title) +
                                          " is not the record's title (its canonical SHA-256 differs)"};
    }
  }
  for (const auto* c : real) {
    if (title_canon_sha256_matches(c->title, expected_sha256)) {
      return {TitleVerdict::match, c->where + " " + quoted_title(c->title) + " is the record's title"};
    }
  }
  return {TitleVerdict::undetermined, real.front()->where + " " + quoted_title(real.front()->title) +
                                          " does not match, but non-ASCII titles cannot be compared reliably"};
}



}  // namespace pith::registry
