#include "pith/check/pdf.hpp"

#include "pith/base/crypto.hpp"
#include "pith/base/mapped_file.hpp"
#include "pith/pdf/reader.hpp"
#include "pith/pdf/vocabulary.hpp"
#include "pith/signed_json/strict.hpp"
#include "pith/registry/number.hpp"
#include "pith/registry/title.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>

namespace pith::check {
namespace {

bool is_ascii(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

// Titles that name no paper: empty, a file name (dvips/ps2pdf use the .dvi
// name when there is no title), or a placeholder.
bool is_placeholder_title(std::string_view title) {
  const std::string canon = registry::title_canon(title);
  if (canon.empty() || canon == "untitled" || canon == "title") return true;
  for (const char* ext : {".dvi", ".tex", ".pdf", ".ps", ".doc", ".docx", ".odt"}) {
    if (canon.ends_with(ext) && canon.find(' ') == std::string::npos) return true;
  }
  return false;
}

bool title_canon_sha256_matches(std::string_view title, std::string_view expected_sha256) {
  std::string expected(expected_sha256);
  std::transform(expected.begin(), expected.end(), expected.begin(),
                 [](char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); });
  return registry::title_canon_sha256(title) == expected;
}

// For messages: a title quoted, control characters escaped, cut when long.
std::string quoted_title(std::string_view title) {
  std::string out = "\"";
  std::size_t shown = 0;
  for (const char c : title) {
    if (++shown > 120) {
      out += "…";
      break;
    }
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7F) {
      out += '?';
    } else {
      out += c;
    }
  }
  return out + "\"";
}

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
    report.skip("pdf.number.found",
                "no Pith Number in XMP, the Info dictionary, an embedded pith-bundle.json or a page-1 resolver link");
    return false;
  }
  const auto conflicts = extraction.conflicts();
  if (!conflicts.empty()) {
    for (const auto& conflict : conflicts) report.fail("pdf.number.conflict", conflict.describe());
    return false;
  }
  std::string places;
  for (const auto& s : extraction.sightings) places += (places.empty() ? "" : ", ") + s.where;
  const auto number = extraction.number();
  if (number) report.pith_number = number->to_string();
  const registry::PithNumber& shown = number ? *number : extraction.sightings.front().number;
  report.pass("pdf.number.found", shown.to_string() + " in " + places);
  return true;
}

void check_pdf_record_binding(const pdf::PdfExtraction& extraction, const registry::DocumentContent& record, Report& report) {
  if (record.pith_number.empty()) return;  // the record itself failed: its checks say why
  const auto record_number = registry::parse_pith_number(record.pith_number);
  bool numbers_ok = true;
  for (const auto& s : extraction.sightings) {
    if (!record_number || !s.number.matches(*record_number)) {
      numbers_ok = false;
      report.fail("pdf.number.matches_record",
                  s.where + " names " + s.number.to_string() + " but the verified record is " + record.pith_number);
    }
  }
  if (numbers_ok) report.pass("pdf.number.matches_record", "every number in the PDF names " + record.pith_number);

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
      report.fail("pdf.metadata.matches_record",
                  std::string("XMP ") + copy.property + " differs from the verified record's");
    }
  }
  if (metadata_ok) report.pass("pdf.metadata.matches_record", "the XMP pith properties copy the verified record");
}

// --- Title binding -------------------------------------------------------

const char* to_string(TitleVerdict verdict) {
  switch (verdict) {
    case TitleVerdict::match: return "match";
    case TitleVerdict::mismatch: return "mismatch";
    case TitleVerdict::undetermined: return "undetermined";
  }
  return "undetermined";
}

PdfTitleBinding bind_title(const std::vector<TitleCandidate>& candidates, std::string_view expected_sha256) {
  if (expected_sha256.empty()) return {TitleVerdict::undetermined, "the record has no title_canon_sha256"};
  std::vector<const TitleCandidate*> real;
  for (const auto& c : candidates) {
    if (!is_placeholder_title(c.title)) real.push_back(&c);
  }
  if (real.empty()) {
    const auto named = std::find_if(candidates.begin(), candidates.end(),
                                    [](const TitleCandidate& c) { return !registry::title_canon(c.title).empty(); });
    if (named == candidates.end()) return {TitleVerdict::undetermined, "the PDF has no title"};
    return {TitleVerdict::undetermined,
            "the PDF's title is a placeholder: " + named->where + " " + quoted_title(named->title)};
  }
  // Every real ASCII title must match: a PDF whose Info title is another
  // paper's next to a matching XMP title has been edited (and readers show
  // either one).
  for (const auto* c : real) {
    if (is_ascii(c->title) && !title_canon_sha256_matches(c->title, expected_sha256)) {
      return {TitleVerdict::mismatch, c->where + " " + quoted_title(c->title) +
                                          " is not the record's title (its canonical SHA-256 differs)"};
    }
  }
  for (const auto* c : real) {
    if (title_canon_sha256_matches(c->title, expected_sha256)) {
      return {TitleVerdict::match, c->where + " " + quoted_title(c->title) + " is the record's title"};
    }
  }
  return {TitleVerdict::undetermined, real.front()->where + " " + quoted_title(real.front()->title) +
                                          " does not match, but non-ASCII titles cannot be compared reliably"};
}

