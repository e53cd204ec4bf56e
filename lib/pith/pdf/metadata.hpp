#pragma once
// What a PDF already says about its Pith Number: Info /PithNumber and
// /PithURL, the XMP packet (and the pith properties found in it), and the
// embedded pith-bundle.json. Read through pdf::Reader, so it costs what the
// metadata costs. Used by pith-stamp (idempotence, number discovery) and by
// pith-check (extraction). Nothing here is verified: it is what the file claims.
#include "pith/base/error.hpp"
#include "pith/pdf/reader.hpp"

#include <optional>
#include <string>

namespace pith::pdf {

struct PithMetadata {
  std::optional<std::string> info_number;  // Info /PithNumber
  std::optional<std::string> info_url;     // Info /PithURL
  std::optional<std::string> xmp_packet;   // the catalog's /Metadata stream, decoded
  // pith:number and pith:canonicalSha256 as Exempi reads them (xmp.hpp).
  std::optional<std::string> xmp_number;
  std::optional<std::string> xmp_canonical_sha256;
  std::optional<std::string> embedded_bundle;  // pith-bundle.json contents
  [[nodiscard]] bool has_number() const { return info_number || xmp_number; }
};

[[nodiscard]] Result<PithMetadata> read_pith_metadata(const Reader& reader);


}  // namespace pith::pdf
