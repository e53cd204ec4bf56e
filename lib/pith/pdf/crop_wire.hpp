// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the child rendering a crop of page 1 (pdf/evidence.hpp: pith-check
// --evidence, pith-serve's page) sends the parent, on base/wire: the crop's
// size and RGB rows, or why poppler drew none. The child renders a hostile
// PDF, so the parent reads the message as hostile too (docs/fuzzing.md,
// `page_crop_wire`): the size within max_crop_side, the rows exactly
// width × height × 3 bytes, nothing after the last field.
#include "pith/base/error.hpp"
#include "pith/pdf/page_text.hpp"

#include <cstdint>
#include <string>
#include <string_view>

namespace pith::pdf {

inline constexpr std::string_view page_crop_tag = "pith-page-crop";
inline constexpr std::uint64_t page_crop_wire_version = 1;
// At 150 dpi a whole page is 1275 × 1650: bounded well above that.
inline constexpr int max_crop_side = 4000;

// The child's answer: the crop, or the error rendering it gave.
[[nodiscard]] std::string encode_page_crop(const Result<PageCrop>& rendered);
// The crop; else an internal error (where "evidence") with the child's
// message, or naming what is malformed.
[[nodiscard]] Result<PageCrop> decode_page_crop(std::string_view message);

}  // namespace pith::pdf
