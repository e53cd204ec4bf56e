// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/check/pdf.hpp"

#include "pith/base/check_codes.hpp"
#include "pith/base/crypto.hpp"
#include "pith/check/rewritten_text.hpp"
#include "pith/check/visible.hpp"
#include "pith/pdf/vocabulary.hpp"
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
    // The URL as found, for the parent's resolver-host check (resolver_host.hpp).
    if (!s.url.empty()) sources.back()["url"] = s.url;
  }
  report.extra["pith_sources"] = std::move(sources);
  if (!extraction.problems.empty()) report.extra["metadata_problems"] = extraction.problems;

  if (!extraction.found()) {
    report.number_found = false;
    report.skip(check_code::pdf_number_found,
                "no Pith Number in XMP, the Info dictionary, an embedded pith-bundle.json or a page-1 resolver link");
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
  report.pass(check_code::pdf_number_found, shown.to_string() + " in " + places);
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

// --- Title binding -------------------------------------------------------

const char* to_string(BindingState state) {
  switch (state) {
    case BindingState::match: return "match";
    case BindingState::mismatch: return "mismatch";
    case BindingState::absent: return "absent";
    case BindingState::undetermined: return "undetermined";
    case BindingState::hidden: return "hidden";
  }
  return "undetermined";
}

std::vector<TitleCandidate> title_candidates(const pdf::PdfExtraction& extraction,
                                             const std::optional<std::string>& info_title) {
  std::vector<TitleCandidate> out;
  if (extraction.xmp && extraction.xmp->title) out.push_back({"XMP dc:title", *extraction.xmp->title});
  if (info_title) out.push_back({"Info /Title", *info_title});
  return out;
}


BindingState check_title_binding(const std::vector<TitleCandidate>& candidates, const nlohmann::json& canonical_record,
                                 Report& report, const std::vector<TitleCandidate>* stamped, bool title_seen) {
  const std::string expected = registry::read_record_metadata(canonical_record).title_canon_sha256;
  const auto binding = bind_title(candidates, expected);
  switch (binding.verdict) {
    case TitleVerdict::match:
      // Metadata is a hint: any tool writes any title there in one line
      // (exiftool -Title=...), and no viewer shows it as the paper.
      report.pass(check_code::pdf_title_match, binding.detail + " (metadata: a hint, not a binding; what binds is what page 1 shows)");
      return BindingState::match;
    case TitleVerdict::mismatch:
      if (stamped) {
        if (const auto then = bind_title(*stamped, expected); then.verdict == TitleVerdict::match) {
          report.warn(check_code::pdf_title_changed_after_stamping,
                      binding.detail + "; when stamped, " + then.detail + " (edited by a later revision)");
          return BindingState::undetermined;
        }
      }
      // Metadata is a hint: when page 1 shows the record's title, a wrong
      // metadata title is the producer's (acmart writes `\vspace{-10pt}`
      // of a \title into /Title as "-10pt..."), not a forgery: a warning.
      // With nothing seen, it fails: the PDF names another paper.
      if (title_seen) {
        report.warn(check_code::pdf_title_mismatch, binding.detail + "; page 1 shows the record's title, so the metadata is wrong");
      } else {
        report.fail(check_code::pdf_title_mismatch, binding.detail);
      }
      return BindingState::mismatch;
    case TitleVerdict::undetermined:
      // No title at all (none, or only empty ones) is not a finding about
      // this PDF's claim: skip. A placeholder or a foreign title is: warn.
      if (std::all_of(candidates.begin(), candidates.end(),
                      [](const TitleCandidate& c) { return registry::title_canon(c.title).empty(); })) {
        report.skip(check_code::pdf_title_undetermined, binding.detail);
        return expected.empty() ? BindingState::undetermined : BindingState::absent;
      }
      report.warn(check_code::pdf_title_undetermined, binding.detail);
      return BindingState::undetermined;
  }
  return BindingState::undetermined;
}

namespace {

nlohmann::json binding_json(BindingState state, std::string detail) {
  return {{"state", to_string(state)}, {"detail", std::move(detail)}};
}

// Whether page 1 shows the record's title (details.bindings.visible_title).
bool title_seen(const nlohmann::json& bindings) {
  const auto it = bindings.find("visible_title");
  return it != bindings.end() && it->value("state", "") == to_string(BindingState::match);
}

std::string describe_span(const VisibleSpan& span) {
  const std::string lines = span.line_count == 1 ? "line " + std::to_string(span.first_line + 1)
                                                 : "lines " + std::to_string(span.first_line + 1) + "-" +
                                                       std::to_string(span.first_line + span.line_count);
  return "page 1 " + lines + " " + registry::quoted_title(span.text);
}

// Where on page 1 lines [first, first + count) are (points from the top
// left of the page as shown): what pith-check --evidence renders.
nlohmann::json region_of(const pdf::PageText& page, std::size_t first, std::size_t count) {
  pdf::Box box;
  for (std::size_t i = first; i < first + count && i < page.boxes.size(); ++i) box = pdf::united(box, page.boxes[i]);
  if (box.area() <= 0) return nullptr;
  return {{"page", 1}, {"box", {box.x0, box.y0, box.x1, box.y1}}};
}

nlohmann::json bound_json(std::string detail, nlohmann::json region) {
  nlohmann::json out = binding_json(BindingState::match, std::move(detail));
  if (!region.is_null()) out["region"] = std::move(region);
  return out;
}

// The HiddenReason bits of lines [first, first + count).
std::uint8_t hidden_reasons(const pdf::PageText& page, std::size_t first, std::size_t count) {
  std::uint8_t mask = 0;
  for (std::size_t i = first; i < first + count && i < page.hidden.size(); ++i) mask |= page.hidden[i];
  return mask;
}

void check_visible_title(const pdf::PageText& page, const std::string& expected, Report& report, nlohmann::json& bindings) {
  if (expected.empty()) {
    report.skip(check_code::pdf_title_visible_undetermined, "the record has no title_canon_sha256");
    bindings["visible_title"] = binding_json(BindingState::undetermined, "the record has no title hash");
    return;
  }
  if (page.problem) {
    report.warn(check_code::pdf_title_visible_undetermined, *page.problem);
    bindings["visible_title"] = binding_json(BindingState::undetermined, *page.problem);
    return;
  }
  if (const auto span = find_visible_span(page.seen_lines(), expected)) {
    const std::string detail = describe_span(*span) + " is the record's title, and a reader sees it";
    report.content_binding(check_code::pdf_title_visible_match, detail);
    bindings["visible_title"] = bound_json(detail, region_of(page, span->first_line, span->line_count));
    return;
  }
  // The text layer has it, the page does not show it: text hidden under
  // something, white, tiny or invisible (a forgery's way to carry another
  // paper's title), or an OCR layer under a scanned image.
  if (const auto span = find_visible_span(page.lines, expected)) {
    const std::string detail = describe_span(*span) + " is the record's title in page 1's text layer, but a reader "
                               "cannot see it: " + pdf::describe_hidden(hidden_reasons(page, span->first_line, span->line_count));
    report.warn(check_code::pdf_title_visible_hidden, detail);
    bindings["visible_title"] = binding_json(BindingState::hidden, detail);
    return;
  }
  const std::string detail = "the record's title was not found in page 1's text (" +
                             std::to_string(page.lines.size()) + " lines read)";
  report.warn(check_code::pdf_title_visible_not_found, detail);
  bindings["visible_title"] = binding_json(BindingState::absent, detail);
}

void check_visible_abstract(const pdf::PageText& page, const std::string& expected, Report& report,
                            nlohmann::json& bindings) {
  if (expected.empty() || page.problem) {
    bindings["visible_abstract"] = binding_json(BindingState::undetermined, expected.empty() ? "the record has no abstract hash" : *page.problem);
    return;
  }
  const auto lines_of = [](const VisibleSpan& span) {
    return "page 1 lines " + std::to_string(span.first_line + 1) + "-" + std::to_string(span.first_line + span.line_count);
  };
  if (const auto span = find_visible_abstract(page.seen_lines(), expected)) {
    const std::string detail = lines_of(*span) + " are the record's abstract, and a reader sees them";
    report.content_binding(check_code::pdf_abstract_visible_match, detail);
    bindings["visible_abstract"] = bound_json(detail, region_of(page, span->first_line, span->line_count));
    return;
  }
  if (const auto span = find_visible_abstract(page.lines, expected)) {
    const std::string detail = lines_of(*span) + " are the record's abstract in page 1's text layer, but a reader "
                               "cannot see them: " + pdf::describe_hidden(hidden_reasons(page, span->first_line, span->line_count));
    report.warn(check_code::pdf_abstract_visible_hidden, detail);
    bindings["visible_abstract"] = binding_json(BindingState::hidden, detail);
    return;
  }
  report.skip(check_code::pdf_abstract_visible_not_found, "the record's abstract was not found on page 1");
  bindings["visible_abstract"] = binding_json(BindingState::absent, "not found on page 1");
}

// "arXiv:2106.02679v1", as people write it.
std::string arxiv_name(const registry::ArxivId& id) { return "arXiv:" + id.to_string(); }

void check_arxiv_binding(const pdf::PageText& page, const nlohmann::json& canonical_record, Report& report,
                         nlohmann::json& bindings) {
  const auto source = registry::record_arxiv_source(canonical_record);
  if (!source) {
    bindings["arxiv_id"] = binding_json(BindingState::undetermined, "the record's source is not an arXiv paper");
    return;
  }
  const std::string named = arxiv_name(*source);
  const auto watermarks = arxiv_watermarks(page.seen_lines());
  // Another paper's watermark, seen: this PDF is that paper.
  for (const auto& w : watermarks) {
    if (w.id != source->id) {
      const std::string detail = w.where + " names " + arxiv_name({w.id, w.version}) + ", but the record is " + named;
      report.fail(check_code::pdf_arxiv_mismatch, detail);
      bindings["arxiv_id"] = binding_json(BindingState::mismatch, detail);
      return;
    }
  }
  const auto same_version = [&](const ArxivSighting& w) {
    return !w.version || !source->version || *w.version == *source->version;
  };
  for (const auto& w : watermarks) {
    if (!same_version(w)) continue;
    const std::string detail = w.where + " names " + named + ", the record's source, and a reader sees it";
    report.content_binding(check_code::pdf_arxiv_match, detail);
    bindings["arxiv_id"] = bound_json(detail, region_of(page, w.line, 1));
    return;
  }
  // Another version of the record's own paper: authors post v2, v3 of most
  // papers; the record registers the version it was made from.
  for (const auto& w : watermarks) {
    const std::string version = "v" + std::to_string(*w.version);
    const std::string detail = w.where + ": this PDF is " + version + " of " + "arXiv:" + source->id +
                               "; the record registers " + named;
    report.content_binding(check_code::pdf_arxiv_match, w.where + " names arXiv:" + source->id + ", the record's paper, and a "
                                                        "reader sees it");
    report.warn(check_code::pdf_arxiv_other_version, detail + " (the same paper, another version: what changed since is not "
                                                    "covered by the record)");
    bindings["arxiv_id"] = bound_json(detail, region_of(page, w.line, 1));
    return;
  }
  // In the text layer only: hidden watermark text binds nothing.
  for (const auto& w : arxiv_watermarks(page.lines)) {
    if (w.id != source->id) continue;
    const std::string detail = w.where + " names " + named + " in page 1's text layer, but a reader cannot see it: " +
                               pdf::describe_hidden(hidden_reasons(page, w.line, 1));
    report.warn(check_code::pdf_arxiv_hidden, detail);
    bindings["arxiv_id"] = binding_json(BindingState::hidden, detail);
    return;
  }
  for (const auto& l : arxiv_links(page.link_uris)) {
    if (l.id != source->id) continue;
    const std::string detail = l.where + " names " + named + ", but a link is not what a reader sees (and may be a "
                               "citation): only arXiv's watermark text, legible on page 1, binds";
    report.skip(check_code::pdf_arxiv_link_only, detail);
    bindings["arxiv_id"] = binding_json(BindingState::absent, detail);
    return;
  }
  report.skip(check_code::pdf_arxiv_absent, "page 1 shows no arXiv watermark naming " + named);
  bindings["arxiv_id"] = binding_json(BindingState::absent, "no arXiv watermark on page 1");
}

}  // namespace

void check_visible_bindings(const pdf::PageText& page, const nlohmann::json& canonical_record, Report& report,
                            nlohmann::json& bindings) {
  const registry::RecordMetadata metadata = registry::read_record_metadata(canonical_record);
  check_visible_title(page, metadata.title_canon_sha256, report, bindings);
  check_visible_abstract(page, metadata.abstract_canon_sha256, report, bindings);
  check_arxiv_binding(page, canonical_record, report, bindings);
}

// --- Byte binding --------------------------------------------------------

std::size_t count_revision_ends(std::string_view bytes, std::size_t from) {
  static constexpr std::string_view keyword = "startxref";
  const auto is_space = [](char c) { return c == ' ' || c == '\r' || c == '\n' || c == '\t' || c == '\f' || c == '\0'; };
  std::size_t count = 0;
  for (auto at = bytes.find(keyword, from); at != std::string_view::npos; at = bytes.find(keyword, at + 1)) {
    std::size_t i = at + keyword.size();
    const std::size_t before_space = i;
    while (i < bytes.size() && is_space(bytes[i])) ++i;
    if (i == before_space) continue;
    const std::size_t digits = i;
    while (i < bytes.size() && bytes[i] >= '0' && bytes[i] <= '9') ++i;
    if (i == digits) continue;
    // `startxref 0` points at no section: the first-page trailer of a
    // linearized file (qpdf writes it so), not the end of a revision.
    const bool points_at_nothing = bytes.substr(digits, i - digits).find_first_not_of('0') == std::string_view::npos;
    while (i < bytes.size() && is_space(bytes[i])) ++i;
    if (bytes.substr(i).starts_with("%%EOF") && !points_at_nothing) ++count;
  }
  return count;
}

bool ends_a_revision(std::string_view prefix) {
  while (!prefix.empty() && (prefix.back() == '\n' || prefix.back() == '\r')) prefix.remove_suffix(1);
  return prefix.ends_with("%%EOF");
}

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
  if (actual != *original_sha256 && !ends_a_revision(prefix) && count_revision_ends(file) >= 2) {
    return {CheckStatus::fail, check_code::pdf_bytes_prefix_broken,
            "bytes were inserted or removed before the stamp's update, which is still appended: the first " +
                std::to_string(*length) + " bytes no longer end a revision",
            0};
  }
  if (actual != *original_sha256 && !ends_a_revision(prefix)) return rewritten(*length);
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
          : count_revision_ends(file, static_cast<std::size_t>(*length));
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
  const std::string bundle_name = std::string("embedded ") + pdf::meta::embedded_name;
  if (metadata.embedded_bundle_count > 1) {
    report.warn(check_code::pdf_bundle_duplicate, std::to_string(metadata.embedded_bundle_count) + " embedded files are named " +
                                            pdf::meta::embedded_name + ": the first is checked, the others are ignored "
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
                                         pdf::meta::embedded_name + ")");
    report.merge(verified->report);
    return std::move(*verified);
  }
  report.skip(check_code::pdf_record_source, std::string("the PDF carries no record (no embedded ") + pdf::meta::embedded_name +
                                       ", no XMP pith:canonicalRecord): resolve the number to verify it");
  return std::nullopt;
}

}  // namespace

