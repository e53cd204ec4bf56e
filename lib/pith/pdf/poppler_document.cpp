// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/pdf/poppler_document.hpp"

#include <Error.h>
#include <GlobalParams.h>
#include <OutputDev.h>
#include <PDFDoc.h>
#include <Stream.h>

#include <climits>
#include <malloc.h>

namespace pith::pdf {
namespace {

// poppler reports recoverable damage through this hook (default: stderr).
// Silence it: the checker reports what it concludes, not the parser's chatter.
void ignore_poppler_error(ErrorCategory, Goffset, const char*) {}

void start_poppler() {
  static bool started = false;
  if (started) return;
  if (!globalParams) globalParams = std::make_unique<GlobalParams>();
  setErrorCallback(ignore_poppler_error);
  // The renders allocate and free page-sized bitmaps, over and over in a
  // worker: kept in the heap, not handed back to the kernel and faulted in
  // again each time (5 % of the work, measured). This runs in the child.
  mallopt(M_MMAP_THRESHOLD, 16 << 20);
  mallopt(M_TRIM_THRESHOLD, 64 << 20);
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

void display_page_one(PDFDoc& doc, OutputDev& out, double dpi) {
  doc.displayPage(&out, 1, dpi, dpi, 0, /*useMediaBox=*/false, /*crop=*/true, /*printing=*/false);
}

}  // namespace pith::pdf
