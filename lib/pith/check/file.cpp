// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/check/file.hpp"

#include "pith/base/input_file.hpp"
#include "pith/base/terminal_text.hpp"

#include "pith/check/child_report.hpp"
#include "pith/check/isolation.hpp"
#include "pith/check/pdf.hpp"
#include "pith/registry/verify.hpp"

#include <optional>

namespace pith::check {

namespace {

Report error_report(const std::string& name, std::string message) {
  Report r;
  r.input = name;
  r.error = std::move(message);
  return r;
}

// Registry documents are JSON objects (or arrays): anything else gets a
// sentence showing how it starts, never the JSON parser's jargon.
std::optional<std::string> not_a_document(std::string_view bytes) {
  const std::size_t first = bytes.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return "empty: not a PDF or a registry document";
  if (bytes[first] == '{' || bytes[first] == '[' || bytes.starts_with("\xEF\xBB\xBF")) return std::nullopt;
  constexpr std::size_t shown = 16;
  return "not a PDF or a registry document (starts with \"" + terminal_safe(bytes.substr(0, shown)) + "\"" +
         (bytes.size() > shown ? "…" : "") + ")";
}

}  // namespace

FileCheck check_registry_bytes(std::string_view bytes, const registry::TrustStore& trust, std::string_view name) {
  if (auto refused = not_a_document(bytes)) return error_report(std::string(name), *refused);
  auto verified = registry::verify_document(bytes, trust, name);
  if (!verified) return error_report(std::string(name), verified.error().message);
  CarriedCopy carried = CarriedCopy::of(verified->content(), verified->report);  // for the online check (online.hpp)
  return FileCheck{std::move(verified->report), std::move(carried)};
}

FileCheck check_registry_file(const std::filesystem::path& path, const registry::TrustStore& trust) {
  const std::string name = path.string();
  // Bounded and non-blocking (base/input_file.hpp): a huge file is refused
  // unread, a FIFO is refused, not waited on.
  auto bytes = read_input_file(path, max_registry_file_bytes);
  if (!bytes) {
    if (bytes.error().kind == ErrorKind::malformed) {
      return error_report(name, "larger than " + std::to_string(max_registry_file_bytes) +
                                    " bytes: not a registry document (refused unread)");
    }
    return error_report(name, bytes.error().message);
  }
  return check_registry_bytes(*bytes, trust, name);
}

FileCheck check_file(const std::filesystem::path& path, const registry::TrustStore& trust, Isolation isolation) {
  // The parent reads only this much, without blocking; the rest is the child's.
  auto head = read_input_head(path, 1024);
  if (!head) return error_report(path.string(), head.error().message);
  // PDFs are parsed in a child process with limits (isolated_check.hpp).
  if (looks_like_pdf(*head)) {
    if (isolation == Isolation::none) return check_pdf_file(path.string(), trust);
    return judged_in_parent(run_isolated(path.string(), [&] { return check_pdf_file(path.string(), trust); }), trust);
  }
  return check_registry_file(path, trust);
}

FileCheck check_bytes(std::string_view bytes, std::string_view name, const registry::TrustStore& trust,
                      Isolation isolation) {
  if (!looks_like_pdf(bytes.substr(0, 1024))) {
    if (bytes.size() > max_registry_file_bytes) {
      return error_report(std::string(name), "larger than " + std::to_string(max_registry_file_bytes) +
                                                 " bytes: not a registry document");
    }
    return check_registry_bytes(bytes, trust, name);
  }
  if (isolation == Isolation::none) return check_pdf_bytes(bytes, trust, name);
  return judged_in_parent(run_isolated(name, [&] { return check_pdf_bytes(bytes, trust, name); }), trust);
}

}  // namespace pith::check
