#include "pith/base/terminal_text.hpp"

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

bool is_c1_or_bidi(std::uint32_t cp) {
  return (cp >= 0x80 && cp <= 0x9F) || cp == 0x061C || cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) ||
         (cp >= 0x2066 && cp <= 0x2069);
}

// The length of the valid UTF-8 sequence at `s` and its code point, or 0
// when the bytes there are not one (overlong forms and surrogates included).
std::size_t decode_utf8(std::string_view s, std::uint32_t& cp) {
  const auto b = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
  const auto cont = [&](std::size_t i) { return i < s.size() && (b(i) & 0xC0) == 0x80; };
  const unsigned char lead = b(0);
  if (lead < 0x80) {
    cp = lead;
    return 1;
  }
  if (lead >= 0xC2 && lead <= 0xDF && cont(1)) {
    cp = ((lead & 0x1Fu) << 6) | (b(1) & 0x3Fu);
    return 2;
  }
  if (lead >= 0xE0 && lead <= 0xEF && cont(1) && cont(2)) {
    cp = ((lead & 0x0Fu) << 12) | ((b(1) & 0x3Fu) << 6) | (b(2) & 0x3Fu);
    if (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    return 3;
  }
  if (lead >= 0xF0 && lead <= 0xF4 && cont(1) && cont(2) && cont(3)) {
    cp = ((lead & 0x07u) << 18) | ((b(1) & 0x3Fu) << 12) | ((b(2) & 0x3Fu) << 6) | (b(3) & 0x3Fu);
    if (cp < 0x10000 || cp > 0x10FFFF) return 0;
    return 4;
  }
  return 0;
}

}  // namespace

std::string terminal_safe(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  while (!text.empty()) {
    std::uint32_t cp = 0;
    const std::size_t n = decode_utf8(text, cp);
    if (n == 0) {
      append_byte_escape(out, static_cast<unsigned char>(text.front()));
      text.remove_prefix(1);
      continue;
    }
    if (cp < 0x20 || cp == 0x7F) {
      append_byte_escape(out, static_cast<unsigned char>(cp));
    } else if (is_c1_or_bidi(cp)) {
      append_code_point_escape(out, cp);
    } else {
      out.append(text.substr(0, n));
    }
    text.remove_prefix(n);
  }
  return out;
}

}  // namespace pith
