// SPDX-License-Identifier: GPL-3.0-or-later
// The binding checks of a PDF to its record (check/pdf.hpp): numbers, title
// candidates, the stamped bytes, the page text fingerprint.
#include "pith/check/pdf.hpp"

#include "pith/base/check_codes.hpp"
#include "pith/base/crypto.hpp"
#include "pith/pdf/facts.hpp"

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

}  // namespace pith::check
