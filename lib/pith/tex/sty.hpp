// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The generated pith.sty: latex/pith.sty (compiled into the library) plus a
// data block carrying one verified, signed registry record, so a PDF built
// from the LaTeX sources alone (arXiv) carries what pith-check verifies.
//
// Every registry value goes into the data block as lower-case hex of its
// UTF-8 bytes, so no byte of registry data can ever act as TeX; the package
// decodes it with l3str conversions. Same record → identical bytes.
#include "pith/base/error.hpp"
#include "pith/base/version.hpp"
#include "pith/carrier/vocabulary.hpp"
#include "pith/registry/verify.hpp"

#include <cstddef>
#include <string>
#include <string_view>

namespace pith::tex {

// The static package (latex/pith.sty) as compiled in.
[[nodiscard]] std::string_view pith_sty_template();

// The marker line in latex/pith.sty that the data block replaces.
inline constexpr std::string_view sty_data_marker = "%% @@PITH-DATA@@";

// The largest registry document (bundle or state) a generated sty embeds:
// the sty grows by twice this (hex) and every TeX run reads it.
inline constexpr std::size_t sty_max_document_bytes = 1024 * 1024;

struct StyOptions {
  // Resolver the badge links to (<resolver>/pith/<ID>); the paper can still
  // override it with \usepackage[resolver=...]{pith}.
  std::string resolver_base = default_resolver_url;
};

// The pith.sty text for `record`. Fails when the record lacks what a signed
// record needs (number, canonical JSON, receipt, key, document bytes) or the
// document is larger than sty_max_document_bytes. Does not verify: the caller
// passes a record that verify_document() accepted.
[[nodiscard]] Result<std::string> generate_sty(const registry::VerifiedRecord& record, const StyOptions& options = {});

// The unverified package (no data block): what latex/pith.sty is.
[[nodiscard]] std::string plain_sty();

// The data block of a generated pith.sty read back, each value decoded from
// hex: the record's pith properties, the same carrier::PithProperties a
// stamped PDF's XMP carries (number, canonical record and hash, receipt
// signature, key id and fingerprint; resolver_url, tool and the original_*
// binding stay empty: the package writes its own, a PDF's alone), the
// resolver base, and the embedded registry document. It is data, not yet
// trusted: the caller verifies the document (tex/stamp.hpp: verify_existing_sty).
struct StyData {
  // A value the block lacks is empty. The number is "pith:<year>:<body>"
  // as the package assembles it ("pith:<body>" without a year, empty
  // without a body), as written, not parsed.
  carrier::PithProperties properties;
  std::string resolver;        // the base the badge links start from (no trailing slash)
  std::string document_bytes;  // the bundle or state, byte for byte
};
// Errors (malformed, `name` in where): no data block (the plain package or
// not pith's), a value that is not strict hex, or a document whose size is
// not the one written beside it.
[[nodiscard]] Result<StyData> read_sty_data(std::string_view sty_text, std::string_view name);

}  // namespace pith::tex
