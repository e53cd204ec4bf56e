// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/check/pdf.hpp"

#include "pith/base/check_codes.hpp"
#include "pith/base/crypto.hpp"
#include "pith/base/terminal_text.hpp"
#include "pith/check/drawn_title.hpp"
#include "pith/pdf/facts.hpp"
#include "pith/carrier/vocabulary.hpp"
#include "pith/signed_json/strict.hpp"
#include "pith/registry/documents.hpp"
#include "pith/registry/identifier.hpp"
#include "pith/registry/number.hpp"
#include "pith/registry/title.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>

namespace pith::check {

// --- The whole check ---------------------------------------------------------

namespace {

// The record as the XMP carries it (pith.sty or pith-stamp), verified like a
// resolver answer holding it: the record's hash against its number, and the
// receipt (from its XMP parts: the signature is over the raw canonical_sha256
// bytes) against the trust store. Strict parsing first: a record with
// duplicate keys must not be collapsed into something that verifies.
Result<registry::DocumentVerification> verify_xmp_record(const pdf::XmpReadout& xmp, const registry::TrustStore& trust) {
  auto record = signed_json::parse_strict_json(*xmp.canonical_record);
  if (!record) return std::unexpected(record.error().within("XMP pith:canonicalRecord"));
  std::optional<registry::ReceiptParts> receipt;
  if (xmp.receipt_signature && xmp.key_id) {
    receipt = registry::ReceiptParts{*xmp.key_id, xmp.key_fingerprint.value_or(""), *xmp.receipt_signature};
  }
  return registry::verify_record_with_receipt(*record, xmp.canonical_sha256.value_or(""), xmp.number.value_or(""),
                                              receipt, trust, "XMP pith:canonicalRecord");
}

// Verifies the record the PDF carries, preferring the embedded bundle. Its
// checks go into `report`; the verification is returned whatever its
// verdict, for the binding checks against what the PDF carries.
std::optional<registry::DocumentVerification> verify_carried_record(const pdf::PdfMetadata& metadata, const pdf::PdfExtraction& extraction,
                                                    const registry::TrustStore& trust, Report& report) {
  const std::string bundle_name = std::string("embedded ") + carrier::embedded_name;
  if (metadata.embedded_bundle_count > 1) {
    report.warn(check_code::pdf_bundle_duplicate, std::to_string(metadata.embedded_bundle_count) + " embedded files are named " +
                                            carrier::embedded_name + ": the first is checked, the others are ignored "
                                            "(another reader may show another one)");
  }
  if (metadata.embedded_bundle) {
    auto verified = registry::verify_document(*metadata.embedded_bundle, trust, bundle_name);
    if (!verified) {
      report.fail(check_code::pdf_record_source, verified.error().describe());
      return std::nullopt;
    }
    report.pass(check_code::pdf_record_source, bundle_name + " (" + to_string(verified->kind()) + ")");
    report.merge(verified->report);
    return std::move(*verified);
  }
  if (extraction.xmp && extraction.xmp->canonical_record) {
    auto verified = verify_xmp_record(*extraction.xmp, trust);
    if (!verified) {
      report.fail(check_code::pdf_record_source, verified.error().describe());
      return std::nullopt;
    }
    report.pass(check_code::pdf_record_source, std::string("XMP pith:canonicalRecord and pith:receiptSignature (no embedded ") +
                                         carrier::embedded_name + ")");
    report.merge(verified->report);
    return std::move(*verified);
  }
  report.skip(check_code::pdf_record_source, std::string("the PDF carries no record (no embedded ") + carrier::embedded_name +
                                       ", no XMP pith:canonicalRecord): resolve the number to verify it");
  return std::nullopt;
}

}  // namespace

namespace {

// The content bindings of a verified record to the PDF, with the stamped
// bytes' state, as details.bindings.
void check_content_bindings(const ByteBinding& bytes, const pdf::PdfExtraction& extraction,
                            const pdf::PdfMetadata& metadata, const registry::DocumentContent& record,
                            const PdfProbes& probes, Report& report) {
  report.requires_content_binding = true;
  nlohmann::json bindings = nlohmann::json::object();
  const BindingState bytes_state = bytes.code == check_code::pdf_bytes_prefix_intact   ? BindingState::match
                                   : bytes.code == check_code::pdf_bytes_prefix_broken ? BindingState::mismatch
                                   : bytes.code == check_code::pdf_bytes_rewritten     ? BindingState::undetermined
                                                                             : BindingState::absent;
  bindings["stamped_bytes"] = binding_json(bytes_state, bytes.detail);

  // Page 1 changed by a revision after pith's update: a reader sees the
  // final rendering, and only that is judged (the visible bindings below).
  if (bytes.status == CheckStatus::pass && bytes.later_revisions > 0 && probes.page_one_changes) {
    const auto changed = probes.page_one_changes(bytes.original_length);
    if (!changed.empty()) {
      std::string objects;
      for (const auto& c : changed) objects += (objects.empty() ? "" : ", ") + c;
      report.warn(check_code::pdf_page1_changed_after_stamping,
                  "a revision after pith's update changes what page 1 draws (" + objects +
                      "): only what the final page shows is judged");
    }
  }
  std::optional<std::vector<TitleCandidate>> stamped;
  if (bytes.status == CheckStatus::pass && bytes.later_revisions > 0 && probes.stamped_titles) {
    stamped = probes.stamped_titles(bytes.original_length);
  }
  const std::optional<pdf::PageText> page =
      probes.page_text ? std::optional<pdf::PageText>(probes.page_text()) : std::nullopt;
  check_page_and_title(page ? &*page : nullptr, title_candidates(extraction, metadata.info_title),
                       record.canonical_record, stamped ? &*stamped : nullptr, report, bindings, probes.read_drawn);
}

}  // namespace

namespace {

// A PDF that carries no record: its record is resolved later, when the
// file's bytes may be gone. The lines of page 1 that show its title
// metadata (the record's title, in a genuine paper) are read now, as the
// glyph check reads them; nothing when no such lines are seen.
std::optional<DrawnReading> read_metadata_title(const pdf::PageText& page, const std::vector<TitleCandidate>& titles,
                                                const DrawnReader& read) {
  if (!read || page.problem) return std::nullopt;
  for (const auto& t : titles) {
    const auto span = find_visible_span(page.seen_lines(), registry::title_canon_sha256(t.title));
    if (!span || span->line_count > pdf::max_drawn_lines || span->first_line + span->line_count > page.boxes.size()) continue;
    const auto first = page.boxes.begin() + static_cast<std::ptrdiff_t>(span->first_line);
    const std::vector<pdf::Box> boxes(first, first + static_cast<std::ptrdiff_t>(span->line_count));
    // Known to the shape memory: read without OCR, kept as a reading of these lines.
    if (auto remembered = remembered_title_letters(page, *span))
      return DrawnReading{span->first_line, span->line_count, std::move(*remembered), {}};
    auto line = read(boxes, pdf::ReadMode::line);
    if (!line) return std::nullopt;
    DrawnReading reading{span->first_line, span->line_count, std::move(*line), {}};
    if (!drawn_matches(compare_drawn_title(span->text, reading.line))) {
      if (auto block = read(boxes, pdf::ReadMode::block)) reading.block = std::move(*block);
    }
    return reading;
  }
  return std::nullopt;
}

// The glyph check's reader for a resolved record: the reading made while
// the bytes were at hand, for those very lines only.
DrawnReader reader_of(const pdf::PageText& page, const std::optional<DrawnReading>& drawn) {
  return [&page, drawn](const std::vector<pdf::Box>& boxes, pdf::ReadMode mode) -> Result<std::vector<std::string>> {
    const auto same_lines = [&] {
      if (!drawn || boxes.size() != drawn->line_count || drawn->first_line + drawn->line_count > page.boxes.size()) return false;
      for (std::size_t i = 0; i < boxes.size(); ++i) {
        if (!(boxes[i] == page.boxes[drawn->first_line + i])) return false;
      }
      return true;
    };
    if (!same_lines())
      return fail(ErrorKind::internal, "glyph check", "only the lines that show the PDF's title metadata were read");
    if (mode == pdf::ReadMode::available) return std::vector<std::string>{};
    const auto& read = mode == pdf::ReadMode::line ? drawn->line : drawn->block;
    if (read.size() != boxes.size()) return fail(ErrorKind::internal, "glyph check", "these lines were not read as a block");
    return read;
  };
}

// Where the number is (pdf::where_is_the_number, as pith-stamp asks): with
// no metadata naming one, the number page 1 prints becomes the one sighting
// (a hint: the carries-nothing path resolves it and binds by title); with
// metadata naming one, a different printed number is said.
void take_printed_hint(pdf::PdfExtraction& extraction, const std::vector<pdf::NumberSighting>& printed, Report& report) {
  const auto place = pdf::where_is_the_number(extraction, printed);
  if (!place) return;
  if (place->hint) {
    extraction.sightings.push_back(printed.front());
    return;
  }
  if (const auto other = pdf::printed_otherwise(printed, place->number)) {
    report.warn(check_code::pdf_number_printed_differs,
                "page 1 prints " + other->number.to_string() + " but " + place->where + " names " +
                    place->number.to_string() + ": a reader sees another number than the one checked");
  }
}

}  // namespace

FileCheck check_pdf_metadata(std::string_view file_bytes, const pdf::PdfMetadata& metadata, const registry::TrustStore& trust,
                             std::string_view name, const PdfProbes& probes) {
  FileCheck checked;
  Report& report = checked.report;
  report.input = std::string(name);
  report.input_kind = "pdf";
  auto extraction = pdf::extract_pith_numbers(metadata);
  if (!extraction) {
    report.error = Error{extraction.error().kind, {}, extraction.error().describe()};
    return checked;
  }
  if (const auto titles = title_candidates(*extraction, metadata.info_title); !titles.empty()) checked.title = titles.front().title;
  // The record is verified before page 1's text is asked for: in a check of
  // one PDF that text comes from a second child, and the signatures are
  // checked while it reads (issue 32). Its checks join the report where they
  // always stood, after the numbers'.
  Report record_checks;
  const auto verification = verify_carried_record(metadata, *extraction, trust, record_checks);
  const std::vector<pdf::NumberSighting> printed =
      probes.page_text ? pdf::printed_numbers(probes.page_text().seen_lines()) : std::vector<pdf::NumberSighting>{};
  take_printed_hint(*extraction, printed, report);
  if (!check_pdf_numbers(*extraction, report)) {
    if (!extraction->found()) return checked;
  }
  report.merge(record_checks);
  const registry::DocumentContent* record = verification ? &verification->content() : nullptr;
  if (record) {
    if (record->pith_number) report.pith_number = record->pith_number->to_string();
    checked.carried = CarriedCopy::of(*record, verification->report);  // for the online comparison
    check_pdf_record_binding(*extraction, *record, report);
  }
  const auto bytes = check_byte_binding(file_bytes, *extraction, report, metadata.xref_section_offsets);
  const bool rewritten = bytes.code == check_code::pdf_bytes_rewritten;
  const bool edited = bytes.status == CheckStatus::pass && bytes.later_revisions > 0;
  if ((rewritten || edited) && extraction->xmp) {
    check_page_text(rewritten ? ChangeSinceStamp::rewritten : ChangeSinceStamp::edited, extraction->xmp->page_text_sha256,
                    probes.page_fingerprints ? probes.page_fingerprints() : std::nullopt, report);
  }
  if (record) check_content_bindings(bytes, *extraction, metadata, *record, probes, report);
  const bool carries_nothing = !verification && !report.has_failure() && report.find(check_code::pdf_record_source) &&
                               report.find(check_code::pdf_record_source)->status == CheckStatus::skip;
  if (carries_nothing && extraction->conflicts().empty()) {
    PdfEvidence evidence;
    const auto full = extraction->number();
    evidence.number = full ? full->to_string() : extraction->sightings.front().number.to_string();
    for (const auto& t : title_candidates(*extraction, metadata.info_title)) evidence.titles.emplace_back(t.where, t.title);
    if (probes.page_text) {
      evidence.page = probes.page_text();
    } else {
      evidence.page.problem = "page 1's text was not read";
    }
    evidence.drawn = read_metadata_title(evidence.page, title_candidates(*extraction, metadata.info_title), probes.read_drawn);
    checked.evidence = std::move(evidence);
  }
  return checked;
}

void bind_resolved_record(FileCheck& checked, const Result<resolver::Resolution>& resolved) {
  if (!checked.evidence) return;
  Report& report = checked.report;
  const PdfEvidence& evidence = *checked.evidence;
  if (!resolved) {
    report.skip(check_code::pdf_record_resolved,
                "the PDF carries no record and " + evidence.number +
                    " could not be resolved: check again online, or with --resolver file://MIRROR or the --cache-dir "
                    "that holds it");
    return;
  }
  const registry::VerifiedRecord& record = resolved->record;
  const std::string record_number = record.number().to_string();
  report.pass(check_code::pdf_record_resolved, "the PDF carries no record; " + record_number + " resolved from " +
                                         std::string(resolver::to_string(resolved->origin)) + " (" + resolved->source + ")");
  report.merge(record.report);
  report.pith_number = record_number;
  if (registry::same_number(record.number(), evidence.number)) {
    report.pass(check_code::pdf_number_matches_record, "the PDF's " + evidence.number + " names " + record_number);
  } else {
    report.fail(check_code::pdf_number_matches_record,
                "the PDF names " + evidence.number + " but the resolved record is " + record_number);
  }
  report.requires_content_binding = true;
  nlohmann::json bindings = nlohmann::json::object();
  bindings["stamped_bytes"] = binding_json(BindingState::absent, "the PDF carries no stamp: the record was resolved");
  std::vector<TitleCandidate> titles;
  for (const auto& [where, title] : evidence.titles) titles.push_back({where, title});
  check_page_and_title(&evidence.page, titles, record.canonical_record, nullptr, report, bindings,
                       reader_of(evidence.page, evidence.drawn));
}

namespace {
// `N G obj` somewhere in `head`: the body of a PDF whose header line was
// lost or mangled (pdf.js bug1606566, qpdf's oss-fuzz inputs), which poppler
// still opens.
bool holds_object_header(std::string_view head) {
  const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\0'; };
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  for (std::size_t at = head.find("obj"); at != std::string_view::npos; at = head.find("obj", at + 3)) {
    std::size_t p = at;
    bool ok = true;
    for (int field = 0; field < 2 && ok; ++field) {
      const std::size_t spaces = p;
      while (p > 0 && space(head[p - 1])) --p;
      const std::size_t digits = p;
      while (p > 0 && digit(head[p - 1])) --p;
      ok = p < digits && digits < spaces;
    }
    if (ok) return true;
  }
  return false;
}
}  // namespace

bool looks_like_pdf(std::string_view head) {
  head = head.substr(0, 1024);
  if (head.find("%PDF-") != std::string_view::npos) return true;
  // Registry documents are JSON: never taken for a PDF body.
  const std::size_t first = head.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos || head[first] == '{' || head[first] == '[' || head.starts_with("\xEF\xBB\xBF"))
    return false;
  return head.find("PDF-1.") != std::string_view::npos || head.find("PDF-2.") != std::string_view::npos ||
         holds_object_header(head);
}

}  // namespace pith::check
