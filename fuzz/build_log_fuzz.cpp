// SPDX-License-Identifier: GPL-3.0-or-later
// What a TeX build says about itself (tex/build_log: the -recorder .fls and
// the .log), as pith-stamp --arxiv reads them after building a paper the
// user does not control: the same bytes read as either file.
#include "pith/tex/build_log.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)pith::tex::read_fls(text);
  (void)pith::tex::read_log(text, "paper");
  return 0;
}
