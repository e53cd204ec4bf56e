// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/registry/visible_title.hpp"

#include "pith/base/ascii.hpp"
#include "pith/base/crypto.hpp"
#include "pith/base/utf8.hpp"
#include "pith/registry/title.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <functional>
#include <utf8proc.h>

namespace pith::registry {

namespace {

std::vector<utf8proc_int32_t> code_points(std::string_view text) {
  std::vector<utf8proc_int32_t> out;
  while (!text.empty()) {
    const Utf8Step step = next_utf8(text);
    out.push_back(step.code_point < 0 ? 0xFFFD : step.code_point);
    text.remove_prefix(step.length);
  }
  return out;
}


bool is_combining(utf8proc_int32_t cp) { return utf8proc_category(cp) == UTF8PROC_CATEGORY_MN; }
bool is_invisible(utf8proc_int32_t cp) {
  return cp == 0x00AD || (cp >= 0x200B && cp <= 0x200D) || cp == 0x2060 || cp == 0xFEFF;
}
bool is_space(utf8proc_int32_t cp) {
  if (cp == ' ' || (cp >= 0x09 && cp <= 0x0d)) return true;
  if (cp < 0x80) return false;
  const auto cat = utf8proc_category(cp);
  return cat == UTF8PROC_CATEGORY_ZS || cat == UTF8PROC_CATEGORY_ZL || cat == UTF8PROC_CATEGORY_ZP;
}

// Before composition: ı + combining accent → i + accent (so NFC makes ï),
// invisible characters dropped, every space a plain one.
std::string prepare(std::string_view text) {
  const auto cps = code_points(text);
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < cps.size(); ++i) {
    utf8proc_int32_t cp = cps[i];
    if (is_invisible(cp)) continue;
    if (cp == 0x0131 && i + 1 < cps.size() && is_combining(cps[i + 1])) cp = 'i';
    if (is_space(cp)) cp = ' ';
    append_utf8(out, static_cast<char32_t>(cp));
  }
  return out;
}

std::string compose(const std::string& text, bool compatibility) {
  auto options = static_cast<int>(UTF8PROC_STABLE | UTF8PROC_COMPOSE);
  if (compatibility) options |= UTF8PROC_COMPAT;
  utf8proc_uint8_t* mapped = nullptr;
  const utf8proc_ssize_t len = utf8proc_map(reinterpret_cast<const utf8proc_uint8_t*>(text.data()),
                                            static_cast<utf8proc_ssize_t>(text.size()), &mapped,
                                            static_cast<utf8proc_option_t>(options));
  if (len < 0) return text;
  std::string out(reinterpret_cast<const char*>(mapped), static_cast<std::size_t>(len));
  std::free(mapped);
  return out;
}

std::string collapse_spaces(std::string_view text) {
  std::string out;
  bool pending = false;
  for (const char c : text) {
    if (c == ' ') {
      pending = !out.empty();
      continue;
    }
    if (pending) out += ' ';
    pending = false;
    out += c;
  }
  return out;
}

// The record's title hash as bytes, compared with each span's digest; a
// value that is not 64 hex digits matches no span.
using ExpectedDigest = std::optional<Sha256Digest>;

ExpectedDigest expected_digest(std::string_view lower_hex_sha256) {
  auto bytes = from_hex_fixed<32>(lower_hex_sha256);
  if (!bytes) return std::nullopt;
  return *bytes;
}

bool hash_matches(const std::string& text, const Sha256Digest& expected) {
  return sha256(title_canon(text)) == expected;
}

// How a line ending in a hyphen joins the next one.
enum class Join { space, keep_hyphen, drop_hyphen };

std::string join(const std::vector<std::string>& lines, std::size_t first, std::size_t count,
                 const std::vector<Join>& joins) {
  std::string out = lines[first];
  for (std::size_t k = 1; k < count; ++k) {
    switch (joins[k - 1]) {
      case Join::space: out += ' '; break;
      case Join::keep_hyphen: break;
      case Join::drop_hyphen: out.pop_back(); break;
    }
    out += lines[first + k];
  }
  return out;
}

// Tries the other ways of joining lines[first, first+count) (the caller
// tried spaces at every joint) and returns the text that hashes to
// `expected`. Joints after a hyphen get all three ways when there are few
// of them (3^k), else one way for all.
std::optional<std::string> matching_hyphen_join(const std::vector<std::string>& lines, std::size_t first,
                                                std::size_t count, const Sha256Digest& expected) {
  std::vector<std::size_t> hyphen_joints;
  for (std::size_t k = 0; k + 1 < count; ++k) {
    const std::string& line = lines[first + k];
    if (!line.empty() && line.back() == '-' && line.size() > 1) hyphen_joints.push_back(k);
  }
  if (hyphen_joints.empty()) return std::nullopt;
  std::vector<Join> joins(count - 1, Join::space);
  constexpr std::size_t max_enumerated_joints = 4;
  if (hyphen_joints.size() <= max_enumerated_joints) {
    std::size_t combinations = 1;
    for (std::size_t j = 0; j < hyphen_joints.size(); ++j) combinations *= 3;
    for (std::size_t c = 1; c < combinations; ++c) {
      std::size_t digits = c;
      for (const std::size_t joint : hyphen_joints) {
        joins[joint] = static_cast<Join>(digits % 3);
        digits /= 3;
      }
      if (auto text = join(lines, first, count, joins); hash_matches(text, expected)) return text;
    }
    return std::nullopt;
  }
  for (const Join way : {Join::keep_hyphen, Join::drop_hyphen}) {
    for (const std::size_t joint : hyphen_joints) joins[joint] = way;
    if (auto text = join(lines, first, count, joins); hash_matches(text, expected)) return text;
  }
  return std::nullopt;
}

// The spans from one start line, each one line longer than the last,
// joined with spaces: while every line is ASCII, each span's hash extends
// the last one's (AsciiTitleHash) instead of hashing the joined text anew
// (a page whose title is not found hashes 80 x 8 spans in up to eight forms).
class SpacedSpans {
 public:
  SpacedSpans(const std::vector<std::string>& lines, std::size_t first) : lines_(lines), first_(first) {}

