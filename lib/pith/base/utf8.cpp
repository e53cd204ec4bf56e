// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/base/utf8.hpp"

#include <utf8proc.h>

namespace pith {

Utf8Step next_utf8(std::string_view text) {
  utf8proc_int32_t cp = 0;
  const utf8proc_ssize_t n = utf8proc_iterate(reinterpret_cast<const utf8proc_uint8_t*>(text.data()),
                                              static_cast<utf8proc_ssize_t>(text.size()), &cp);
  if (n <= 0) return {};
  return {cp, static_cast<std::size_t>(n)};
}

bool is_valid_utf8(std::string_view text) {
  while (!text.empty()) {
    const Utf8Step step = next_utf8(text);
    if (step.code_point < 0) return false;
    text.remove_prefix(step.length);
  }
  return true;
}

void append_utf8(std::string& out, char32_t c) {
  if (c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) c = 0xFFFD;
  utf8proc_uint8_t buf[4];
  const utf8proc_ssize_t n = utf8proc_encode_char(static_cast<utf8proc_int32_t>(c), buf);
  out.append(reinterpret_cast<const char*>(buf), static_cast<std::size_t>(n));
}

}  // namespace pith
