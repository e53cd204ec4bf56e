// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Verifying what a PDF says about its Pith Number: that every number in it
// names the verified record, that the pith metadata is that record's, that the
// paper's title is the one the record hashes (title binding), and that the
// bytes the stamp covered are still there (byte binding).
//
// Each piece adds checks to a Report, so pith-check can show them all:
//   pdf.number.found / pdf.number.conflict / pdf.number.matches_record
//   pdf.metadata.matches_record   (XMP pith:* and the embedded bundle agree)
//   pdf.title.match / pdf.title.mismatch / pdf.title.undetermined
//   pdf.bytes.prefix_intact / pdf.bytes.prefix_broken / pdf.bytes.unbound
//   pdf.bytes.later_revisions
//   pdf.record.source             (which document the record was verified from)
#include "pith/base/report.hpp"
#include "pith/check/file.hpp"
#include "pith/check/visible.hpp"
#include "pith/pdf/extract.hpp"
#include "pith/pdf/page_fingerprint.hpp"
#include "pith/pdf/page_text.hpp"
#include "pith/pdf/signatures.hpp"
#include "pith/registry/title.hpp"
#include "pith/registry/trust_store.hpp"
#include "pith/resolver/resolver.hpp"
#include "pith/registry/verify.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pith::check {

// --- Numbers -------------------------------------------------------------

// pdf.number.found (fail when nothing was found: the caller then reports
// "no number", exit 3) and pdf.number.conflict (fail naming both numbers and
// where each came from). Returns true when a single number was found.
[[nodiscard]] bool check_pdf_numbers(const pdf::PdfExtraction& extraction, Report& report);

// pdf.number.matches_record: every sighting names `record.pith_number`;
// pdf.metadata.matches_record: the XMP pith properties that copy the record
// (canonicalRecord, canonicalSha256, receiptSignature, keyId, keyFingerprint)
// equal the verified ones — an edited copy fails, naming the property.
void check_pdf_record_binding(const pdf::PdfExtraction& extraction, const registry::DocumentContent& record, Report& report);

// --- Title candidates ------------------------------------------------------

// The title candidates of a PDF: XMP dc:title, then Info /Title (the title
// binding, check/visible.hpp: check_title_binding, judges them).
[[nodiscard]] std::vector<TitleCandidate> title_candidates(const pdf::PdfExtraction& extraction,
                                                           const std::optional<std::string>& info_title);

// --- Byte binding --------------------------------------------------------

struct ByteBinding {
  CheckStatus status = CheckStatus::skip;
  std::string code;    // pdf.bytes.prefix_intact | prefix_broken | rewritten | unbound
  std::string detail;
  std::size_t later_revisions = 0;  // revisions after the pith update
  std::uint64_t original_length = 0;  // when bound
};

// With originalSha256/originalLength (as found in XMP, text): the first
// originalLength bytes of `file` must hash to originalSha256 (else
// prefix_broken, a failure — or pdf.bytes.rewritten, a warning, when the
// file is no longer the stamped bytes plus appended revisions: no revision
// ends where the stamped bytes ended, as after qpdf, pikepdf, "save as" or
// arXiv's watermark, which rewrite every byte), and exactly one revision — the pith update —
// should follow them; more are later edits (counted, a warning). Without
// them: unbound (skip; e.g. a PDF stamped from LaTeX by pith.sty).
// Revisions after the stamped bytes are counted from `xref_section_offsets`
// (the reader's /Prev chain: sections at or after originalLength) when given,
// else from the `startxref … %%EOF` tails in the bytes.
[[nodiscard]] ByteBinding bind_bytes(std::string_view file, const std::optional<std::string>& original_sha256,
                                     const std::optional<std::string>& original_length,
                                     const std::optional<std::vector<std::uint64_t>>& xref_section_offsets = {});

// Adds the ByteBinding check and, when later revisions exist,
// pdf.bytes.later_revisions (warn, with the count).
ByteBinding check_byte_binding(std::string_view file, const pdf::PdfExtraction& extraction, Report& report,
                               const std::optional<std::vector<std::uint64_t>>& xref_section_offsets = {});

// --- After a rewrite or an edit: the page text fingerprint ----------------

// After a full rewrite (pdf.bytes.rewritten: qpdf, pikepdf, "save as"), the
// stamped bytes are gone; after a later revision (pdf.bytes.later_revisions)
// they are intact but no longer what a reader sees. The page text
// fingerprint pith-stamp recorded (XMP pith:pageTextSha256,
// pdf/page_fingerprint.hpp) still tells a re-save from an edited paper:
//   pdf.bytes.rewritten_text_unchanged / edited_text_unchanged  pass  every fingerprinted page reads as stamped
//   pdf.bytes.rewritten_text_changed / edited_text_changed      warn  naming the pages whose text changed: the
//                                                              verdict is `altered` (Report::alteration)
//   pdf.bytes.rewritten_text_unknown / edited_text_unknown      skip  malformed fingerprint, or the pages could not be read
// The fingerprint is unsigned (anyone who edits a page can rewrite it): it
// catches an edit that did not bother to, never binds, and can only take
// `verified` away (docs/security.md). Nothing is added when the stamp
// recorded no fingerprint (an older pith-stamp).

