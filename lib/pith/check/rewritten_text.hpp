// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// After a full rewrite (pdf.bytes.rewritten: qpdf, pikepdf, "save as"), the
// stamped bytes are gone; the page text fingerprint pith-stamp recorded
// (XMP pith:pageTextSha256, pdf/page_fingerprint.hpp) still tells a re-save
// from an edited paper:
//   pdf.bytes.rewritten_text_unchanged  pass  every fingerprinted page reads as stamped
//   pdf.bytes.rewritten_text_changed    warn  naming the pages whose text changed
//   pdf.bytes.rewritten_text_unknown    skip  malformed fingerprint, or the pages could not be read
// The fingerprint is unsigned (anyone who edits a page can rewrite it): a
// finding for people, never a binding and never a verdict on its own.
// Nothing is added when the stamp recorded no fingerprint (an older pith-stamp).
#include "pith/base/report.hpp"
#include "pith/pdf/page_fingerprint.hpp"

#include <optional>
#include <string>

namespace pith::check {

// `stamped`: the XMP value as found; `now`: the file's pages as read by the
// parsing child (nullopt: not read). Adds the check and report.extra["rewritten_text"].
void check_rewritten_text(const std::optional<std::string>& stamped, const std::optional<pdf::PageFingerprints>& now,
                          Report& report);

}  // namespace pith::check
