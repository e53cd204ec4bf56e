// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `pith-stamp paper.tex`: bake the verified, signed record of the paper's
// \pithnumber into a generated pith.sty beside the paper. Uploaded with the
// sources, that one file makes a PDF built anywhere (arXiv) carry the
// signed record. The caller decides where the record comes from (a bundle
// file, a resolver) and verifies it; this checks it is the paper's record.
#include "pith/base/error.hpp"
#include "pith/tex/sty.hpp"
#include "pith/tex/source.hpp"
#include "pith/registry/verify.hpp"

#include <filesystem>
#include <functional>

namespace pith::tex {

struct TexStampOptions {
  StyOptions sty;  // resolver the badge links to
};

struct TexStampResult {
  TexNumber number;             // the \pithnumber found in the paper
  registry::PithNumber pith_number;  // full form, the record's
  std::filesystem::path sty_path;
  bool written = false;         // false: pith.sty already had exactly these bytes
  std::size_t sty_bytes = 0;
};

// Writes <dir of tex>/pith.sty for `record`, atomically (temporary file,
// fsync, rename), and only when its bytes change. Fails when the paper has
// no (or conflicting) \pithnumber, when the record is not the paper's, or
// when a pith.sty that is not pith's own package is in the way (never
// overwritten). A VerifiedRecord is verified by construction (verify.hpp).
[[nodiscard]] Result<TexStampResult> stamp_tex(const std::filesystem::path& tex, const registry::VerifiedRecord& record,
                                               const TexStampOptions& options = {});

// The same, asking `obtain` for the verified record of the number found.
using TexRecordSource = std::function<Result<registry::VerifiedRecord>(const TexNumber&)>;
[[nodiscard]] Result<TexStampResult> stamp_tex(const std::filesystem::path& tex, const TexRecordSource& obtain,
                                               const TexStampOptions& options = {});

// The pith.sty beside `tex` read back and verified again with `trust` only:
// its embedded document must verify, be the record of `number`, and every
// baked value (canonical record, hash, receipt, key) must be that record's.
// What pith-stamp keeps when the registry cannot be reached. Errors:
// not_found (no pith.sty), malformed (not a generated one), rejected or
// unverifiable (the record does not verify), conflict (another number's).
[[nodiscard]] Result<registry::VerifiedRecord> verify_existing_sty(const std::filesystem::path& tex, const TexNumber& number,
                                                                   const registry::TrustStore& trust);

// The pith.sty that stamp_tex writes for `tex` (beside it).
[[nodiscard]] std::filesystem::path sty_path_for(const std::filesystem::path& tex);

// The record's (full) number matches the paper's \pithnumber
// (PithNumber::matches: the body, and the year when the paper gives one).
[[nodiscard]] bool record_matches(const TexNumber& number, const registry::VerifiedRecord& record);

}  // namespace pith::tex
