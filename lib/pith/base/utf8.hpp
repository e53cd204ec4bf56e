// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Walking UTF-8 from hostile sources (PDF strings, page text, network values)
// one code point at a time, with utf8proc's validation: overlong forms,
// surrogates, values above U+10FFFF and cut sequences are invalid. Each caller
// decides what an invalid byte becomes (a visible escape, U+FFFD).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace pith {

struct Utf8Step {
  std::int32_t code_point = -1;  // -1: the bytes at the start are not valid UTF-8
  std::size_t length = 1;        // bytes taken: the sequence, or the one invalid byte
};

// The first code point of `text`, which must not be empty.
[[nodiscard]] Utf8Step next_utf8(std::string_view text);

// Whether all of `text` is valid UTF-8.
[[nodiscard]] bool is_valid_utf8(std::string_view text);

// Whether every byte of `text` is ASCII (below 0x80): text that Unicode
// normalisation leaves as it is, so callers may skip utf8proc for it.
[[nodiscard]] inline bool is_ascii(std::string_view text) {
  for (const char c : text) {
    if (static_cast<unsigned char>(c) >= 0x80) return false;
  }
  return true;
}

// `c` appended as UTF-8; a surrogate or a value above U+10FFFF as U+FFFD.
void append_utf8(std::string& out, char32_t c);

}  // namespace pith
