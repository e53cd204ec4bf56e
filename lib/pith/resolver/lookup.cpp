// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/resolver/lookup.hpp"

#include "pith/base/ascii.hpp"
#include "pith/base/check_codes.hpp"
#include "pith/registry/identifier.hpp"

#include <filesystem>
#include <string_view>

namespace pith::resolver {
namespace {

Report failed_lookup(const std::string& input, const Error& error) {
  Report report;
  report.input = input;
  report.input_kind = "identifier";
  switch (error.kind) {
    case ErrorKind::rejected:
    case ErrorKind::conflict:
      // Something was served but was forged, tampered or another paper's record.
      report.fail(check_code::resolver_rejected, error.message);
      return report;
    case ErrorKind::unverifiable:
      // Served intact, but signed by no key in the trust store: like the file itself, unverifiable.
      report.warn(check_code::resolver_rejected, error.message);
      return report;
    case ErrorKind::usage:
    case ErrorKind::malformed:
    case ErrorKind::io:
    case ErrorKind::network:
    case ErrorKind::not_found:
    case ErrorKind::not_served:
    case ErrorKind::limit:
    case ErrorKind::crashed:
    case ErrorKind::internal: break;
  }
  report.error = error;
  return report;
}

}  // namespace

bool is_identifier_argument(const std::string& argument) {
  std::error_code ec;
  if (std::filesystem::exists(argument, ec)) return false;
  return registry::looks_like_identifier(argument) || starts_with_ascii_case_blind(argument, "pith:") ||
         starts_with_ascii_case_blind(argument, "arxiv:");
}

Report lookup_report(const std::string& input, Result<resolver::Resolution> resolved) {
  if (!resolved) return failed_lookup(input, resolved.error());
  resolver::Resolution& r = *resolved;
  Report report = std::move(r.record.report);
  report.merge(r.report);
  report.input = input;
  report.input_kind = "identifier";
  report.pith_number = r.record.number().to_string();
  report.extra["resolved_number"] = r.record.number().to_string();
  report.extra["resolved_from"] = r.source;
  report.extra["origin"] = resolver::to_string(r.origin);
  report.extra["document_kind"] = registry::to_string(r.record.kind);
  if (!r.failures.empty()) report.extra["failed_attempts"] = r.failures;
  return report;
}

std::vector<std::optional<Report>> look_up_identifiers(const std::vector<std::string>& arguments,
                                                       const resolver::ResolverOptions& options,
                                                       const registry::TrustStore& trust) {
  std::vector<std::size_t> positions;
  std::vector<std::string> identifiers;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    if (!is_identifier_argument(arguments[i])) continue;
    positions.push_back(i);
    identifiers.push_back(arguments[i]);
  }
  std::vector<std::optional<Report>> reports(arguments.size());
  if (identifiers.empty()) return reports;
  resolver::Resolver resolver(options, trust);
  auto resolved = resolver.resolve_many(identifiers);
  for (std::size_t k = 0; k < positions.size(); ++k) {
    reports[positions[k]] = lookup_report(identifiers[k], std::move(resolved[k]));
  }
  return reports;
}

}  // namespace pith::resolver
