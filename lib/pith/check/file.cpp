#include "pith/check/file.hpp"

#include "pith/check/isolation.hpp"
#include "pith/check/pdf.hpp"
#include "pith/registry/verify.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>

namespace pith::check {

namespace {

Report error_report(const std::string& name, std::string message) {
  Report r;
  r.input = name;
  r.error = std::move(message);
  return r;
}

}  // namespace

FileCheck check_registry_bytes(std::string_view bytes, const registry::TrustStore& trust, std::string_view name) {
  auto verified = registry::verify_document(bytes, trust, name);
  if (!verified) return error_report(std::string(name), verified.error().message);
  CarriedCopy carried = CarriedCopy::of(verified->content(), verified->report);  // for the online check (online.hpp)
  return FileCheck{std::move(verified->report), std::move(carried)};
}

FileCheck check_registry_file(const std::filesystem::path& path, const registry::TrustStore& trust) {
  const std::string name = path.string();
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return error_report(name, "is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) return error_report(name, std::string("cannot read: ") + std::strerror(errno));
  // Read at most one byte past the bound: a huge file is refused, not loaded.
  std::string bytes(max_registry_file_bytes + 1, '\0');
  in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (in.bad()) return error_report(name, "read error");
  bytes.resize(static_cast<std::size_t>(in.gcount()));
  if (bytes.size() > max_registry_file_bytes) {
    return error_report(name, "larger than " + std::to_string(max_registry_file_bytes) +
                                  " bytes: not a registry document (refused unread)");
  }
  return check_registry_bytes(bytes, trust, name);
}

FileCheck check_file(const std::filesystem::path& path, const registry::TrustStore& trust, Isolation isolation) {
  std::ifstream in(path, std::ios::binary);
  std::string head(1024, '\0');
  if (in) {
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<std::size_t>(in.gcount()));
    // PDFs are parsed in a child process with limits (isolated_check.hpp).
    if (looks_like_pdf(head)) {
      if (isolation == Isolation::none) return check_pdf_file(path.string(), trust);
      return run_isolated(path.string(), [&] { return check_pdf_file(path.string(), trust); });
    }
  }
  return check_registry_file(path, trust);
}

}  // namespace pith::check
