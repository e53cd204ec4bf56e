// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// pith-check lists the digital signatures a PDF carries beside its verdict,
// for information: pith does not validate them (pdfsig, Acrobat and other
// readers do) and they change no verdict. What each covers is told against
// the file's length: a signature over fewer bytes than the file has was made
// before a later update (a pith stamp is one), as any reader reports it
// ("not total document signed").
#include "pith/base/report.hpp"
#include "pith/pdf/signatures.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace pith::check {

// report.extra["signatures"]: one object per signature (field, signer,
// signed_at, sub_filter, signed_length, bytes_after, certification).
// Nothing when there are none.
void list_signatures(Report& report, const std::vector<pdf::PdfSignature>& signatures, std::uint64_t file_length);

// The human report's lines for report.extra["signatures"]:
// "  signatures (not validated by pith): 1: field Sig1, signed by …"; empty when none.
[[nodiscard]] std::string signatures_text(const Report& report);

}  // namespace pith::check
