// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Every Pith Number a PDF carries, and where each was found: XMP pith:number
// and pith:resolverUrl, XMP dc:identifier values `pith:…`, Info /PithNumber
// and /PithURL, the embedded pith-bundle.json, and page-1 link annotations
// whose URI is a resolver URL `…/pith/<ID>`.
//
// Two steps, so the logic is testable without a PDF: `read_pdf_metadata`
// pulls the raw values out of a PDF (lazily, through pdf::Reader), and
// `extract_pith_numbers` judges them. Values are hostile text: nothing here
// trusts them, it only reports what they claim.
#include "pith/base/error.hpp"
#include "pith/pdf/xmp.hpp"
#include "pith/registry/number.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pith::pdf {

class Reader;  // reader.hpp

// Where a stream's undecoded data lies in the file (StreamObject::raw_offset).
struct StreamSpan {
  std::uint64_t offset = 0;
  std::uint64_t length = 0;
  friend bool operator==(const StreamSpan&, const StreamSpan&) = default;
};

// The raw metadata of a PDF that can hold a Pith Number, as read.
struct PdfMetadata {
  std::optional<std::string> xmp_packet;       // the catalog's /Metadata stream, decoded
  std::optional<std::string> info_number;      // Info /PithNumber
  std::optional<std::string> info_url;         // Info /PithURL
  std::optional<std::string> info_title;       // Info /Title
  std::optional<std::string> embedded_bundle;  // the embedded pith-bundle.json, decoded (the first, if several)
  std::size_t embedded_bundle_count = 0;       // EmbeddedFiles entries named pith-bundle.json
  // Where the undecoded data of xmp_packet and embedded_bundle lie in the
  // file: the checking parent confirms them there (pdf/facts.hpp: confirm_in_file).
  std::optional<StreamSpan> xmp_span;
  std::optional<StreamSpan> embedded_bundle_span;
  std::vector<std::string> link_uris;          // /URI of page 1's link annotations (all of them)
  // Byte offsets of the cross-reference sections (the /Prev chain), when read
  // from a PDF: sections at or after a stamp's originalLength are revisions
  // appended after the stamped bytes.
  std::optional<std::vector<std::uint64_t>> xref_section_offsets;
  std::vector<std::string> read_problems;      // parts that could not be read (damaged objects)
  // One of the parts a pith update rewrites (Info /PithNumber or /PithURL,
  // the XMP packet, the embedded pith-bundle.json) could not be read: a stamp
  // would lose what it holds, so pith-stamp refuses.
  bool pith_parts_unreadable = false;
};

// Reads the metadata above through the lazy reader: Info, the catalog's
// /Metadata, the EmbeddedFiles name tree and page 1's annotations only. A part
// that cannot be read (a damaged object) becomes a read problem and the rest
// is still read; the reader itself failing to open is the caller's error.
[[nodiscard]] PdfMetadata read_pdf_metadata(const pdf::Reader& reader);

enum class NumberSource {
  xmp_number,        // XMP pith:number
  xmp_identifier,    // XMP dc:identifier `pith:…`
  xmp_resolver_url,  // XMP pith:resolverUrl
  info_number,       // Info /PithNumber
  info_url,          // Info /PithURL
  embedded_bundle,   // pith-bundle.json .pith_number
  link_annotation,   // page 1 link to …/pith/<ID>
  page_text,         // page 1's printed `pith:YYYY:BODY` (latex/pith.sty's badge): a hint only
};
[[nodiscard]] const char* to_string(NumberSource source);

// One place a Pith Number was found.
struct NumberSighting {
  NumberSource source = NumberSource::xmp_number;
  std::string where;  // for people: "XMP pith:number", "page 1 link https://…/pith/…"
  std::string raw;    // the value as found
  registry::PithNumber number;  // as parsed: any form (full, body, short)
  std::string url;    // the resolver URL it was found in (URL sources only)
};

// Two sightings naming different papers.
struct NumberConflict {
  NumberSighting first;
  NumberSighting second;
  [[nodiscard]] std::string describe() const;  // names both numbers and where each was found
};

struct PdfExtraction {
  std::optional<XmpReadout> xmp;          // when the PDF has an XMP packet
  std::vector<NumberSighting> sightings;  // in the order of NumberSource
  // Values in a pith place that are not a Pith Number, or metadata that could
  // not be read: each a sentence naming the place.
  std::vector<std::string> problems;

  [[nodiscard]] bool found() const { return !sightings.empty(); }
  // Every pair of sightings that do not match (PithNumber::matches: different
  // bodies — a short form agrees with the full body it starts — or years).
  [[nodiscard]] std::vector<NumberConflict> conflicts() const;
  // The full number (pith:YYYY:<26>) when at least one sighting gives it and
  // no sighting contradicts it.
  [[nodiscard]] std::optional<registry::PithNumber> number() const;
};

// Where the number is: the one answer pith-check and pith-stamp give (both
// used to look in different places: after `gs -sDEVICE=pdfwrite` one said
// verified, the other "no Pith Number"). The metadata's number (every
// sighting above: XMP, Info, the embedded bundle, the badge's link), else
// the one number page 1 prints. A printed number is a hint: whoever takes it
// resolves it and binds the record by title; it never verifies on its own.
struct NumberPlace {
  registry::PithNumber number;
  std::string where;  // "XMP pith:number", "page 1 text", ...: for messages
  bool hint = false;  // only printed on page 1
};
// `printed`: printed_numbers() of page 1, or empty when page 1 was not read.
[[nodiscard]] std::optional<NumberPlace> where_is_the_number(const PdfExtraction& extraction,
                                                             const std::vector<NumberSighting>& printed);

// The full Pith Numbers page 1 prints (`pith:YYYY:BODY` anywhere in a line:
// latex/pith.sty's badge, which survives printing to PDF when no metadata
// does), in reading order, each a sighting "page 1 text". Hostile text:
// at most a few are kept.
[[nodiscard]] std::vector<NumberSighting> printed_numbers(const std::vector<std::string>& lines);

// A number page 1 prints that is not `number` (a badge edited, or pasted
// from another paper), or nullopt.
[[nodiscard]] std::optional<NumberSighting> printed_otherwise(const std::vector<NumberSighting>& printed,
                                                               const registry::PithNumber& number);

// Judges the raw metadata. The Error branch is for an XMP packet refused
// before parsing (too large or too deep); everything else is in the result.
[[nodiscard]] Result<PdfExtraction> extract_pith_numbers(const PdfMetadata& metadata);

// The <ID> of a resolver URL `…/pith/<ID>[/…][?…][#…]`, percent-decoded;
// nullopt when the URL has no `/pith/` path segment.
[[nodiscard]] std::optional<std::string> resolver_url_id(std::string_view url);

}  // namespace pith::pdf
