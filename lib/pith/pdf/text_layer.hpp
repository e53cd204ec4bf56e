// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Page 1's text layer as poppler's TextOutputDev lays it out (the reading
// order pdftotext prints: flows, blocks, lines; hyphenated lines joined),
// each character with its glyph's box, size and advance, and which line drew
// the characters at each content-stream position (what the renders that
// decide visibility, pdf/seen_glyphs, select glyphs by). Internal to
// pdf/page_text; the child that parses the PDF runs it.
#include "pith/base/error.hpp"
#include "pith/pdf/glyph_visibility.hpp"
#include "pith/pdf/page_text.hpp"

#include <CharTypes.h>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

class GfxState;
class PDFDoc;

namespace pith::pdf {

class DrawBudget;  // pdf/poppler_document.hpp

struct LineChar {
  char32_t code_point = 0;
  int glyph = -1;  // index into the glyphs; -1: the space the line builder puts between words
};

// Which poppler line drew the character at a content-stream position: the
// text layer numbers characters by the bytes of the strings shown
// (TextWord::getCharPos); the renders count the same way (InkProbe).
struct DrawnBy {
  int start = 0, end = 0;  // [start, end) character positions
  std::size_t line = 0;
};

struct TextLayer {
  std::vector<GlyphSight> glyphs;
  std::vector<std::vector<LineChar>> lines;  // the output lines (hyphenated lines joined, as pdftotext)
  std::vector<std::vector<Box>> line_boxes;  // per poppler line: its glyph boxes
  std::vector<DrawnBy> drawn_by;             // sorted by start
  // The first output lines' glyphs told by their outlines (pdf/glyph_shapes),
  // filled by decide_visibility from the page render.
  std::vector<LineShapes> shapes;
  std::vector<std::string> shape_keys;
};

// pdfTeX draws a T1-encoded font it has no outlines for as Type 3 bitmaps
// whose glyphs are named a<code>, and poppler reads the slots below 32
// (ligatures, dashes, quotes) as control characters: their text from the
// T1 (Cork) encoding; nullopt for any other glyph (`u_len`: the characters
// poppler has for it).
[[nodiscard]] std::optional<std::u32string> tex_bitmap_glyph_text(GfxState* state, CharCode code, int u_len);

// Page 1's text layer (pdfTeX's Type 3 bitmap fonts' T1 slots read as their
// letters); an Error whose message says why when page 1's text cannot be
// read (`budget` stopped the drawing: its reason). The glyphs' `hidden`
// bits are not decided here (seen_glyphs.hpp).
[[nodiscard]] Result<TextLayer> read_text_layer(PDFDoc& doc, DrawBudget& budget);

}  // namespace pith::pdf
