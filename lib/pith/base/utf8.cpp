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

}  // namespace pith
