// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// pith-check --extract DIR FILE.pdf (pdfdetach's and c2patool --detailed's
// habit): the Pith parts a PDF carries, written to DIR under fixed names,
// exactly as carried, then the record shown:
//   DIR/pith-bundle.json  the embedded pith-bundle.json (the file's decoded bytes)
//   DIR/pith-record.json  XMP pith:canonicalRecord (pith.sty's carrier), as written
//   DIR/metadata.xmp      the catalog's XMP packet, decoded
// The PDF is parsed in a child process with limits, as every check parses
// it, and what the child sends is confirmed in the file's own bytes
// (pdf/facts.hpp: confirm_in_file). Nothing is verified here: the parts are
// what the PDF claims, and `pith-check FILE.pdf` (or pith-check on the
// extracted bundle) says whether they verify. A file in DIR is never
// replaced without `force`; each is written atomically (base/atomic_file)
// and read back.
#include "pith/base/error.hpp"
#include "pith/runner/isolation.hpp"

#include <ostream>
#include <string>

namespace pith::check {

struct ExtractRequest {
  std::string pdf;   // the PDF's path
  std::string dir;   // where the parts go (created when missing)
  bool force = false;  // replace parts already in `dir`
  runner::IsolationLimits limits;
};

// Names of the files written, as fixed above.
inline constexpr const char* extracted_bundle_name = "pith-bundle.json";
inline constexpr const char* extracted_record_name = "pith-record.json";
inline constexpr const char* extracted_xmp_name = "metadata.xmp";

// Writes the parts and prints, on `out`, one line per file written, then the
// record (pretty JSON, ASCII only: safe for a terminal). Errors: the PDF
// unreadable or not a PDF (io, malformed: exit 2), no Pith part in it
// (not_found: exit 3), a part already in DIR without `force` (usage: exit 2),
// a child whose report the bytes do not bear out (rejected: exit 1).
[[nodiscard]] Result<void> extract_pith_parts(const ExtractRequest& request, std::ostream& out);

}  // namespace pith::check