// How the stamped bytes came to be other than the file: which codes and words.
enum class ChangeSinceStamp { rewritten, edited };

// `stamped`: the XMP value as found; `now`: the file's pages as read by the
// parsing child (nullopt: not read). Adds the check and report.extra["page_text"].
void check_page_text(ChangeSinceStamp how, const std::optional<std::string>& stamped,
                     const std::optional<pdf::PageFingerprints>& now, Report& report);

// --- Digital signatures (listed, not validated) -----------------------------

// pith-check lists the digital signatures a PDF carries beside its verdict,
// for information: pith does not validate them (pdfsig, Acrobat and other
// readers do) and they change no verdict. What each covers is told against
// the file's length: a signature over fewer bytes than the file has was made
// before a later update (a pith stamp is one), as any reader reports it
// ("not total document signed").

// report.extra["signatures"]: one object per signature (field, signer,
// signed_at, sub_filter, signed_length, bytes_after, certification).
// Nothing when there are none.
void list_signatures(Report& report, const std::vector<pdf::PdfSignature>& signatures, std::uint64_t file_length);

// The human report's lines for report.extra["signatures"]:
// "  signatures (not validated by pith): 1: field Sig1, signed by …"; empty when none.
[[nodiscard]] std::string signatures_text(const Report& report);

// --- The whole check ---------------------------------------------------------

// Verifies a PDF from its metadata (read by read_pdf_metadata) and its bytes:
// extraction, then the record — from the embedded pith-bundle.json (fully
// verified: events, bundle signature, state), else from the XMP copy of the
// record and receipt (number <-> record hash, receipt with a pinned key) —
// then record, title and byte binding. Offline: what the resolver says now
// is the caller's business (report.pith_number names what to resolve; the
// verified copy travels beside the report as `carried`).
// Never throws; a PDF without a number gives verdict not_found.
//
// Title edited after stamping: when the current title does not match but the
// stamped bytes are intact, later revisions exist, and the title of the
// stamped revision (from `stamped_titles(originalLength)`) does match, the
// finding is pdf.title.changed_after_stamping (warn: the paper is the one
// stamped, its title metadata was edited later), not a mismatch. A mismatch
// with no later revision (the stamp's own revision edited) or with a stamped
// title that also mismatches (metadata copied from another paper) fails.
//
// With a verified record the report requires a content binding
// (Report::requires_content_binding): `verified` needs the title or the
// abstract seen on page 1, or arXiv's watermark seen naming the record's
// paper; else `unbound`.
using StampedTitles = std::function<std::vector<TitleCandidate>(std::uint64_t original_length)>;
// What is read beyond the metadata, on demand (only for a verified record).
struct PdfProbes {
  StampedTitles stamped_titles;
  std::function<pdf::PageText()> page_text;  // page 1 as a viewer shows it now
  // What page 1 draws (the page, its contents, resources, annotations and
  // their appearances, the page tree above it) redefined by revisions after
  // pith's update (the stamp that wrote originalLength): page 1 changed
  // after stamping.
  std::function<std::vector<std::string>(std::uint64_t original_length)> page_one_changes;
  // Every page's text fingerprint as the file reads now, for a file rewritten
  // as a whole or edited after stamping (check_page_text above); nullopt when not read.
  std::function<std::optional<pdf::PageFingerprints>()> page_fingerprints;
  // The letters page 1 draws in some of its lines, read from their pixels
  // (the glyph check, check/visible.hpp); empty: they cannot be read, and a
  // title does not bind.
  DrawnReader read_drawn;
};
[[nodiscard]] FileCheck check_pdf_metadata(std::string_view file_bytes, const pdf::PdfMetadata& metadata,
                                        const registry::TrustStore& trust, std::string_view name,
                                        const PdfProbes& probes = {});

// A PDF that names a number but carries no record (built with plain
// pith.sty, or a record-less stamp): check_pdf_metadata leaves
// `checked.evidence` (what page 1 and the title metadata show). Given the
// record resolved for that number (resolver, mirrors, cache; offline: cache
// and file:// only), this verifies it like a carried one and binds it to the
// evidence: pdf.record.resolved (pass), the record's checks, the number
// check, the title bindings. When nothing could be resolved:
// pdf.record.resolved (skip) with how to retry; the verdict stays
// unverifiable. The online checks are the caller's (check/online.hpp
// apply_lookup: this PDF verdict never asks what the registry says now).
void bind_resolved_record(FileCheck& checked, const Result<resolver::Resolution>& resolved);

// Whether `head` (the first bytes of a file) is a PDF: `%PDF-` within the
// first 1024 bytes, as readers accept it, or (its header line lost or
// mangled, and not JSON) `PDF-1.`/`PDF-2.` or an `N G obj` in them.
[[nodiscard]] bool looks_like_pdf(std::string_view head);

}  // namespace pith::check
