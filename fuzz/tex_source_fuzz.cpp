// SPDX-License-Identifier: GPL-3.0-or-later
// .tex scanner: the \pithnumber in effect in a LaTeX source (comments,
// escapes, braces, \endinput), as pith-stamp reads a paper. In memory:
// \input is not followed, so the fuzzer never touches the file system.
#include "pith/tex/source.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (auto number = pith::tex::find_pith_number_in_text(text, "fuzz.tex")) (void)number->location();
  return 0;
}