std::vector<TitleCandidate> title_candidates(const pdf::PdfExtraction& extraction,
                                             const std::optional<std::string>& info_title) {
  std::vector<TitleCandidate> out;
  if (extraction.xmp && extraction.xmp->title) out.push_back({"XMP dc:title", *extraction.xmp->title});
  if (info_title) out.push_back({"Info /Title", *info_title});
  return out;
}

void check_title_binding(const std::vector<TitleCandidate>& candidates, const nlohmann::json& canonical_record,
                         Report& report, const std::vector<TitleCandidate>* stamped) {
  std::string expected;
  if (canonical_record.is_object()) {
    const auto metadata = canonical_record.find("metadata");
    if (metadata != canonical_record.end() && metadata->is_object()) {
      const auto hash = metadata->find("title_canon_sha256");
      if (hash != metadata->end() && hash->is_string()) expected = hash->get<std::string>();
    }
  }
  const auto binding = bind_title(candidates, expected);
  switch (binding.verdict) {
    case TitleVerdict::match: report.pass("pdf.title.match", binding.detail); break;
    case TitleVerdict::mismatch:
      if (stamped) {
        if (const auto then = bind_title(*stamped, expected); then.verdict == TitleVerdict::match) {
          report.warn("pdf.title.changed_after_stamping",
                      binding.detail + "; when stamped, " + then.detail + " (edited by a later revision)");
          break;
        }
      }
      report.fail("pdf.title.mismatch", binding.detail);
      break;
    case TitleVerdict::undetermined:
      // No title at all (none, or only empty ones) is not a finding about
      // this PDF's claim: skip. A placeholder or a foreign title is: warn.
      if (std::all_of(candidates.begin(), candidates.end(),
                      [](const TitleCandidate& c) { return registry::title_canon(c.title).empty(); })) {
        report.skip("pdf.title.undetermined", binding.detail);
      } else {
        report.warn("pdf.title.undetermined", binding.detail);
      }
      break;
  }
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
    while (i < bytes.size() && is_space(bytes[i])) ++i;
    if (bytes.substr(i).starts_with("%%EOF")) ++count;
  }
  return count;
}

ByteBinding bind_bytes(std::string_view file, const std::optional<std::string>& original_sha256,
                       const std::optional<std::string>& original_length,
                       const std::optional<std::vector<std::uint64_t>>& xref_section_offsets) {
  if (!original_sha256 && !original_length) {
    return {CheckStatus::skip, "pdf.bytes.unbound",
            "no pith:originalSha256 / pith:originalLength (not stamped by pith-stamp)", 0};
  }
  if (!original_sha256 || !original_length) {
    return {CheckStatus::fail, "pdf.bytes.prefix_broken",
            std::string("XMP has pith:") + (original_sha256 ? "originalSha256" : "originalLength") + " without pith:" +
                (original_sha256 ? "originalLength" : "originalSha256"),
            0};
  }
  const auto length = parse_decimal(*original_length);
  if (!length) return {CheckStatus::fail, "pdf.bytes.prefix_broken", "XMP pith:originalLength is not a byte count", 0};
  if (!is_sha256_hex(*original_sha256)) {
    return {CheckStatus::fail, "pdf.bytes.prefix_broken", "XMP pith:originalSha256 is not a lower-case hex SHA-256", 0};
  }
  if (*length >= file.size()) {
    return {CheckStatus::fail, "pdf.bytes.prefix_broken",
            "the file is " + std::to_string(file.size()) + " bytes, but the stamp covers the first " +
                std::to_string(*length) + " and was appended after them",
            0};
  }
  const auto prefix = file.substr(0, static_cast<std::size_t>(*length));
  const auto actual = sha256_hex(prefix);
  if (actual != *original_sha256) {
    return {CheckStatus::fail, "pdf.bytes.prefix_broken",
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
    return {CheckStatus::fail, "pdf.bytes.prefix_broken",
            "no revision that chains to the document follows the " + std::to_string(*length) + " stamped bytes", 0};
  }
  return {CheckStatus::pass, "pdf.bytes.prefix_intact",
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
    report.warn("pdf.bytes.later_revisions",
                std::to_string(binding.later_revisions) + " later revision(s) appended after the pith update: the "
                "PDF was edited after stamping (the stamped bytes are intact)");
  } else if (binding.status == CheckStatus::pass) {
    report.pass("pdf.bytes.later_revisions", "nothing appended after the pith update");
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
    report.warn("pdf.bundle.duplicate", std::to_string(metadata.embedded_bundle_count) + " embedded files are named " +
                                            pdf::meta::embedded_name + ": the first is checked, the others are ignored "
                                            "(another reader may show another one)");
  }
  if (metadata.embedded_bundle) {
    auto verified = registry::verify_document(*metadata.embedded_bundle, trust, bundle_name);
    if (!verified) {
      report.fail("pdf.record.source", verified.error().describe());
      return std::nullopt;
    }
    report.pass("pdf.record.source", bundle_name + " (" + to_string(verified->kind()) + ")");
    report.merge(verified->report);
    return std::move(*verified);
  }
  if (extraction.xmp && extraction.xmp->canonical_record) {
    auto verified = verify_xmp_record(*extraction.xmp, trust);
    if (!verified) {
      report.fail("pdf.record.source", verified.error().describe());
      return std::nullopt;
    }
    report.pass("pdf.record.source", std::string("XMP pith:canonicalRecord and pith:receiptSignature (no embedded ") +
                                         pdf::meta::embedded_name + ")");
    report.merge(verified->report);
    return std::move(*verified);
  }
  report.skip("pdf.record.source", std::string("the PDF carries no record (no embedded ") + pdf::meta::embedded_name +
                                       ", no XMP pith:canonicalRecord): resolve the number to verify it");
  return std::nullopt;
}

}  // namespace

