// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Stamping a PDF with a verified Pith record, as ONE incremental update:
//  - XMP: the existing packet merged with the pith properties (xmp.hpp),
//    written uncompressed into the catalog's /Metadata object (same number)
//    or a new one;
//  - Info: /PithNumber and /PithURL (other keys untouched; an Info dictionary
//    is created when there is none; no /ModDate or /Producer changes);
//  - the verified document bytes as the embedded file pith-bundle.json
//    (EmbeddedFiles name tree merged with existing attachments, catalog /AF,
//    /AFRelationship /Supplement, /Subtype /application#2Fjson, /Params);
//  - optionally (--badge) a link annotation with its own appearance in the
//    top right corner of page 1, clear of arXiv's left-margin watermark.
// The plan is computed from the Reader alone (O(metadata)); writing it is
// the caller's business (atomic_file.hpp).
//
// No PoDoFo type here: the Reader (reader.hpp, which exposes PoDoFo) is only
// named, so a public header (the stamp job) may include this one.
#include "pith/base/error.hpp"
#include "pith/base/version.hpp"
#include "pith/pdf/extract.hpp"
#include "pith/carrier/vocabulary.hpp"
#include "pith/registry/verify.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pith::pdf {

class Reader;  // reader.hpp

struct StampOptions {
  std::string resolver = default_resolver_url;  // base URL for /PithURL and the badge link
  bool force = false;                              // replace a stamp for a different number
  bool badge = false;
  std::optional<std::int64_t> source_date_epoch;   // /Params /ModDate of the embedded file
  std::string tool;                                // "pith-stamp 0.1.0"; default: from version.hpp
  // SHA-256 (hex) of the reader's bytes when the caller already has it
  // (MappedFile::sha256_hex is the fast way); computed here otherwise.
  std::optional<std::string> original_sha256;
  // The fingerprint of the original's pages (pdf/page_fingerprint.hpp,
  // to_property()), written as XMP pith:pageTextSha256 when set.
  std::optional<std::string> page_text_sha256;
  // Make the update even when the file already carries this record (pith-stamp
  // --force on a stamped PDF that pith-check does not call verified).
  bool restamp = false;
};

enum class StampOutcome {
  stamped,          // `update` holds the bytes to append
  already_stamped,  // the file carries this very record already: nothing to do
  conflict,         // the file names another Pith Number and force is off
};

struct StampPlan {
  StampOutcome outcome = StampOutcome::stamped;
  std::string update;                          // bytes to append after the original
  std::optional<std::string> previous_number;  // number the file named before, if any
  std::string original_sha256;                 // of the bytes before the update (hex)
  std::uint64_t original_length = 0;
  std::vector<std::string> notes;              // human-readable remarks (badge skipped, ...)
  std::vector<std::string> warnings;           // remarks even a quiet run prints (a malformed XMP packet replaced)
  // The badge's /Rect on page 1 when one was added: the one place where
  // page 1 may look different after the update (stamp/examine.hpp).
  std::optional<std::array<double, 4>> badge_rect;
  bool adds_badge = false;                     // the update changes page 1's annotations (--badge)
};

// The resolver URL of a record: <resolver>/pith/<26-char body>.
[[nodiscard]] std::string resolver_url(std::string_view resolver, const registry::PithNumber& number);
// The same for a number as a user or a file writes it: its body when it
// parses, else the text as it is.
[[nodiscard]] std::string resolver_url(std::string_view resolver, std::string_view written_number);

// `metadata` and `extraction` are what the PDF already carries, read once by
// the caller (read_pdf_metadata, extract_pith_numbers: extract.hpp), who also
// refuses a PDF whose pith parts could not be read (pith_parts_unreadable).
[[nodiscard]] Result<StampPlan> plan_stamp(const Reader& reader, const PdfMetadata& metadata,
                                           const PdfExtraction& extraction, const registry::VerifiedRecord& record,
                                           const StampOptions& options);

// What plan_stamp decides, without building the update or hashing anything:
// its outcome, previous_number, original_length and, with options.badge, the
// badge's badge_rect and adds_badge (or the note that it is skipped); the
// same errors as plan_stamp for a PDF that cannot be stamped (certified). For
// saying early whether a run stamps (stamp/examine.cpp).
[[nodiscard]] Result<StampPlan> decide_stamp(const Reader& reader, const PdfMetadata& metadata,
                                             const PdfExtraction& extraction, const registry::VerifiedRecord& record,
                                             const StampOptions& options);

// The update holding plan_stamp's badge alone, "" when page 1 already links
// to the number: appended to the original, every page reads as it will once
// stamped (nothing else of the update is on a page), so the pages can be
// fingerprinted (options.page_text_sha256) before the one plan is made.
[[nodiscard]] Result<std::string> badge_update(const Reader& reader, const registry::VerifiedRecord& record,
                                               const StampOptions& options);

}  // namespace pith::pdf
