// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// poppler's core API, opened one way for every pith reader of rendered or
// laid-out text (pdf/page_text, pdf/page_fingerprint): one GlobalParams,
// poppler's chatter silenced, the document over caller-owned bytes; and page
// 1 shown one way for page_text's passes (text layer, renders, crops).
// Internal to libpith (poppler's headers are not part of pith's public API).
#include "pith/base/error.hpp"
#include "pith/pdf/page_text.hpp"

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

class OutputDev;
class PDFDoc;

namespace pith::pdf {

// The document over `bytes` (not copied: they must outlive it), or nullptr
// when poppler cannot open it (damaged beyond repair, a password).
std::unique_ptr<PDFDoc> open_poppler_document(std::string_view bytes);

// The document over `bytes` (as above) for a reader of its pages' text, or
// why not, as one phrase for a report (Error::message): too large for
// poppler, not openable, or without pages.
[[nodiscard]] Result<std::unique_ptr<PDFDoc>> open_for_text(std::string_view bytes);

// The size of page 1 as displayed, in points: its CropBox, turned by /Rotate.
[[nodiscard]] std::pair<double, double> shown_size(PDFDoc& doc);

// The most drawing a page may cost (issue 32: a hostile page of 10 million
// operators took 1.5 s a pass, six passes a check). poppler's Gfx asks,
// every 11 operators it runs (in forms and annotations too), whether to stop:
// each pass may run `max_operators` (deterministic: the same page stops at
// the same operator on any machine), and all passes of one reader together
// end at a deadline (for operators that each cost much: images, shadings),
// unless the budget is untimed (the page text fingerprint, whose bytes must
// not depend on the machine). A stopped pass is a page that cannot be
// judged: its reader says why. Once stopped, a budget draws nothing more.
struct PixelSlice {  // of the picture at a resolution: [x, x + width) x [y, y + height)
  int x = 0, y = 0, width = 0, height = 0;
};

class DrawBudget {
 public:
  explicit DrawBudget(std::uint64_t max_operators = default_max_draw_operators,
                      std::optional<std::chrono::milliseconds> time = std::chrono::seconds(default_draw_seconds));
  // Why a pass was stopped ("page 1 is too complex to draw: ..."), or nullopt.
  [[nodiscard]] const std::optional<std::string>& stopped() const { return stopped_; }
  // The operators the last pass ran, as poppler counts them (in steps of 11).
  [[nodiscard]] std::uint64_t pass_operators() const;

 private:
  friend bool display_page(PDFDoc&, OutputDev&, int, double, DrawBudget&, const std::optional<PixelSlice>&);
  static bool poll(void* budget);
  std::uint64_t max_operators_;
  std::uint64_t max_checks_;
  std::uint64_t checks_ = 0;
  int page_ = 1;  // of the pass, for the message
  std::optional<std::chrono::steady_clock::time_point> deadline_;
  std::chrono::milliseconds time_;
  std::optional<std::string> stopped_;
};

// Page `page` drawn on `out` as every page_text pass draws page 1: rotation from the
// page, the CropBox, as a viewer on screen (not printing: annotations
// flagged NoView are not drawn), within `budget`; only `slice` of it when
// given. false: the budget stopped it (budget.stopped() says why; `out`
// holds what was drawn before).
bool display_page(PDFDoc& doc, OutputDev& out, int page, double dpi, DrawBudget& budget,
                  const std::optional<PixelSlice>& slice = std::nullopt);
inline bool display_page_one(PDFDoc& doc, OutputDev& out, double dpi, DrawBudget& budget,
                             const std::optional<PixelSlice>& slice = std::nullopt) {
  return display_page(doc, out, 1, dpi, budget, slice);
}

// The renders' resolution for a page of `width` x `height` points: `dpi`,
// or less, so that the picture has at most `max_pixels` (a 14,400 pt square
// page, the largest PDF allows, is 207 megapixels at 72 dpi).
inline constexpr double max_render_pixels = 8e6;  // an A0 poster at 72 dpi; a US Letter page at 290 dpi
[[nodiscard]] double bounded_dpi(double dpi, double width, double height, double max_pixels = max_render_pixels);

}  // namespace pith::pdf
