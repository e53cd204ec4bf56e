// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/serve/badge.hpp"

#include "pith/base/markup.hpp"

#include <cstddef>

namespace pith::serve {

namespace {

// Verdana 11px averages about 7 px a character: enough for a badge.
std::size_t text_width(std::string_view text) {
  std::size_t characters = 0;
  for (const char c : text) {
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++characters;  // UTF-8 lead bytes only
  }
  return characters * 7 + 10;
}

const char* colour_of(RecordStatus status) {
  switch (status) {
    case RecordStatus::verified: return "#2e7d32";
    case RecordStatus::corrected: return "#b26a00";
    case RecordStatus::unknown: return "#757575";
  }
  return "#757575";
}

}  // namespace

std::string badge_svg(std::string_view label, RecordStatus status) {
  const std::string left = markup_escape(label);
  const std::string right = to_string(status);
  const std::size_t lw = text_width(label);
  const std::size_t rw = text_width(right);
  const std::string w = std::to_string(lw + rw);
  const std::string l = std::to_string(lw);
  const std::string r = std::to_string(rw);
  const std::string lx = std::to_string(lw / 2);
  const std::string rx = std::to_string(lw + rw / 2);
  return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + w + "\" height=\"20\" role=\"img\" aria-label=\"" + left +
         ": " + right + "\"><title>" + left + ": " + right + "</title>" + "<rect width=\"" + l +
         "\" height=\"20\" fill=\"#555\"/><rect x=\"" + l + "\" width=\"" + r + "\" height=\"20\" fill=\"" +
         colour_of(status) + "\"/>" +
         "<g fill=\"#fff\" text-anchor=\"middle\" font-family=\"Verdana,DejaVu Sans,sans-serif\" font-size=\"11\">" +
         "<text x=\"" + lx + "\" y=\"14\">" + left + "</text><text x=\"" + rx + "\" y=\"14\">" + right +
         "</text></g></svg>\n";
}

}  // namespace pith::serve
