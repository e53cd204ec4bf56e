// SPDX-License-Identifier: GPL-3.0-or-later
// What the child rendering a crop of page 1 sends (pdf/crop_wire.hpp:
// pith-check --evidence, pith-serve's page), as a child taken over by a
// poppler exploit could write it. Decoded strictly: a crop that decodes is
// within its bounds, its rows exactly width x height x 3 bytes, and has
// exactly one encoding.
#include "broken_promise.hpp"
#include "pith/pdf/crop_wire.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

using pith::fuzz::broken_promise;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const auto crop = pith::pdf::decode_page_crop(bytes);
  if (!crop) return 0;
  if (crop->width <= 0 || crop->height <= 0 || crop->width > pith::pdf::max_crop_side ||
      crop->height > pith::pdf::max_crop_side)
    broken_promise("a decoded crop is within its bounds");
  if (crop->rgb.size() != static_cast<std::size_t>(crop->width) * static_cast<std::size_t>(crop->height) * 3)
    broken_promise("a decoded crop's rows are width x height x 3 bytes");
  if (pith::pdf::encode_page_crop(*crop) != bytes) broken_promise("a decoded crop encodes to the same bytes");
  return 0;
}
