// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// poppler's core API, opened one way for every pith reader of rendered or
// laid-out text (pdf/page_text, pdf/page_fingerprint): one GlobalParams,
// poppler's chatter silenced, the document over caller-owned bytes. Internal
// to libpith (poppler's headers are not part of pith's public API).
#include <memory>
#include <string_view>

class PDFDoc;

namespace pith::pdf {

// The document over `bytes` (not copied: they must outlive it), or nullptr
// when poppler cannot open it (damaged beyond repair, a password).
std::unique_ptr<PDFDoc> open_poppler_document(std::string_view bytes);

}  // namespace pith::pdf
