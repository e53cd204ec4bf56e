// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// pith-stamp --remove: the PDF as it was before pith-stamp stamped it, the
// first pith:originalLength bytes, written only when the bytes prove it
// (docs/pdf-stamping.md, "Removing a stamp"):
//  - the file's XMP packet (read in a limited child, confirmed at its span
//    in the file by this process: pdf::confirm_in_file) names
//    pith:originalLength L and pith:originalSha256 H, and its stream data
//    lies after the first L bytes (the claim is the update's, not the
//    prefix's);
//  - the first L bytes hash to H (check::bind_bytes, pith-check's own test:
//    a rewritten file or a changed prefix is refused);
//  - the rest of the file is exactly one revision (pith's update). Revisions
//    appended after it, or bytes after its `%%EOF`, would be lost: refused
//    unless --force, naming them by their bytes.
// The prefix is copied beside the output, its length and SHA-256 read back
// from the written file, fsynced and renamed (base/atomic_file.hpp).
#include "pith/base/error.hpp"
#include "pith/runner/child_budget.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace pith::stamp {

struct UnstampOptions {
  std::string input;   // the stamped PDF
  std::string output;  // -o: required; the input's own path replaces it
  bool force = false;  // drop revisions appended after the stamp
  runner::ChildBudget children;
};

struct UnstampOutcome {
  std::string number;           // the Pith Number the removed stamp carried, when the metadata names one
  std::uint64_t original_length = 0;
  std::string original_sha256;
  std::uint64_t update_bytes = 0;            // pith's update, dropped
  std::vector<std::string> dropped;          // with --force: the later revisions dropped, as named
};

// Removes the stamp, or says why not: kind not_found (no stamp: exit 3),
// rejected (the bytes do not prove the original: exit 1), conflict (later
// revisions, no --force: exit 1), usage or io (exit 2). Nothing is written
// unless it succeeds.
[[nodiscard]] Result<UnstampOutcome> remove_stamp(const UnstampOptions& options);

}  // namespace pith::stamp
