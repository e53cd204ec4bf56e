// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Which letters page 1 draws in a few of its lines, read from their pixels
// (issue 34): the text layer's characters come from the file's own claim
// (its /ToUnicode CMap, /Encoding /Differences, glyph names, /ActualText),
// which a forger writes at will; the drawn glyphs are what a reader reads.
// Each line is rendered as a viewer shows it (poppler's Splash, grey,
// antialiased, at a resolution that makes it about 64 pixels tall) and read
// by Tesseract's LSTM engine (libtesseract, the English model of
// tesseract-ocr-eng), one line at a time (page segmentation mode 7), or as
// a block (mode 6: a text-layer "line" that poppler joined from two printed
// lines, as at a hyphen, which line mode misreads).
//
// Both run in a sandboxed child (the caller's: check/page_renders.hpp, through
// runner/): poppler parses the hostile PDF, and Tesseract reads the hostile
// pixels. This file is the reading itself, in the process it is called in,
// and what the child sends. The model is loaded once per process, in the
// caller (load_drawn_letters_model), from the system's tessdata (trusted
// data, never the PDF), and the children inherit it loaded: before the
// sandbox is entered, without a file to open in it, and 80-170 ms saved a
// title after the first. OpenMP's worker threads are turned off (the sandbox
// refuses clone: a thread would kill the child, and one line gains nothing).
#include "pith/base/error.hpp"
#include "pith/pdf/glyph_visibility.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace pith::pdf {

// line: Tesseract's line mode; block: its block mode; available: nothing is
// read, the answer says whether these lines could be (an empty reading, or
// why not): the shape memory reads only where OCR could (check/visible).
enum class ReadMode { line, block, available };

// At most this many lines are read in one call (a title spans 1-4).
inline constexpr std::size_t max_drawn_lines = 8;

// The letters drawn in each of `lines` (boxes in PageText's space: points
// from the top left of page 1 as shown), one string per line, in order,
// valid UTF-8 without line breaks, read in this process (the child's work;
// tests). An error when they could not be read (no model installed, poppler
// or Tesseract failed). ReadMode::available reads nothing.
[[nodiscard]] Result<std::vector<std::string>> read_drawn_letters_here(std::string_view pdf_bytes,
                                                                       const std::vector<Box>& lines,
                                                                       ReadMode mode = ReadMode::line);

// Loads Tesseract's English model in this process, once, before the reading
// children are forked (they inherit it); an error when it is not installed.
[[nodiscard]] Result<void> load_drawn_letters_model();

// What the reading child sends: "ok", then one line of text per line read;
// or "error" and why. Decoding wants exactly `lines` lines.
[[nodiscard]] std::string drawn_letters_to_wire(const Result<std::vector<std::string>>& read);
[[nodiscard]] Result<std::vector<std::string>> drawn_letters_from_wire(std::string_view wire, std::size_t lines);

}  // namespace pith::pdf
