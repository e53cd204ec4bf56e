// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/check/drawn_title.hpp"

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <utf8proc.h>

namespace pith::check {
namespace {

struct FreeDeleter {
  void operator()(utf8proc_uint8_t* p) const { std::free(p); }
};

// NFKD with marks stripped and case folded; invalid UTF-8 folds to nothing.
std::string folded(std::string_view text) {
  utf8proc_uint8_t* out = nullptr;
  const auto options = static_cast<utf8proc_option_t>(UTF8PROC_COMPAT | UTF8PROC_DECOMPOSE | UTF8PROC_STRIPMARK |
                                                      UTF8PROC_CASEFOLD);
  const utf8proc_ssize_t n = utf8proc_map(reinterpret_cast<const utf8proc_uint8_t*>(text.data()),
                                          static_cast<utf8proc_ssize_t>(text.size()), &out, options);
  const std::unique_ptr<utf8proc_uint8_t, FreeDeleter> owned(out);
  if (n < 0) return {};
  return {reinterpret_cast<const char*>(out), static_cast<std::size_t>(n)};
}

bool comparable(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

// Letters and digits of any script in `text`, after folding.
std::size_t letters_of_any_script(const std::string& text) {
  std::size_t count = 0;
  utf8proc_ssize_t at = 0;
  const auto* bytes = reinterpret_cast<const utf8proc_uint8_t*>(text.data());
  const auto size = static_cast<utf8proc_ssize_t>(text.size());
  while (at < size) {
    utf8proc_int32_t cp = 0;
    const utf8proc_ssize_t step = utf8proc_iterate(bytes + at, size - at, &cp);
    if (step <= 0) break;
    at += step;
    const utf8proc_category_t cat = utf8proc_category(cp);
    if ((cat >= UTF8PROC_CATEGORY_LU && cat <= UTF8PROC_CATEGORY_LO) || cat == UTF8PROC_CATEGORY_ND) ++count;
  }
  return count;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

std::string comparable_letters(std::string_view text) {
  std::string out = folded(text);
  std::erase_if(out, [](char c) { return !comparable(c); });
  return out;
}

DrawnComparison compare_drawn_title(std::string_view claimed, const std::vector<std::string>& read) {
  DrawnComparison c;
  const std::string claim = comparable_letters(claimed);
  std::string seen;
  for (const auto& line : read) seen += comparable_letters(line);
  c.compared = claim.size();
  const std::size_t any_script = letters_of_any_script(folded(claimed));
  c.applicable = claim.size() >= min_compared_letters &&
                 static_cast<double>(claim.size()) >= min_latin_share * static_cast<double>(any_script);
  c.distance = edit_distance(claim, seen);
  return c;
}

std::vector<bool> confirmed_glyphs(const std::vector<std::string>& claims, std::string_view read) {
  std::vector<bool> confirmed(claims.size(), false);
  std::string claim;
  for (const auto& c : claims) claim += c;
  const std::size_t n = claim.size(), m = read.size();
  if (n > max_aligned_letters || m > max_aligned_letters) return confirmed;
  // The edit distances of every prefix pair, then one closest alignment
  // walked back from the end, a match taken wherever it keeps the distance.
  std::vector<std::size_t> d((n + 1) * (m + 1));
  const auto at = [&](std::size_t i, std::size_t j) -> std::size_t& { return d[i * (m + 1) + j]; };
  for (std::size_t i = 0; i <= n; ++i) at(i, 0) = i;
  for (std::size_t j = 0; j <= m; ++j) at(0, j) = j;
  for (std::size_t i = 1; i <= n; ++i) {
    for (std::size_t j = 1; j <= m; ++j)
      at(i, j) = std::min({at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + (claim[i - 1] == read[j - 1] ? 0 : 1)});
  }
  std::vector<bool> matched(n, false), read_in_before(n + 1, false);  // read_in_before[i]: OCR read a letter before claimed letter i
  for (std::size_t i = n, j = m; i > 0 || j > 0;) {
    if (i > 0 && j > 0 && claim[i - 1] == read[j - 1] && at(i, j) == at(i - 1, j - 1)) {
      matched[--i] = true;
      --j;
    } else if (i > 0 && j > 0 && at(i, j) == at(i - 1, j - 1) + 1) {
      --i;
      --j;
    } else if (i > 0 && at(i, j) == at(i - 1, j) + 1) {
      --i;
    } else {
      read_in_before[i] = true;
      --j;
    }
  }
  std::size_t start = 0;
  for (std::size_t g = 0; g < claims.size(); ++g) {
    const std::size_t end = start + claims[g].size();
    bool ok = true;
    for (std::size_t k = start; k < end; ++k) ok = ok && matched[k];
    for (std::size_t k = start; k <= end; ++k) ok = ok && !read_in_before[k];
    confirmed[g] = ok;
    start = end;
  }
  return confirmed;
}

}  // namespace pith::check
