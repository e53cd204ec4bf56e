// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The digital signatures a PDF carries (ISO 32000-2 12.8), as facts: which
// field, who (as the signature dictionary names them), when, in what form,
// and how many bytes each signs; and whether the document is certified
// (a DocMDP signature) and what its certifier permits. pith never validates
// a signature (pdfsig, Acrobat and others do): pith-stamp keeps each one
// valid by appending (an incremental update leaves the signed bytes as they
// are) and refuses a certified document whose permissions forbid its
// update; pith-check lists them beside its verdict.
#include "pith/base/error.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pith::pdf {

class Reader;  // reader.hpp

struct PdfSignature {
  std::string field;        // the field's /T, UTF-8 ("" when it has none)
  std::string signer;       // the signature dictionary's /Name, if any (not validated)
  std::string signed_at;    // its /M as written (D:YYYYMMDDHHmmSS…), if any
  std::string sub_filter;   // /SubFilter: adbe.pkcs7.detached, ETSI.CAdES.detached, …
  // The end of what /ByteRange [a b c d] covers (c + d): the length of the
  // revision it signs. Bytes after it were added after signing.
  std::optional<std::uint64_t> signed_length;
  // This signature certifies the document (catalog /Perms /DocMDP): its /P.
  std::optional<int> certification;
  friend bool operator==(const PdfSignature&, const PdfSignature&) = default;
};

// The certification's /P (1, 2 or 3; 2 when the dictionary omits it), or
// nullopt when the document is not certified.
[[nodiscard]] Result<std::optional<int>> certification_permissions(const Reader& reader);

// What each /P allows, in words ("no changes", ...), for messages.
[[nodiscard]] std::string certification_allows(int permissions);

// The signature fields with a value (signed), in the order of the
// AcroForm's field tree, at most `max` of them (a bounded walk).
[[nodiscard]] Result<std::vector<PdfSignature>> read_signatures(const Reader& reader, std::size_t max = 64);

}  // namespace pith::pdf
