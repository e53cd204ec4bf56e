// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/tex/stamp.hpp"

#include "pith/base/atomic_file.hpp"
#include "pith/base/report.hpp"
#include "pith/carrier/vocabulary.hpp"
#include "pith/registry/trust_store.hpp"

#include <fstream>
#include <sstream>

namespace pith::tex {
namespace fs = std::filesystem;
namespace {

constexpr std::string_view package_signature = "\\ProvidesExplPackage{pith}";

Result<std::optional<std::string>> read_existing(const fs::path& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) return std::optional<std::string>{};
  if (!fs::is_regular_file(path, ec)) return fail(ErrorKind::io, path.string(), "exists and is not a regular file; not replacing it");
  if (fs::file_size(path, ec) > 2 * sty_max_document_bytes + 1024 * 1024) {
    return fail(ErrorKind::io, path.string(), "exists and is too large to be pith's package; not replacing it");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail(ErrorKind::io, path.string(), "cannot read the existing file");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return std::optional<std::string>{buffer.str()};
}

}  // namespace

fs::path sty_path_for(const fs::path& tex) {
  return (tex.parent_path().empty() ? fs::path(".") : tex.parent_path()) / "pith.sty";
}

Result<registry::VerifiedRecord> verify_existing_sty(const fs::path& tex, const TexNumber& number,
                                                     const registry::TrustStore& trust) {
  const fs::path path = sty_path_for(tex);
  auto existing = read_existing(path);
  if (!existing) return std::unexpected(existing.error());
  if (!*existing) return fail(ErrorKind::not_found, path.string(), "does not exist");
  auto data = read_sty_data(**existing, path.string());
  if (!data) return std::unexpected(data.error());
  auto verification = registry::verify_document(data->document_bytes, trust, path.string() + " (embedded bundle)");
  if (!verification) return std::unexpected(verification.error());
  if (!verification->record()) {
    const Verdict verdict = verification->report.verdict();
    return fail(verdict == Verdict::unverifiable ? ErrorKind::unverifiable : ErrorKind::rejected, path.string(),
                std::string("its embedded record does not verify (") + to_string(verdict) + ")");
  }
  registry::VerifiedRecord record = *std::move(*verification).record();
  if (!record_matches(number, record)) {
    return fail(ErrorKind::conflict, path.string(), "carries the record of " + record.number().to_string() + ", but \\pithnumber at " +
                                                        number.location() + " is " + number.number.to_string());
  }
  // Its baked pith properties must be the record's, as generate_sty writes them.
  if (data->properties != carrier::pith_properties_of(record, "", "")) {
    return fail(ErrorKind::rejected, path.string(), "its baked values are not those of its embedded, verified record");
  }
  return record;
}

bool record_matches(const TexNumber& number, const registry::VerifiedRecord& record) {
  return record.number().is_full() && number.number.matches(record.number());
}

Result<TexStampResult> stamp_tex(const fs::path& tex, const registry::VerifiedRecord& record, const TexStampOptions& options) {
  auto number = find_pith_number(tex);
  if (!number) return std::unexpected(number.error());
  if (!record_matches(*number, record)) {
    return fail(ErrorKind::conflict, tex.string(), "\\pithnumber at " + number->location() + " is " + number->number.to_string() +
                                  " but the record is " + record.number().to_string());
  }
  auto text = generate_sty(record, options.sty);
  if (!text) return std::unexpected(text.error());

  TexStampResult result;
  result.number = *number;
  result.pith_number = record.number();
  result.sty_path = sty_path_for(tex);
  result.sty_bytes = text->size();
  auto existing = read_existing(result.sty_path);
  if (!existing) return std::unexpected(existing.error());
  if (*existing) {
    if (**existing == *text) return result;  // already these bytes: leave the file (and its mtime) alone
    if ((*existing)->find(package_signature) == std::string::npos) {
      return fail(ErrorKind::io, result.sty_path.string(), "exists and is not pith's package; not overwriting it");
    }
  }
  if (auto written = write_file_atomically(result.sty_path, *text); !written) return std::unexpected(written.error());
  result.written = true;
  return result;
}

Result<TexStampResult> stamp_tex(const fs::path& tex, const TexRecordSource& obtain, const TexStampOptions& options) {
  auto number = find_pith_number(tex);
  if (!number) return std::unexpected(number.error());
  auto record = obtain(*number);
  if (!record) return std::unexpected(record.error());
  return stamp_tex(tex, *record, options);
}

}  // namespace pith::tex
