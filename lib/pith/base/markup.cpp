// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/base/markup.hpp"

namespace pith {

namespace {

bool allowed_in_markup(unsigned char c) { return (c >= 0x20 && c != 0x7F) || c == '\t' || c == '\n' || c == '\r'; }

}  // namespace

std::string markup_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;  // &apos; is not HTML 4
      default:
        if (allowed_in_markup(static_cast<unsigned char>(c))) out += c;
    }
  }
  return out;
}

}  // namespace pith
