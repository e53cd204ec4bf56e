// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// poppler's core API, opened one way for every pith reader of rendered or
// laid-out text (pdf/page_text, pdf/page_fingerprint): one GlobalParams,
// poppler's chatter silenced, the document over caller-owned bytes; and page
// 1 shown one way for page_text's passes (text layer, renders, crops).
// Internal to libpith (poppler's headers are not part of pith's public API).
#include "pith/base/error.hpp"

#include <memory>
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

// Page 1 drawn on `out` as every page_text pass draws it: rotation from the
// page, the CropBox, as a viewer on screen (not printing: annotations
// flagged NoView are not drawn).
void display_page_one(PDFDoc& doc, OutputDev& out, double dpi);

}  // namespace pith::pdf
