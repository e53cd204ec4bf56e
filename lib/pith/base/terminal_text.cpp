// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/base/terminal_text.hpp"

#include "pith/base/utf8.hpp"

#include <cstdint>
#include <cstdio>

namespace pith {
namespace {

void append_byte_escape(std::string& out, unsigned char byte) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\x%02X", byte);
  out += buf;
}

void append_code_point_escape(std::string& out, std::uint32_t cp) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "\\u{%04X}", static_cast<unsigned>(cp));
  out += buf;
}

}  // namespace

bool is_c1_or_bidi(std::uint32_t cp) {
  return (cp >= 0x80 && cp <= 0x9F) || cp == 0x061C || cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) ||
         (cp >= 0x2066 && cp <= 0x2069);
}

std::string terminal_safe(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  while (!text.empty()) {
    const Utf8Step step = next_utf8(text);
    const auto cp = static_cast<std::uint32_t>(step.code_point);
    if (step.code_point < 0) {
      append_byte_escape(out, static_cast<unsigned char>(text.front()));
    } else if (cp < 0x20 || cp == 0x7F) {
      append_byte_escape(out, static_cast<unsigned char>(cp));
    } else if (is_c1_or_bidi(cp)) {
      append_code_point_escape(out, cp);
    } else {
      out.append(text.substr(0, step.length));
    }
    text.remove_prefix(step.length);
  }
  return out;
}

}  // namespace pith