namespace {

// The metadata title's binding and what page 1 shows (`page`; null: it was
// not read), into `report` in that order and into details.bindings
// (`bindings`, moved there). Page 1 is judged first: a metadata title that
// is not the record's is a warning when page 1 shows the record's title.
void check_page_and_title(const pdf::PageText* page, const std::vector<TitleCandidate>& titles,
                          const nlohmann::json& canonical_record, const std::vector<TitleCandidate>* stamped,
                          Report& report, nlohmann::json& bindings) {
  Report visible;
  if (page) {
    check_visible_bindings(*page, canonical_record, visible, bindings);
  } else {
    for (const char* b : {"visible_title", "visible_abstract", "arxiv_id"})
      bindings[b] = binding_json(BindingState::undetermined, "page 1's text was not read");
  }
  const BindingState title_state = check_title_binding(titles, canonical_record, report, stamped, title_seen(bindings));
  bindings["metadata_title"] = binding_json(title_state, report.checks().back().detail);
  report.merge(visible);
  report.extra["bindings"] = std::move(bindings);
}

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
                       record.canonical_record, stamped ? &*stamped : nullptr, report, bindings);
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
  if (bytes.code == check_code::pdf_bytes_rewritten && extraction->xmp) {
    check_rewritten_text(extraction->xmp->page_text_sha256,
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
  check_page_and_title(&evidence.page, titles, record.canonical_record, nullptr, report, bindings);
}

std::string bindings_text(const Report& report) {
  const auto it = report.extra.find("bindings");
  if (it == report.extra.end() || !it->is_object()) return {};
  std::string out = "  bindings (record to this PDF):";
  bool first = true;
  for (const auto& [name, label] : {std::pair{"visible_title", "visible title"}, {"visible_abstract", "visible abstract"},
                                    {"metadata_title", "metadata title (hint)"}, {"arxiv_id", "arXiv id"},
                                    {"stamped_bytes", "stamped bytes"}}) {
    const auto b = it->find(name);
    if (b == it->end() || !b->is_object() || !b->contains("state") || !(*b)["state"].is_string()) continue;
    out += std::string(first ? " " : ", ") + label + " " + (*b)["state"].get<std::string>();
    first = false;
  }
  out += "\n";
  if (report.verdict() == Verdict::unbound) {
    out += "  unbound: the record is genuine and signed by a trusted key, but nothing a reader sees on page 1 "
           "(its title, its abstract, arXiv's watermark) is that record's; title metadata alone never binds: it "
           "does not show that this PDF is the paper the number names\n";
  }
  return out;
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
