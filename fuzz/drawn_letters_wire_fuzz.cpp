// SPDX-License-Identifier: GPL-3.0-or-later
// What the child reading the title's drawn letters with Tesseract sends
// (pdf/drawn_letters.hpp: pith-check's glyph check), as a child taken over by
// a poppler or Tesseract exploit could write it. The first byte is how many
// lines the parent asked for (0-15), the rest the answer. Decoded strictly:
// an answer that decodes has exactly that many lines, each valid UTF-8
// without a line break, and encodes to the same bytes.
#include "broken_promise.hpp"
#include "pith/base/utf8.hpp"
#include "pith/pdf/drawn_letters.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

using pith::fuzz::broken_promise;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::size_t lines = data[0] % 16;
  const std::string_view answer(reinterpret_cast<const char*>(data) + 1, size - 1);
  const auto read = pith::pdf::drawn_letters_from_wire(answer, lines);
  if (!read) return 0;
  if (read->size() != lines) broken_promise("a decoded answer has the lines asked for");
  for (const auto& line : *read) {
    if (line.find('\n') != std::string::npos || !pith::is_valid_utf8(line))
      broken_promise("each decoded line is valid UTF-8 without a line break");
  }
  if (pith::pdf::drawn_letters_to_wire(*read) != answer) broken_promise("a decoded answer encodes to the same bytes");
  return 0;
}
