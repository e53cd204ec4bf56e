// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/check/extract.hpp"

#include "pith/base/atomic_file.hpp"
#include "pith/base/crypto.hpp"
#include "pith/base/input_file.hpp"
#include "pith/base/mapped_file.hpp"
#include "pith/base/terminal_text.hpp"
#include "pith/carrier/vocabulary.hpp"
#include "pith/check/pdf.hpp"
#include "pith/pdf/extract.hpp"
#include "pith/pdf/facts.hpp"
#include "pith/signed_json/strict.hpp"

#include <filesystem>
#include <optional>
#include <string_view>
#include <vector>

namespace pith::check {
namespace {
namespace fs = std::filesystem;

struct Part {
  const char* name;  // the file in DIR
  const char* what;  // where it was in the PDF
  std::string bytes;
};

// What the child read of the PDF, confirmed in its bytes.
Result<pdf::PdfFacts> read_confirmed_facts(std::string_view bytes, const ExtractRequest& request) {
  auto sent = runner::run_isolated([&] { return pdf::read_pdf_facts(bytes, request.pdf).to_wire(); }, request.limits);
  if (!sent) return std::unexpected(sent.error().within(request.pdf));
  auto facts = pdf::PdfFacts::from_wire(*sent);
  if (!facts) return fail(ErrorKind::malformed, request.pdf, "the parsing child sent malformed facts: " + facts.error().message);
  if (facts->error) return fail(ErrorKind::malformed, request.pdf, *facts->error);
  const auto not_in_file = pdf::confirm_in_file(bytes, *facts);
  if (!not_in_file.empty()) {
    return fail(ErrorKind::rejected, request.pdf,
                "the parsing child reported " + not_in_file.front() +
                    " that is not in the file's bytes (a damaged or hostile file): nothing extracted");
  }
  return std::move(*facts);
}

std::vector<Part> parts_of(const pdf::PdfMetadata& metadata) {
  std::vector<Part> parts;
  if (metadata.embedded_bundle)
    parts.push_back({extracted_bundle_name, "the embedded pith-bundle.json", *metadata.embedded_bundle});
  if (auto extraction = pdf::extract_pith_numbers(metadata); extraction && extraction->xmp && extraction->xmp->canonical_record)
    parts.push_back({extracted_record_name, "XMP pith:canonicalRecord", *extraction->xmp->canonical_record});
  return parts;
}

// The record to show: the bundle's canonical_record, else the XMP's record.
std::optional<nlohmann::json> record_to_show(const std::vector<Part>& parts) {
  for (const auto& part : parts) {
    auto parsed = signed_json::parse_strict_json(part.bytes);
    if (!parsed) continue;
    if (std::string_view(part.name) == extracted_record_name) return std::move(*parsed);
    if (parsed->is_object() && parsed->contains("canonical_record")) return (*parsed)["canonical_record"];
  }
  return std::nullopt;
}

Result<void> write_and_read_back(const fs::path& target, std::string_view bytes) {
  if (auto written = write_file_atomically(target, bytes); !written) return written;
  auto back = MappedFile::open(target.string());
  if (!back) return std::unexpected(back.error());
  if (back->bytes() != bytes) return fail(ErrorKind::io, target.string(), "what was read back is not what was written");
  return {};
}

}  // namespace

Result<void> extract_pith_parts(const ExtractRequest& request, std::ostream& out) {
  auto file = MappedFile::open(request.pdf);
  if (!file) return std::unexpected(file.error());
  const std::string_view bytes = file->bytes();
  if (!looks_like_pdf(bytes.substr(0, 1024)))
    return fail(ErrorKind::malformed, request.pdf, "not a PDF: --extract reads the Pith parts a PDF carries");
  auto facts = read_confirmed_facts(bytes, request);
  if (!facts) return std::unexpected(facts.error());
  std::vector<Part> parts = parts_of(facts->metadata);
  if (parts.empty()) {
    return fail(ErrorKind::not_found, request.pdf,
                std::string("carries no Pith record to extract (no embedded ") + carrier::embedded_name +
                    ", no XMP pith:canonicalRecord): it was not stamped, or the stamp was removed");
  }
  if (facts->metadata.xmp_packet) parts.push_back({extracted_xmp_name, "the XMP packet", *facts->metadata.xmp_packet});

  const fs::path dir(request.dir);
  for (const auto& part : parts) {
    std::error_code ec;
    const auto status = fs::symlink_status(dir / part.name, ec);
    if (!request.force && status.type() != fs::file_type::not_found && !ec) {
      return fail(ErrorKind::usage, (dir / part.name).string(),
                  "already exists: nothing extracted (--force replaces it)");
    }
  }
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return fail(ErrorKind::io, request.dir, "cannot create the directory (" + ec.message() + ")");
  for (const auto& part : parts) {
    const fs::path target = dir / part.name;
    if (auto written = write_and_read_back(target, part.bytes); !written) return written;
    out << "wrote " << terminal_safe(target.string()) << ": " << part.what << " (" << part.bytes.size() << " bytes, SHA-256 "
        << sha256_hex(part.bytes) << ")\n";
  }
  if (const auto record = record_to_show(parts)) {
    out << "the record as carried (not verified here: pith-check " << terminal_safe(request.pdf) << " verifies it):\n"
        << record->dump(2, ' ', true) << "\n";
  } else {
    out << "the record carried is not JSON that can be shown (pith-check " << terminal_safe(request.pdf) << " says why)\n";
  }
  return {};
}

}  // namespace pith::check
