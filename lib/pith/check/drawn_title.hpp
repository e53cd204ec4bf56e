// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The glyph check (issue 34): do the glyphs of page 1's title look like the
// characters the text layer claims for them? The text layer's characters
// are the file's own claim (/ToUnicode, /Differences, glyph names,
// /ActualText); the drawn letters, read by OCR from the title's lines
// (pdf/drawn_letters.hpp), are what a reader reads. Pure: the comparison of
// two strings, with the tolerance measured on real papers
// (docs/pdf-checking.md, "The glyph check").
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace pith::check {

// Letters the English model reads, compared: each string folded to lower
// case ASCII letters and digits (accents stripped, ligatures and compatibility
// forms decomposed: "ﬁ" is "fi", "É" is "e"); everything else (spaces,
// punctuation, math, letters of other scripts) left out of both.
[[nodiscard]] std::string comparable_letters(std::string_view text);

struct DrawnComparison {
  bool applicable = false;     // enough of the claimed title is in the model's letters to judge
  std::size_t compared = 0;    // comparable letters the text layer claims
  std::size_t distance = 0;    // edit distance from them to the letters read
  [[nodiscard]] double ratio() const { return compared ? static_cast<double>(distance) / static_cast<double>(compared) : 0; }
};

// Below this many comparable letters, or when fewer than this share of the
// claimed letters are the model's (a Greek, Cyrillic or CJK title), OCR says
// nothing: the check does not apply.
inline constexpr std::size_t min_compared_letters = 8;
inline constexpr double min_latin_share = 0.6;

// At most this share of the claimed letters may differ from the letters
// read (edit distance / letters claimed). Measured (bench/glyph_check_bench,
// docs/pdf-checking.md): 102 of 105 genuine lines of page 1 (pdfTeX Type 1
// and Type 3 bitmap fonts, XeLaTeX and LuaLaTeX CID fonts, small caps,
// accents, math, ligatures) read at 0, the worst at 0.038 once a line that
// joins two printed lines is read as a block; another paper's letters read
// at 0.5 and more, one word of five changed at 0.14.
inline constexpr double drawn_tolerance = 0.1;

// `claimed`: the title as the text layer has it; `read`: the lines read by OCR.
[[nodiscard]] DrawnComparison compare_drawn_title(std::string_view claimed, const std::vector<std::string>& read);

// Which glyphs of a line OCR read exactly as they claim (what teaches the
// shape memory, check/shape_memory.hpp): `claims`, each glyph's letters
// (comparable_letters' form) in the line's order; `read`, the line as OCR
// read it (the same form). In the closest alignment of the two, a glyph is
// confirmed when each of its letters is read as itself and nothing is read
// in among or beside them. All false for lines beyond max_aligned_letters.
inline constexpr std::size_t max_aligned_letters = 600;
[[nodiscard]] std::vector<bool> confirmed_glyphs(const std::vector<std::string>& claims, std::string_view read);

// Whether the comparison lets the title bind: applicable and within the tolerance.
[[nodiscard]] inline bool drawn_matches(const DrawnComparison& c) { return c.applicable && c.ratio() <= drawn_tolerance; }

}  // namespace pith::check
