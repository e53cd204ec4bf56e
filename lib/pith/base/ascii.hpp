// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// ASCII case, the same in every locale. What pith compares without case is
// ASCII by definition: URL schemes and hosts, HTTP and MIME header names,
// hex digests, the "pith:" and "arXiv:" prefixes, fixed English words on a
// page. std::tolower answers by the C locale instead, and a library that
// calls setlocale would change what those comparisons accept; and folding
// by hand was written out in a dozen places. Bytes outside A-Z (UTF-8
// included) are left as they are.
#include <algorithm>
#include <string>
#include <string_view>

namespace pith {

[[nodiscard]] constexpr char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

[[nodiscard]] constexpr char ascii_upper(char c) { return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c; }

[[nodiscard]] inline std::string ascii_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = ascii_lower(c);
  return out;
}

// `a` and `b` are the same once ASCII letters are folded.
[[nodiscard]] constexpr bool equals_ascii_case_blind(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) { return ascii_lower(x) == ascii_lower(y); });
}

// `s` begins with `lower_prefix` (given in lower case), ASCII letters of `s` in any case.
[[nodiscard]] constexpr bool starts_with_ascii_case_blind(std::string_view s, std::string_view lower_prefix) {
  return s.size() >= lower_prefix.size() && std::equal(lower_prefix.begin(), lower_prefix.end(), s.begin(),
                                                       [](char p, char c) { return ascii_lower(c) == p; });
}

// `text` holds `lower` (given in lower case), ASCII letters of `text` in any case.
[[nodiscard]] inline bool contains_ascii_case_blind(std::string_view text, std::string_view lower) {
  return std::search(text.begin(), text.end(), lower.begin(), lower.end(),
                     [](char c, char p) { return ascii_lower(c) == p; }) != text.end();
}

}  // namespace pith