  // Whether the span one line longer than the last hashes to `expected`.
  bool next_matches(const Sha256Digest& expected) {
    const std::string& line = lines_[first_ + count_];
    ascii_ = ascii_ && is_ascii(line);
    if (ascii_) {
      if (count_ > 0) hash_.append(" ");
      hash_.append(line);
    }
    ++count_;
    return ascii_ ? hash_.digest() == expected : hash_matches(text(), expected);
  }
  [[nodiscard]] std::string text() const {
    return join(lines_, first_, count_, std::vector<Join>(count_ - 1, Join::space));
  }

 private:
  const std::vector<std::string>& lines_;
  std::size_t first_;
  std::size_t count_ = 0;
  bool ascii_ = true;
  AsciiTitleHash hash_;
};

std::optional<VisibleSpan> search_normalised(const std::vector<std::string>& lines, const Sha256Digest& expected,
                                             const SpanSearch& search) {
  std::vector<std::size_t> starts = search.starts;
  if (starts.empty()) {
    for (std::size_t i = 0; i < std::min(lines.size(), search.max_start_line); ++i) starts.push_back(i);
  }
  for (const std::size_t first : starts) {
    if (first >= lines.size()) continue;
    const std::size_t longest = std::min(search.max_span_lines, lines.size() - first);
    SpacedSpans spaced(lines, first);
    for (std::size_t count = 1; count <= longest; ++count) {
      if (spaced.next_matches(expected)) return VisibleSpan{first, count, spaced.text()};
      if (auto text = matching_hyphen_join(lines, first, count, expected)) return VisibleSpan{first, count, std::move(*text)};
    }
  }
  return std::nullopt;
}

std::vector<std::string> normalised_lines(const std::vector<std::string>& lines, bool compatibility) {
  std::vector<std::string> out;
  out.reserve(lines.size());
  for (const auto& line : lines) out.push_back(normalise_visible_text(line, compatibility));
  return out;
}

// Footnote marks a \thanks leaves in a title: at the end of its last line
// ("… package∗"), or after the word it follows, mid-title (mnras's
// "… a NIHAO-UHD★ Milky Way analogue"), sometimes set apart by a space.
// Each word loses the marks it ends with; a word of marks alone goes. A title
// that really has one ("A* search") is found first in the forms that keep it.
constexpr std::string_view footnote_marks[] = {"\u2217", "*", "\u2020", "\u2021", "\u00A7",
                                               "\u00B6", "\u22C6", "\u2605", "\u2606"};

std::string_view without_trailing_marks(std::string_view word) {
  for (bool stripped = true; stripped && !word.empty();) {
    stripped = false;
    for (const std::string_view mark : footnote_marks) {
      if (word.ends_with(mark)) {
        word.remove_suffix(mark.size());
        stripped = true;
      }
    }
  }
  return word;
}

std::string without_footnote_marks(std::string_view line) {
  std::string out;
  for (std::size_t at = 0; at < line.size();) {
    const std::size_t end = std::min(line.find(' ', at), line.size());
    const std::string_view word = without_trailing_marks(line.substr(at, end - at));
    if (!word.empty()) {
      if (!out.empty()) out += ' ';
      out += word;
    }
    at = end + 1;
  }
  return out;
}

// Typographic quotes as typed in metadata: ‘ ’ → ', “ ” → ".
std::string ascii_quotes(std::string line) {
  for (const auto& [from, to] : {std::pair<std::string_view, std::string_view>{"\u2018", "'"}, {"\u2019", "'"},
                                 {"\u201C", "\""}, {"\u201D", "\""}}) {
    for (auto at = line.find(from); at != std::string::npos; at = line.find(from, at + to.size())) {
      line.replace(at, from.size(), to);
    }
  }
  return line;
}

// The forms lines are searched in, in order: NFKC; NFC (a title keeping ²);
// NFKC without footnote marks; that with ASCII quotes too.
enum class LineForm { compatibility, canonical, unmarked, unmarked_ascii };

// `compatible`: normalised_lines(raw, true), made once for the three forms
// that start from it.
std::vector<std::string> lines_in_form(const std::vector<std::string>& raw, const std::vector<std::string>& compatible,
                                       LineForm form) {
  if (form == LineForm::canonical) return normalised_lines(raw, false);
  auto lines = compatible;
  if (form == LineForm::unmarked || form == LineForm::unmarked_ascii) {
    for (auto& line : lines) line = without_footnote_marks(line);
  }
  if (form == LineForm::unmarked_ascii) {
    for (auto& line : lines) line = ascii_quotes(std::move(line));
  }
  return lines;
}

std::optional<VisibleSpan> search_both_forms(const std::vector<std::string>& raw, std::string_view expected_sha256,
                                             const SpanSearch& search,
                                             const std::function<std::vector<std::string>(std::vector<std::string>)>& prepare_lines) {
  const ExpectedDigest expected = expected_digest(ascii_lower(expected_sha256));
  if (!expected) return std::nullopt;  // no hash, or not one: no span can match
  // Plain ASCII text has the same lines in every form: each distinct set of
  // lines is searched once (the search hashes every span: most of the
  // checking process's work on a paper whose title is not on page 1).
  std::vector<std::vector<std::string>> searched;
  const std::vector<std::string> compatible = normalised_lines(raw, true);
  for (const LineForm form : {LineForm::compatibility, LineForm::canonical, LineForm::unmarked, LineForm::unmarked_ascii}) {
    auto lines = prepare_lines(lines_in_form(raw, compatible, form));
    if (std::find(searched.begin(), searched.end(), lines) != searched.end()) continue;
    if (auto span = search_normalised(lines, *expected, search)) return span;
    searched.push_back(std::move(lines));
  }
  return std::nullopt;
}

}  // namespace

