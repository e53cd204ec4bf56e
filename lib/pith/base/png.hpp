// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A PNG file of an 8-bit RGB image (pith-check --evidence): deterministic
// bytes (no time or text chunks; zlib at a fixed level), so the same render
// gives the same file.
#include <string>
#include <string_view>

namespace pith {

// `rgb`: `height` rows of `width` pixels, 3 bytes each, top row first.
// Empty when the sizes do not match the data.
[[nodiscard]] std::string encode_png_rgb(int width, int height, std::string_view rgb);

}  // namespace pith
