// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/pdf/poppler_document.hpp"

#include <Error.h>
#include <GlobalParams.h>
#include <OutputDev.h>
#include <PDFDoc.h>
#include <Stream.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

namespace pith::pdf {
namespace {

// poppler reports recoverable damage through this hook (default: stderr).
// Silence it: the checker reports what it concludes, not the parser's chatter.
void ignore_poppler_error(ErrorCategory, Goffset, const char*) {}

// The heap grown by `bytes` at once, its pages populated by the kernel in
// one call: fresh memory is otherwise faulted in a page at a time, and a
// reading of page 1 touches ~4.5 MB of it (1,100 faults in the child,
// measured: the bitmaps of the renders, poppler's text layer, its tables),
// which cost more than the work on them where faults are dear (a virtual
// machine). Freed again, the block stays the heap's top (M_TRIM_THRESHOLD)
// for what comes next. Best effort: a kernel without MADV_POPULATE_WRITE
// (before Linux 5.14) faults as before.
void populate_heap(std::size_t bytes) {
  void* block = std::malloc(bytes);
  if (block == nullptr) return;
  const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  const auto at = reinterpret_cast<std::uintptr_t>(block);
  const std::uintptr_t start = (at + page - 1) & ~(page - 1), end = (at + bytes) & ~(page - 1);
  if (end > start) (void)::madvise(reinterpret_cast<void*>(start), end - start, MADV_POPULATE_WRITE);
  std::free(block);
}

void start_poppler() {
  static bool started = false;
  if (started) return;
  // The renders allocate and free page-sized bitmaps, over and over in a
  // worker: kept in the heap, not handed back to the kernel and faulted in
  // again each time (5 % of the work, measured). This runs in the child.
  mallopt(M_MMAP_THRESHOLD, 16 << 20);
  mallopt(M_TRIM_THRESHOLD, 64 << 20);
  populate_heap(std::size_t{6} << 20);
  if (!globalParams) globalParams = std::make_unique<GlobalParams>();
  setErrorCallback(ignore_poppler_error);
  started = true;
}

}  // namespace

std::unique_ptr<PDFDoc> open_poppler_document(std::string_view bytes) {
  start_poppler();
  auto* stream = new MemStream(bytes.data(), 0, static_cast<Goffset>(bytes.size()), Object(objNull));
  auto doc = std::make_unique<PDFDoc>(stream);  // owns the stream
  if (!doc->isOk()) return nullptr;
  return doc;
}

Result<std::unique_ptr<PDFDoc>> open_for_text(std::string_view bytes) {
  // poppler counts offsets in int.
  if (bytes.size() > static_cast<std::size_t>(INT_MAX))
    return fail(ErrorKind::malformed, "", "the file is too large for the text extractor");
  std::unique_ptr<PDFDoc> doc = open_poppler_document(bytes);
  if (!doc) return fail(ErrorKind::malformed, "", "the text extractor could not open the PDF");
  if (doc->getNumPages() < 1) return fail(ErrorKind::malformed, "", "the PDF has no pages");
  return doc;
}

std::pair<double, double> shown_size(PDFDoc& doc) {
  const double w = doc.getPageCropWidth(1), h = doc.getPageCropHeight(1);
  return doc.getPageRotate(1) % 180 == 0 ? std::pair{w, h} : std::pair{h, w};
}

namespace {
// poppler's Gfx::go polls its abort callback once every 11 operators.
constexpr std::uint64_t operators_per_poll = 11;
}  // namespace

DrawBudget::DrawBudget(std::uint64_t max_operators, std::optional<std::chrono::milliseconds> time)
    : max_operators_(max_operators),
      max_checks_(max_operators / operators_per_poll),
      deadline_(time ? std::optional(std::chrono::steady_clock::now() + *time) : std::nullopt),
      time_(time.value_or(std::chrono::milliseconds::zero())) {}

std::uint64_t DrawBudget::pass_operators() const { return checks_ * operators_per_poll; }

bool DrawBudget::poll(void* data) {
  auto& budget = *static_cast<DrawBudget*>(data);
  if (budget.stopped_) return true;
  if (++budget.checks_ > budget.max_checks_) {
    budget.stopped_ = "page " + std::to_string(budget.page_) + " is too complex to draw (more than " +
                      std::to_string(budget.max_operators_) + " operators)";
  } else if (budget.deadline_ && std::chrono::steady_clock::now() > *budget.deadline_) {  // ~20 ns: 2 % of 11 cheap operators
    budget.stopped_ = "page " + std::to_string(budget.page_) + " is too complex to draw within " +
                      std::to_string(std::chrono::duration_cast<std::chrono::seconds>(budget.time_).count()) + " s";
  }
  return budget.stopped_.has_value();
}

bool display_page(PDFDoc& doc, OutputDev& out, int page, double dpi, DrawBudget& budget,
                  const std::optional<PixelSlice>& slice) {
  if (budget.stopped_) return false;
  budget.checks_ = 0;  // each pass its operators; the deadline is the reader's
  budget.page_ = page;
  const PixelSlice s = slice.value_or(PixelSlice{-1, -1, -1, -1});  // poppler's "the whole page"
  doc.displayPageSlice(&out, page, dpi, dpi, 0, /*useMediaBox=*/false, /*crop=*/true, /*printing=*/false, s.x, s.y,
                       s.width, s.height, &DrawBudget::poll, &budget);
  return !budget.stopped_;
}

double bounded_dpi(double dpi, double width, double height, double max_pixels) {
  const double pixels = width * height * (dpi / 72.0) * (dpi / 72.0);
  if (!(pixels > max_pixels)) return dpi;  // NaN too: poppler draws nothing of a page without a size
  return dpi * std::sqrt(max_pixels / pixels);
}

}  // namespace pith::pdf