std::string normalise_visible_text(std::string_view text, bool compatibility) {
  // ASCII (most lines of most pages): prepare() only makes each whitespace
  // control a space, and NFC and NFKC leave ASCII as it is.
  if (is_ascii(text)) {
    std::string plain(text);
    std::replace_if(plain.begin(), plain.end(), [](char c) { return c >= 0x09 && c <= 0x0d; }, ' ');
    return collapse_spaces(plain);
  }
  return collapse_spaces(compose(prepare(text), compatibility));
}

std::optional<VisibleSpan> find_visible_span(const std::vector<std::string>& lines, std::string_view expected_sha256,
                                             const SpanSearch& search) {
  return search_both_forms(lines, expected_sha256, search, [](std::vector<std::string> l) { return l; });
}

namespace {

// "Abstract", "ABSTRACT.", "Abstract—We …": the heading word and what
// separates it from the text; nullopt when the line does not start with it.
std::optional<std::size_t> abstract_heading_length(std::string_view line) {
  constexpr std::string_view word = "abstract";
  std::size_t i = 0;
  while (i < line.size() && line[i] == ' ') ++i;
  if (line.size() - i < word.size()) return std::nullopt;
  for (std::size_t k = 0; k < word.size(); ++k) {
    const char c = line[i + k];
    if (ascii_lower(c) != word[k]) return std::nullopt;
  }
  i += word.size();
  const auto rest = line.substr(i);
  if (!rest.empty() && std::isalpha(static_cast<unsigned char>(rest.front()))) return std::nullopt;  // "Abstraction"
  for (const std::string_view separator : {"\u2014", "\u2013", ".", ":", "-"}) {
    if (line.substr(i).starts_with(separator)) {
      i += separator.size();
      break;
    }
  }
  while (i < line.size() && line[i] == ' ') ++i;
  return i;
}

}  // namespace

std::optional<VisibleSpan> find_visible_abstract(const std::vector<std::string>& lines, std::string_view expected_sha256) {
  SpanSearch search;
  search.max_span_lines = 60;
  std::vector<std::size_t> heading_lines;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (abstract_heading_length(normalise_visible_text(lines[i]))) {
      heading_lines.push_back(i);
      search.starts.push_back(i);
      search.starts.push_back(i + 1);
    }
  }
  if (heading_lines.empty()) return std::nullopt;
  // The heading word is stripped from its line ("Abstract. We study …").
  const auto strip_headings = [heading_lines](std::vector<std::string> l) {
    for (const std::size_t i : heading_lines) {
      if (const auto n = abstract_heading_length(l[i])) l[i].erase(0, *n);
    }
    return l;
  };
  return search_both_forms(lines, expected_sha256, search, strip_headings);
}

}  // namespace pith::registry
