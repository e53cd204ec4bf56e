// SPDX-License-Identifier: GPL-3.0-or-later
// The data block of a generated pith.sty read back (tex::read_sty_data), as
// pith-stamp reads a pith.sty it finds beside a paper before replacing it:
// hex values, the embedded document and its declared size.
#include "broken_promise.hpp"
#include "pith/tex/sty.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto sty = pith::tex::read_sty_data(text, "fuzz.sty");
  if (sty && sty->document_bytes.size() > size) {
    pith::fuzz::broken_promise("the document is no larger than the text it is read from");
  }
  return 0;
}
