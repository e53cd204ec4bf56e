// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// CONTRACT: the pith metadata vocabulary written into PDFs, shared by
// pith-stamp (XMP + Info + embedded file), the generated pith.sty (which
// must write the very same properties from TeX) and pith-check (which reads
// them back). Names here are a file format: never rename.
//
// The layer below both carriers of a record, the PDF (pdf/) and the
// generated pith.sty (tex/): neither depends on the other for these names.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace pith::registry {
struct VerifiedRecord;
}

namespace pith::carrier {

// XMP namespace and preferred prefix.
inline constexpr const char* xmp_namespace = "https://pith.science/ns/1.0/";
inline constexpr const char* xmp_prefix = "pith";

// XMP property names (simple text properties in the pith namespace).
inline constexpr const char* xmp_number = "number";                    // full form pith:YYYY:<26>
inline constexpr const char* xmp_canonical_record = "canonicalRecord";  // canon(record) JSON text
inline constexpr const char* xmp_canonical_sha256 = "canonicalSha256";  // lower-case hex
inline constexpr const char* xmp_receipt_signature = "receiptSignature";  // base64
inline constexpr const char* xmp_key_id = "keyId";
inline constexpr const char* xmp_key_fingerprint = "keyFingerprint";    // fingerprint_sha256_hex
inline constexpr const char* xmp_resolver_url = "resolverUrl";          // <resolver>/pith/<26>
inline constexpr const char* xmp_tool = "tool";                         // e.g. "pith-stamp 0.1.0"
inline constexpr const char* xmp_original_sha256 = "originalSha256";    // bytes before the update
inline constexpr const char* xmp_original_length = "originalLength";    // decimal byte count
// One SHA-256 per page of the stamped paper's normalised text, unsigned:
// `pith-text-1 <pages> <hex>…` (pdf/page_fingerprint.hpp). pith-stamp on a PDF only.
inline constexpr const char* xmp_page_text_sha256 = "pageTextSha256";

// Info dictionary keys.
inline constexpr const char* info_number = "PithNumber";
inline constexpr const char* info_url = "PithURL";

// Embedded file (EmbeddedFiles name tree key, /F and /UF).
inline constexpr const char* embedded_name = "pith-bundle.json";
inline constexpr const char* embedded_mime = "application/json";

// The data block of a generated pith.sty (tex/sty.hpp): the XMP names above
// for the record's values, and these for what the package assembles itself
// (the number from body and year, its links from the resolver base).
inline constexpr const char* sty_body = "body";          // the 26-character body
inline constexpr const char* sty_year = "year";          // four digits
inline constexpr const char* sty_resolver = "resolver";  // base URL, no trailing slash

// The resolver base a stamp may publish (/PithURL, XMP resolverUrl, the
// badge link, the generated pith.sty): `base` when it is a web address, else
// pith::default_resolver_url (a file:// or local test base must not end up in a paper).
[[nodiscard]] std::string published_resolver(std::string_view base);

// The values, as one value type: what pith-stamp writes into a PDF's XMP
// (pdf/xmp.hpp) and, the record's part of it (number, canonical record and
// hash, receipt signature, key), into a generated pith.sty's data block
// (tex/sty.hpp), which reads it back the same way.
struct PithProperties {
  // The values as the file holds them, text: the number too (pith:YYYY:<26>
  // from pith_properties_of; whatever a file wrote when read back).
  std::string number;
  std::string canonical_record;
  std::string canonical_sha256;
  std::string receipt_signature;
  std::string key_id;
  std::string key_fingerprint;
  std::string resolver_url;
  std::string tool;
  std::optional<std::string> original_sha256;  // only pith-stamp on a PDF sets these
  std::optional<std::uint64_t> original_length;
  std::optional<std::string> page_text_sha256;  // pith-stamp on a PDF, when the pages' text could be read

  friend bool operator==(const PithProperties&, const PithProperties&) = default;
};

// The properties that copy `record` (number, canonical record and hash,
// receipt signature, key), with the given resolverUrl and tool; the
// original_* byte binding is left to the caller that has the bytes.
[[nodiscard]] PithProperties pith_properties_of(const registry::VerifiedRecord& record, std::string resolver_url,
                                                std::string tool);

}  // namespace pith::carrier
