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
namespace {

std::optional<std::uint64_t> parse_decimal(std::string_view text) {
  if (text.empty() || text.size() > 20) return std::nullopt;
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

}  // namespace

// --- Numbers -------------------------------------------------------------

bool check_pdf_numbers(const pdf::PdfExtraction& extraction, Report& report) {
  auto sources = nlohmann::json::array();
  for (const auto& s : extraction.sightings) {
    sources.push_back({{"source", to_string(s.source)}, {"where", s.where}, {"number", s.number.to_string()}});
    // The URL as found, for the parent's resolver-host check (resolver/resolver_host.hpp).
    if (!s.url.empty()) sources.back()["url"] = s.url;
  }
  report.extra["pith_sources"] = std::move(sources);
  if (!extraction.problems.empty()) report.extra["metadata_problems"] = extraction.problems;

  if (!extraction.found()) {
    report.number_found = false;
    report.skip(check_code::pdf_number_found,
                "no Pith Number in XMP, the Info dictionary, an embedded pith-bundle.json, a page-1 resolver link or "
                "page 1's text");
    return false;
  }
  const auto conflicts = extraction.conflicts();
  if (!conflicts.empty()) {
    for (const auto& conflict : conflicts) report.fail(check_code::pdf_number_conflict, conflict.describe());
    return false;
  }
  std::string places;
  for (const auto& s : extraction.sightings) places += (places.empty() ? "" : ", ") + s.where;
  const auto number = extraction.number();
  if (number) report.pith_number = number->to_string();
  const registry::PithNumber& shown = number ? *number : extraction.sightings.front().number;
  report.number_as_written = shown.to_string();
  const bool printed_only = std::all_of(extraction.sightings.begin(), extraction.sightings.end(),
                                        [](const pdf::NumberSighting& s) { return s.source == pdf::NumberSource::page_text; });
  report.pass(check_code::pdf_number_found,
              shown.to_string() + " in " + places +
                  (printed_only ? " only (no metadata names it: printed text is a hint, so the record is resolved and "
                                  "bound by title, never verified from the text)"
                                : ""));
  return true;
}

void check_pdf_record_binding(const pdf::PdfExtraction& extraction, const registry::DocumentContent& record, Report& report) {
  if (!record.pith_number) return;  // the record itself failed: its checks say why
  const registry::PithNumber& record_number = *record.pith_number;
  bool numbers_ok = true;
  for (const auto& s : extraction.sightings) {
    if (!s.number.matches(record_number)) {
      numbers_ok = false;
      report.fail(check_code::pdf_number_matches_record,
                  s.where + " names " + s.number.to_string() + " but the verified record is " + record_number.to_string());
    }
  }
  if (numbers_ok) report.pass(check_code::pdf_number_matches_record, "every number in the PDF names " + record_number.to_string());

  if (!extraction.xmp || !extraction.xmp->has_pith_properties()) return;
  const auto& xmp = *extraction.xmp;
  struct Copy {
    const char* property;
    const std::optional<std::string>& found;
    const std::string& verified;
  };
  const Copy copies[] = {
      {"pith:canonicalRecord", xmp.canonical_record, record.canonical_json},
      {"pith:canonicalSha256", xmp.canonical_sha256, record.canonical_sha256},
      {"pith:receiptSignature", xmp.receipt_signature, record.receipt_signature_b64},
      {"pith:keyId", xmp.key_id, record.key_id},
      {"pith:keyFingerprint", xmp.key_fingerprint, record.key_fingerprint},
  };
  bool metadata_ok = true;
  for (const auto& copy : copies) {
    // A property the verified document has no value for (a bare record has
    // no receipt) cannot be compared.
    if (!copy.found || copy.verified.empty()) continue;
    if (*copy.found != copy.verified) {
      metadata_ok = false;
      report.fail(check_code::pdf_metadata_matches_record,
                  std::string("XMP ") + copy.property + " differs from the verified record's");
    }
  }
  if (metadata_ok) report.pass(check_code::pdf_metadata_matches_record, "the XMP pith properties copy the verified record");
}

// --- Title candidates ------------------------------------------------------

std::vector<TitleCandidate> title_candidates(const pdf::PdfExtraction& extraction,
                                             const std::optional<std::string>& info_title) {
  std::vector<TitleCandidate> out;
  if (extraction.xmp && extraction.xmp->title) out.push_back({"XMP dc:title", *extraction.xmp->title});
  if (info_title) out.push_back({"Info /Title", *info_title});
  return out;
}

// --- Byte binding --------------------------------------------------------

namespace {

ByteBinding rewritten(std::uint64_t length) {
  return {CheckStatus::warn, check_code::pdf_bytes_rewritten,
          "the file was rewritten as a whole (qpdf, pikepdf, \"save as\", arXiv's watermark): the " +
              std::to_string(length) +
              " stamped bytes are no longer its first bytes, so only its content can bind it to the record",
          0};
}

}  // namespace

ByteBinding bind_bytes(std::string_view file, const std::optional<std::string>& original_sha256,
                       const std::optional<std::string>& original_length,
                       const std::optional<std::vector<std::uint64_t>>& xref_section_offsets) {
  if (!original_sha256 && !original_length) {
    return {CheckStatus::skip, check_code::pdf_bytes_unbound,
            "no pith:originalSha256 / pith:originalLength (not stamped by pith-stamp)", 0};
  }
  if (!original_sha256 || !original_length) {
    return {CheckStatus::fail, check_code::pdf_bytes_prefix_broken,
            std::string("XMP has pith:") + (original_sha256 ? "originalSha256" : "originalLength") + " without pith:" +
                (original_sha256 ? "originalLength" : "originalSha256"),
            0};
  }
  const auto length = parse_decimal(*original_length);
  if (!length) return {CheckStatus::fail, check_code::pdf_bytes_prefix_broken, "XMP pith:originalLength is not a byte count", 0};
  if (!is_sha256_hex(*original_sha256)) {
    return {CheckStatus::fail, check_code::pdf_bytes_prefix_broken, "XMP pith:originalSha256 is not a lower-case hex SHA-256", 0};
  }
  if (*length >= file.size() && sha256_hex(file) != *original_sha256) return rewritten(*length);
  if (*length >= file.size()) {
    return {CheckStatus::fail, check_code::pdf_bytes_prefix_broken,
            "the file is " + std::to_string(file.size()) + " bytes, but the stamp covers the first " +
                std::to_string(*length) + " and was appended after them",
            0};
  }
  const auto prefix = file.substr(0, static_cast<std::size_t>(*length));
  const auto actual = sha256_hex(prefix);
  // A writer that rewrites the whole file (qpdf, pikepdf, "save as") leaves
  // one revision. Several revisions whose first `length` bytes no longer end
  // one: bytes were inserted or removed before an update that is still
  // appended (the stamp's) — tampering, not a rewrite.
  if (actual != *original_sha256 && !pdf::ends_a_revision(prefix) && pdf::count_revision_ends(file) >= 2) {
    return {CheckStatus::fail, check_code::pdf_bytes_prefix_broken,
            "bytes were inserted or removed before the stamp's update, which is still appended: the first " +
                std::to_string(*length) + " bytes no longer end a revision",
            0};
  }
  if (actual != *original_sha256 && !pdf::ends_a_revision(prefix)) return rewritten(*length);
  if (actual != *original_sha256) {
    return {CheckStatus::fail, check_code::pdf_bytes_prefix_broken,
            "the first " + std::to_string(*length) + " bytes (the paper before stamping) changed: SHA-256 " + actual +
                ", stamped " + *original_sha256,
            0};
  }
  const auto after =
      xref_section_offsets
          ? static_cast<std::size_t>(std::count_if(xref_section_offsets->begin(), xref_section_offsets->end(),
                                                   [&](std::uint64_t offset) { return offset >= *length; }))
          : pdf::count_revision_ends(file, static_cast<std::size_t>(*length));
  if (after == 0) {
    return {CheckStatus::fail, check_code::pdf_bytes_prefix_broken,
            "no revision that chains to the document follows the " + std::to_string(*length) + " stamped bytes", 0};
  }
  return {CheckStatus::pass, check_code::pdf_bytes_prefix_intact,
          "the first " + std::to_string(*length) + " bytes are the paper as stamped (SHA-256 " + actual + ")", after - 1,
          *length};
}

ByteBinding check_byte_binding(std::string_view file, const pdf::PdfExtraction& extraction, Report& report,
                               const std::optional<std::vector<std::uint64_t>>& xref_section_offsets) {
  const std::optional<std::string> none;
  const auto& sha = extraction.xmp ? extraction.xmp->original_sha256 : none;
  const auto& length = extraction.xmp ? extraction.xmp->original_length : none;
  const auto binding = bind_bytes(file, sha, length, xref_section_offsets);
  report.add(binding.code, binding.status, binding.detail);
  if (binding.later_revisions > 0) {
    report.warn(check_code::pdf_bytes_later_revisions,
                std::to_string(binding.later_revisions) + " later revision(s) appended after the pith update: the "
                "PDF was edited after stamping (the stamped bytes are intact)");
  } else if (binding.status == CheckStatus::pass) {
    report.pass(check_code::pdf_bytes_later_revisions, "nothing appended after the pith update");
  }
  return binding;
}

// --- After a rewrite or an edit: the page text fingerprint ----------------

namespace {

constexpr const char* unsigned_note =
    " (an unsigned fingerprint recorded by pith-stamp: it tells a re-save or an edit from the paper as stamped, not "
    "from a determined forger)";

struct PageTextWords {
  const char* unchanged;
  const char* changed;
  const char* unknown;
  const char* how;  // what happened to the file, as the details start
};

PageTextWords words_for(ChangeSinceStamp how) {
  if (how == ChangeSinceStamp::rewritten)
    return {check_code::pdf_bytes_rewritten_text_unchanged, check_code::pdf_bytes_rewritten_text_changed,
            check_code::pdf_bytes_rewritten_text_unknown, "rewritten"};
  return {check_code::pdf_bytes_edited_text_unchanged, check_code::pdf_bytes_edited_text_changed,
          check_code::pdf_bytes_edited_text_unknown, "edited after stamping"};
}

std::string page_list(const std::vector<std::uint64_t>& pages) {
  std::string out;
  for (std::size_t i = 0; i < pages.size(); ++i) {
    if (i == 20) return out + " and " + std::to_string(pages.size() - i) + " more";
    out += (out.empty() ? "" : ", ") + std::to_string(pages[i]);
  }
  return out;
}

void record_details(ChangeSinceStamp how, nlohmann::json details, Report& report) {
  details["how"] = how == ChangeSinceStamp::rewritten ? "rewritten" : "edited";
  report.extra["page_text"] = std::move(details);
}

void unknown(ChangeSinceStamp how, const std::string& why, Report& report) {
  const PageTextWords words = words_for(how);
  report.skip(words.unknown, std::string(words.how) + "; whether its text changed is not known: " + why);
  record_details(how, {{"state", "unknown"}}, report);
}

// "text changed on pages 3, 7; the stamped paper had 10 pages, this file has 9"
std::string what_changed(const pdf::PageTextComparison& c, const pdf::PageFingerprints& stamped,
                         const pdf::PageFingerprints& now) {
  std::string what;
  if (!c.changed_pages.empty()) {
    what = std::string("text changed on page") + (c.changed_pages.size() > 1 ? "s " : " ") + page_list(c.changed_pages);
  }
  if (c.page_count_changed) {
    what += (what.empty() ? "" : "; ") + std::string("the stamped paper had ") + std::to_string(stamped.page_count) +
            " pages, this file has " + std::to_string(now.page_count);
  }
  return what;
}

}  // namespace

void check_page_text(ChangeSinceStamp how, const std::optional<std::string>& stamped_value,
                     const std::optional<pdf::PageFingerprints>& now, Report& report) {
  if (!stamped_value) return;
  auto stamped = pdf::PageFingerprints::from_property(*stamped_value);
  if (!stamped) return unknown(how, stamped.error().describe(), report);
  if (!now) return unknown(how, "the pages' text was not read", report);
  if (now->sha256.empty()) return unknown(how, now->problem.value_or("no page's text could be read"), report);

  const PageTextWords words = words_for(how);
  const pdf::PageTextComparison c = pdf::compare_page_text(*stamped, *now);
  nlohmann::json details = {{"pages_stamped", stamped->page_count},
                            {"pages_now", now->page_count},
                            {"pages_compared", c.pages_compared},
                            {"changed_pages", c.changed_pages}};
  std::string not_compared;
  if (c.pages_compared < std::min(stamped->page_count, now->page_count)) {
    not_compared = "; pages " + std::to_string(c.pages_compared + 1) + " on were not fingerprinted";
  }
  if (c.unchanged()) {
    details["state"] = "unchanged";
    report.pass(words.unchanged,
                std::string(words.how) + ", text unchanged: the text of " +
                    (c.pages_compared == 1 ? std::string("its page") : "all " + std::to_string(c.pages_compared) + " pages") +
                    " is the text stamped" +
                    (c.watermark_only_on_page_one ? " (page 1 adds only an arXiv-style watermark line)" : "") +
                    not_compared + unsigned_note);
  } else {
    details["state"] = "changed";
    // The headline (Report::headline) shows what comes before " (": the change.
    report.alteration(words.changed, what_changed(c, *stamped, *now) + " since stamping, " + words.how +
                                         not_compared + unsigned_note);
  }
  record_details(how, std::move(details), report);
}

// --- Digital signatures (listed, not validated) -----------------------------

void list_signatures(Report& report, const std::vector<pdf::PdfSignature>& signatures, std::uint64_t file_length) {
  if (signatures.empty()) return;
  nlohmann::json list = nlohmann::json::array();
  for (const auto& s : signatures) {
    nlohmann::json j{{"field", s.field}, {"sub_filter", s.sub_filter}};
    if (!s.signer.empty()) j["signer"] = s.signer;
    if (!s.signed_at.empty()) j["signed_at"] = s.signed_at;
    if (s.signed_length) {
      j["signed_length"] = *s.signed_length;
      j["bytes_after"] = *s.signed_length <= file_length ? file_length - *s.signed_length : 0;
    }
    if (s.certification) j["certification"] = *s.certification;
    list.push_back(std::move(j));
  }
  report.extra["signatures"] = std::move(list);
}

namespace {

// A PDF date `D:YYYYMMDDHHmmSS…` as `YYYY-MM-DD HH:mm:SS…` (the rest, a time
// zone, kept); anything else as written.
std::string readable_date(const std::string& pdf_date) {
  const std::string_view d = std::string_view(pdf_date).substr(pdf_date.starts_with("D:") ? 2 : 0);
  if (d.size() < 14 || d.substr(0, 14).find_first_not_of("0123456789") != std::string_view::npos) return pdf_date;
  return std::string(d.substr(0, 4)) + "-" + std::string(d.substr(4, 2)) + "-" + std::string(d.substr(6, 2)) + " " +
         std::string(d.substr(8, 2)) + ":" + std::string(d.substr(10, 2)) + ":" + std::string(d.substr(12, 2)) +
         std::string(d.substr(14));
}

}  // namespace

std::string signatures_text(const Report& report) {
  const auto it = report.extra.find("signatures");
  if (it == report.extra.end() || !it->is_array() || it->empty()) return {};
  std::string out = "  signatures (" + std::to_string(it->size()) + ", not validated by pith):\n";
  const auto text = [](const nlohmann::json& j, const char* k) {
    return j.contains(k) && j[k].is_string() ? j[k].get<std::string>() : std::string();
  };
  for (const auto& s : *it) {
    if (!s.is_object()) continue;
    std::string line = "    field '" + text(s, "field") + "'";
    if (!text(s, "signer").empty()) line += ", signer '" + text(s, "signer") + "'";
    if (!text(s, "signed_at").empty()) line += ", signed " + readable_date(text(s, "signed_at"));
    if (!text(s, "sub_filter").empty()) line += ", " + text(s, "sub_filter");
    if (s.contains("certification") && s["certification"].is_number_integer())
      line += ", certifies the document (DocMDP /P " + std::to_string(s["certification"].get<int>()) + ")";
    if (s.contains("signed_length") && s["signed_length"].is_number_unsigned()) {
      const auto after = s.value("bytes_after", std::uint64_t{0});
      line += after == 0 ? ", covers the whole file"
                         : ", covers the first " + std::to_string(s["signed_length"].get<std::uint64_t>()) +
                               " bytes (" + std::to_string(after) + " bytes added after signing)";
    }
    out += terminal_safe(line) + "\n";
  }
  return out;
}

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
  const std::vector<pdf::NumberSighting> printed =
      probes.page_text ? pdf::printed_numbers(probes.page_text().seen_lines()) : std::vector<pdf::NumberSighting>{};
  take_printed_hint(*extraction, printed, report);
  if (!check_pdf_numbers(*extraction, report)) {
    if (!extraction->found()) return checked;
  }
  const auto verification = verify_carried_record(metadata, *extraction, trust, report);
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
