// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Text from inputs (file names, key ids, claimed numbers, titles, JSON
// previews) reaches a terminal in pith's human output. A hostile value could
// carry escape sequences that erase a "✗ failed" line and draw a green
// "✓ verified", or bidi controls that reorder what is shown. Every value on
// its way to text output goes through terminal_safe(); machine output
// (--json) stays exact.
#include <cstdint>
#include <string>
#include <string_view>

namespace pith {

// `text` with everything a terminal would act on made visible:
//  - C0 controls (U+0000–U+001F, newline and tab included: one value, one
//    line) and DEL as \xNN;
//  - C1 controls (U+0080–U+009F) and bidi controls (U+061C, U+200E, U+200F,
//    U+202A–U+202E, U+2066–U+2069) as \u{XXXX};
//  - bytes that are not valid UTF-8 as \xNN.
// Everything else, other UTF-8 included, is kept as is.
[[nodiscard]] std::string terminal_safe(std::string_view text);

// A C1 control or a bidi control (the code points above): what a terminal,
// or a spreadsheet's cell (base/table_text.hpp), must not be handed as is.
[[nodiscard]] bool is_c1_or_bidi(std::uint32_t cp);

}  // namespace pith
