// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The two drawings of page 1 a check makes beside the parsing child's read,
// each in a limited, sandboxed child of its own (runner/isolation.hpp:
// poppler and Tesseract never run in the checking process), under the
// budget of a drawing (runner/child_budget.hpp: rendering_budget):
//  - the crop a person looks at (pdf/evidence.hpp: pith-check --evidence,
//    pith-serve's page), as PNG;
//  - the letters OCR reads in a few of the title's lines (pdf/drawn_letters.hpp:
//    the glyph check, check/visible.hpp).
// The children send their wires; this process decodes them as hostile.
// And page 1's text of a check's one PDF, read in a child of its own beside
// the parsing child (PageTextReading: check/file.hpp PageTextBeside).
#include "pith/base/error.hpp"
#include "pith/pdf/drawn_letters.hpp"
#include "pith/pdf/glyph_visibility.hpp"
#include "pith/runner/child_budget.hpp"
#include "pith/runner/child_scheduler.hpp"
#include "pith/runner/isolation.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <sys/stat.h>
#include <vector>

namespace pith::check {

// The PNG of `seen` (points from the top left of page 1 as shown, with a
// margin) of page 1 of `pdf_bytes`, rendered at `dpi` in a child under `budget`.
[[nodiscard]] Result<std::string> render_evidence_png(std::string_view pdf_bytes, const pdf::Box& seen, double dpi = 150,
                                                      const runner::ChildBudget& budget = runner::rendering_budget());

// The letters drawn in each of `lines` of page 1 (pdf::read_drawn_letters_here),
// read in a child (10 s of CPU, 20 s in all: a line takes 20-100 ms); the
// model is loaded here first, once, and the child inherits it.
// ReadMode::available reads nothing, in this process.
[[nodiscard]] Result<std::vector<std::string>> read_drawn_letters(std::string_view pdf_bytes,
                                                                  const std::vector<pdf::Box>& lines,
                                                                  pdf::ReadMode mode = pdf::ReadMode::line);

// Page 1's text of a run's one PDF (the file `path`, as `before` described
// it), read by a child of its own while the child reading the rest of the
// facts is at work: read_page_text is most of a check's reading, and this
// process verifies the record meanwhile. Under the same limits as the
// check's children, and named as they are ("the check ..."); destroying it
// kills the child. Two children read the file at two moments: one that
// changed meanwhile (rewritten, replaced) gets no verdict from the two.
class PageTextReading {
 public:
  PageTextReading(std::string path, const struct stat& before, const runner::IsolationLimits& limits);
  // What the child sent (pdf::page_text_to_wire), or why nothing came; awaited once.
  [[nodiscard]] Result<std::string> answer();

 private:
  std::string path_;
  struct stat before_;
  runner::ChildScheduler children_;
  std::optional<Result<std::string>> answer_;
};

}  // namespace pith::check
