// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What a reader sees on page 1: its text lines in reading order, which of
// their characters a reader can actually see (issue 22: "verified" binds
// only what is seen, never text a viewer hides), and the URIs of its link
// annotations. A plain value (strings and numbers) with a JSON form, so the
// isolated child that parses the PDF can hand it to a parent that judges it
// (check/visible.hpp).
//
// poppler's core API (libpoppler-private-dev), in the child only:
// TextOutputDev gives the lines (the reading order poppler-cpp and
// pdftotext give: ToUnicode maps, glyph-name fallbacks, the line builder)
// with each character's box; SplashOutputDev renders page 1 as a viewer
// shows it, and once more with only the glyphs under test, in black; a
// glyph is seen by the rules of pdf/glyph_visibility.hpp. poppler reads the
// newest revision: the text is what a viewer shows now.
#include "pith/base/error.hpp"
#include "pith/pdf/glyph_visibility.hpp"

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pith::pdf {

// How the seen text was decided (docs/pdf-checking.md, "Seen text").
struct SeenMeasure {
  std::uint64_t glyphs = 0;         // characters tested
  std::uint64_t hidden = 0;         // of those, not seen
  std::uint64_t ink_renders = 0;    // ink renders (one per colour of overlapping lines)
  std::uint64_t bare_renders = 0;   // renders without text (only when something else is drawn near a glyph)
  friend bool operator==(const SeenMeasure&, const SeenMeasure&) = default;
};

// What one glyph of a line draws, told by its outline (issue 34): the
// outline the font program gives the glyph, drawn with the shape of its
// matrix (rotation, slant, aspect; not its size), named by a SHA-256 key
// (pdf/glyph_shapes.hpp). The same drawing has the same key in any file,
// whatever its font's subset or the file's claims; the glyph check learns
// which letters a key draws from OCR readings (check/shape_memory.hpp).
struct ShapedGlyph {
  std::uint32_t key = 0;  // index into PageText::shape_keys
  std::string claimed;    // the letters the font claims for it (/ToUnicode, encoding): UTF-8, hostile
  friend bool operator==(const ShapedGlyph&, const ShapedGlyph&) = default;
};

// A line's inked glyphs left to right, when every one of them is told by
// its outline and nothing else is drawn on them: no other glyph, no path or
// image, no clip that cuts one, no soft mask on the page, no two glyphs
// drawn over each other. `told` false (the glyphs left out): some glyph is
// not (a Type 3 procedure, a pattern fill, a stroked or clipped glyph, a
// rotated line...), and only OCR reads the line.
struct LineShapes {
  bool told = false;
  std::vector<ShapedGlyph> glyphs;
  friend bool operator==(const LineShapes&, const LineShapes&) = default;
};

// At most this many lines, from the top of the reading order, are told by
// their glyphs' outlines (a title is among the first few); longer ones not.
inline constexpr std::size_t max_shaped_lines = 24;
inline constexpr std::size_t max_shaped_glyphs = 400;

struct PageText {
  std::vector<std::string> lines;      // page 1's text layer, one entry per line, reading order, valid UTF-8
  // Per line, the same count as `lines`: one byte per code point of the
  // line, '1' a reader sees it (a space between words is seen), '0' not.
  std::vector<std::string> seen;
  std::vector<std::uint8_t> hidden;    // per line: the HiddenReason bits of its unseen characters
  std::vector<Box> boxes;              // per line: the union of its characters' boxes (points, from the top left)
  double page_width = 0;               // page 1's CropBox as shown (rotation applied), points
  double page_height = 0;
  SeenMeasure measure;
  std::vector<std::string> link_uris;  // /URI of page 1's link annotations
  std::optional<std::string> problem;  // why no text could be read (the PDF opened, page 1 did not)
  // The first lines' glyphs told by their outlines (at most
  // max_shaped_lines entries, line by line from the first), and the keys
  // they name (32 bytes each, distinct).
  std::vector<LineShapes> shapes;
  std::vector<std::string> shape_keys;

  // A page of these lines, every character seen (tests; text whose
  // visibility was decided elsewhere).
  [[nodiscard]] static PageText all_seen(std::vector<std::string> lines);
  // Each line as a reader sees it: its unseen characters left out.
  [[nodiscard]] std::vector<std::string> seen_lines() const;
  // Whether every character of lines [first, first + count) is seen.
  [[nodiscard]] bool all_seen(std::size_t first, std::size_t count) const;
  // The structure holds together: per-line vectors as long as `lines`, each
  // mask one byte of '0'/'1' per code point; shapes for at most as many
  // lines, each key 32 bytes, each glyph naming one. (A hostile child's message.)
  [[nodiscard]] std::optional<std::string> inconsistency() const;

  [[nodiscard]] nlohmann::json to_json() const;
  [[nodiscard]] static Result<PageText> from_json(const nlohmann::json& json);
  friend bool operator==(const PageText&, const PageText&) = default;
};

// The most one drawing of page 1 may run (every 11 operators poppler asks),
// and all of one reader's drawings together (pdf/poppler_document.hpp:
// DrawBudget; issue 32): past either, page 1 is too complex to judge.
inline constexpr std::uint64_t default_max_draw_operators = 2'000'000;  // a dense page 1 of a paper: ~50,000
inline constexpr std::uint32_t default_draw_seconds = 8;                 // of a child's 30 s of CPU

struct PageTextLimits {
  std::size_t max_lines = 400;          // page 1 of a paper has ~60; the rest is never searched
  std::size_t max_line_bytes = 4096;    // longer lines are cut (at a UTF-8 boundary)
  double render_dpi = 72;               // the renders that decide what is seen
  int max_ink_renders = 4;              // lines of colours beyond this are not seen (overlapping text)
  std::uint64_t max_draw_operators = default_max_draw_operators;  // each drawing of page 1
  std::uint32_t draw_seconds = default_draw_seconds;              // all of them
  VisibilityRules rules;
};

// Page 1's text lines of the PDF in `bytes` (a complete file) and what a
// reader sees of them, with `link_uris` copied in (the lazy reader already
// read them: PdfMetadata::link_uris). A PDF poppler cannot open, or without
// pages, gives a PageText with `problem` set; never throws.
[[nodiscard]] PageText read_page_text(std::string_view bytes, std::vector<std::string> link_uris,
                                      const PageTextLimits& limits = {});

// A render of `box` (points, PageText's space) of page 1, for people to look
// at (pith-check --evidence): 8-bit RGB rows, `width` x `height`.
struct PageCrop {
  int width = 0;
  int height = 0;
  std::string rgb;
};
[[nodiscard]] Result<PageCrop> render_page_crop(std::string_view bytes, const Box& box, double dpi);

// Whether a child reading a PDF's facts (pdf/facts.hpp) reads page 1's text
// too, or another child reads it beside them (pith-check of one file:
// read_page_text is most of a check's reading, and the checking process
// verifies the record meanwhile).
enum class PageOneText { read, elsewhere };

}  // namespace pith::pdf