FileCheck check_pdf_metadata(std::string_view file_bytes, const pdf::PdfMetadata& metadata, const registry::TrustStore& trust,
                             std::string_view name, const StampedTitles& stamped_titles) {
  FileCheck checked;
  Report& report = checked.report;
  report.input = std::string(name);
  report.input_kind = "pdf";
  auto extraction = pdf::extract_pith_numbers(metadata);
  if (!extraction) {
    report.error = extraction.error().describe();
    return checked;
  }
  if (!check_pdf_numbers(*extraction, report)) {
    if (!extraction->found()) return checked;
  }
  const auto verification = verify_carried_record(metadata, *extraction, trust, report);
  const registry::DocumentContent* record = verification ? &verification->content() : nullptr;
  if (record) {
    if (!record->pith_number.empty()) report.pith_number = record->pith_number;
    checked.carried = CarriedCopy::of(*record, verification->report);  // for the online comparison
    check_pdf_record_binding(*extraction, *record, report);
  }
  const auto bytes = check_byte_binding(file_bytes, *extraction, report, metadata.xref_section_offsets);
  if (record) {
    std::optional<std::vector<TitleCandidate>> stamped;
    if (bytes.status == CheckStatus::pass && bytes.later_revisions > 0 && stamped_titles) {
      stamped = stamped_titles(bytes.original_length);
    }
    check_title_binding(title_candidates(*extraction, metadata.info_title), record->canonical_record, report,
                        stamped ? &*stamped : nullptr);
  }
  return checked;
}

namespace {

// The error as a message about the file `name` (front ends print the file
// name themselves: "pith-check: paper.pdf: …").
std::string message_about(const Error& error, std::string_view name) {
  std::string text = error.describe();
  const std::string prefix = std::string(name) + ": ";
  if (text.starts_with(prefix)) text.erase(0, prefix.size());
  return text;
}

}  // namespace

bool looks_like_pdf(std::string_view head) { return head.substr(0, 1024).find("%PDF-") != std::string_view::npos; }

FileCheck check_pdf_bytes(std::string_view bytes, const registry::TrustStore& trust, std::string_view name) {
  auto reader = pdf::Reader::open(bytes, std::string(name));
  if (!reader) {
    Report report;
    report.input = std::string(name);
    report.input_kind = "pdf";
    report.error = message_about(reader.error(), name);
    return report;
  }
  // The titles of the stamped revision: the first originalLength bytes are
  // a complete PDF (the paper before stamping), read the same lazy way.
  const StampedTitles stamped_titles = [bytes, &name](std::uint64_t length) {
    std::vector<TitleCandidate> titles;
    auto original = pdf::Reader::open(bytes.substr(0, static_cast<std::size_t>(length)),
                                      std::string(name) + " (as stamped)");
    if (!original) return titles;
    const pdf::PdfMetadata then = pdf::read_pdf_metadata(*original);
    if (then.xmp_packet) {
      if (auto xmp = pdf::read_xmp(*then.xmp_packet); xmp && xmp->title) titles.push_back({"XMP dc:title", *xmp->title});
    }
    if (then.info_title) titles.push_back({"Info /Title", *then.info_title});
    return titles;
  };
  return check_pdf_metadata(bytes, pdf::read_pdf_metadata(*reader), trust, name, stamped_titles);
}

FileCheck check_pdf_file(const std::string& path, const registry::TrustStore& trust) {
  auto file = MappedFile::open(path);
  if (!file) {
    Report report;
    report.input = path;
    report.input_kind = "pdf";
    report.error = message_about(file.error(), path);
    return report;
  }
  return check_pdf_bytes(file->bytes(), trust, path);
}

}  // namespace pith::check
