// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Sample PDFs made on demand by real producers (pdflatex, qpdf, ghostscript),
// cached in one temporary directory per test process. A producer that is not
// installed makes the sample unavailable (the test then SKIPs, loudly).
#include "support/command.hpp"  // run, quote
#include "support/test_data.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pith::test {

enum class SamplePdf {
  pdflatex,          // xref stream + object streams (pdfTeX default)
  classic,           // classic xref table, no object streams (qpdf --object-streams=disable)
  object_streams,    // qpdf --object-streams=generate
  linearized,        // qpdf --linearize
  hybrid,            // classic table + /XRefStm (made by test code from `classic`)
  with_xmp,          // pdflatex + hyperxmp-free XMP packet with dc:title/dc:creator
  attachments,       // pdflatex + \embedfile-like attachment (qpdf --add-attachment)
  ghostscript,       // ps2pdf/gs output
  encrypted,         // qpdf --encrypt (AES-256)
  no_info,           // qpdf without /Info
  big,               // 1,200 pages
  xelatex,           // XeTeX (xdvipdfmx)
  lualatex,          // LuaTeX
  dvips,             // latex + dvips + ps2pdf
  exiftool_updated,  // pdflatex output with an exiftool incremental update (3 revisions after ours)
};

// Path to the sample, made on first use; nullopt when a producer is missing.
[[nodiscard]] std::optional<std::filesystem::path> sample_pdf(SamplePdf kind);
// The sample's bytes; FAILs the test (naming what to install) when it cannot be made.
[[nodiscard]] std::string require_sample(SamplePdf kind);
// read_file / write_file: support/test_data.hpp (one definition for all tests).
// A PDF of `objects` (numbered from 1, object 1 the catalog) with a classic
// cross-reference table, every offset right; `trailer_keys` go after /Size
// and /Root (each ending in a space). The test-made PDFs' one writer.
[[nodiscard]] std::string classic_pdf(const std::vector<std::string>& objects, const std::string& trailer_keys = "",
                                      std::string_view version = "1.4");

}  // namespace pith::test
