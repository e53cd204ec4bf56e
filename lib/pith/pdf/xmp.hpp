// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// XMP packets (Exempi): merge the pith properties into a PDF's existing packet
// without losing anything else in it, and read them back.
//
// The pith namespace and property names are the contract in pith_metadata.hpp.
// Both functions treat their input as hostile: sizes and nesting are bounded
// before Exempi sees the bytes, and values that XML 1.0 cannot carry are
// refused instead of being silently altered.
#include "pith/base/error.hpp"
#include "pith/carrier/vocabulary.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pith::pdf {

// Largest packet either function accepts. Real packets are a few KB (the
// canonical record is the bulk); thumbnails can push some to a few MB.
inline constexpr std::size_t max_xmp_packet_bytes = std::size_t{16} * 1024 * 1024;
// Deepest element nesting accepted. Real packets nest < 12 levels; the bound
// keeps a hostile packet from exhausting the stack in Exempi's recursive RDF
// parser.
inline constexpr std::size_t max_xmp_nesting = 200;
// Padding written inside the packet (so tools that edit XMP in place have
// room), before the `<?xpacket end="w"?>` trailer.
inline constexpr std::size_t xmp_padding_bytes = 512;

// Returns a complete serialized packet (UTF-8, `<?xpacket …?>` wrapper,
// writable) holding every property of `existing_packet` (which may be empty:
// then a fresh packet) plus the pith properties of `props`. Any pith:*
// property already there is replaced: the pith namespace afterwards holds
// exactly `props` (empty strings and unset optionals are omitted; `number`
// is required). Nothing else is added or touched (no xmp:MetadataDate, no
// instance ids), so the result depends only on the inputs: merging the same
// properties into the result again gives the same bytes.
// Fails when the existing packet is too large, too deep or not XMP, or when a
// value is not UTF-8 or holds a character XML 1.0 cannot represent (C0
// controls other than TAB/LF/CR, DEL — which Exempi turns into a space —,
// U+FFFE, U+FFFF); `where` names the property.
// Note: Exempi normalises standard aliases on parse (e.g. a legacy pdf:Title
// is stored as dc:title), so such properties survive under their base name.
[[nodiscard]] Result<std::string> merge_pith_xmp(std::string_view existing_packet,
                                                 const carrier::PithProperties& props);

// The pith-relevant contents of a packet, each as found (raw text, not
// validated: the checker judges them).
struct XmpReadout {
  bool parsed = false;       // false: the packet is not well-formed XMP
  std::string parse_error;   // why, when !parsed

  std::optional<std::string> number;
  std::optional<std::string> canonical_record;
  std::optional<std::string> canonical_sha256;
  std::optional<std::string> receipt_signature;
  std::optional<std::string> key_id;
  std::optional<std::string> key_fingerprint;
  std::optional<std::string> resolver_url;
  std::optional<std::string> tool;
  std::optional<std::string> original_sha256;
  std::optional<std::string> original_length;  // decimal text as found
  std::optional<std::string> page_text_sha256;  // `pith-text-1 <pages> <hex>…` as found

  std::optional<std::string> title;        // dc:title, x-default (else the first item)
  std::vector<std::string> identifiers;    // dc:identifier: the value, or every item of an array

  // Pith properties present in a form we do not write (an array or a struct
  // where a simple value belongs): named so the checker can report them.
  std::vector<std::string> malformed;

  // True when any pith:* property was found.
  [[nodiscard]] bool has_pith_properties() const;
};

// Reads `packet`. The Error branch is for input refused before parsing (larger
// than max_xmp_packet_bytes, nested deeper than max_xmp_nesting); a packet
// Exempi cannot parse yields `parsed == false` with the reason.
[[nodiscard]] Result<XmpReadout> read_xmp(std::string_view packet);

}  // namespace pith::pdf
