// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// pith-check's arguments that name a paper instead of a file (a Pith Number
// in any form, an arXiv id): resolved from the registry, its mirrors or the
// cache (resolver.hpp) in one batch, each made into the verification report
// of the record found, with where it came from.
#include "pith/base/report.hpp"
#include "pith/registry/trust_store.hpp"
#include "pith/resolver/options.hpp"
#include "pith/resolver/resolver.hpp"

#include <optional>
#include <string>
#include <vector>

namespace pith::resolver {

// A file that exists is checked as a file, even if its name looks like a
// number. Otherwise a number or arXiv id is resolved; so is anything written
// `pith:...` or `arXiv:...`, so that a typo gets the parser's message (which
// character, where) instead of "no such file".
[[nodiscard]] bool is_identifier_argument(const std::string& argument);

// The report of one lookup: the record's verification report and the
// resolver's checks (details: resolved_number, resolved_from, origin,
// document_kind, failed_attempts). A failed lookup: resolver.rejected (fail)
// when what was served was forged, tampered or substituted; resolver.rejected
// (warn, verdict unverifiable) when it was intact but signed by no trusted
// key; else the error (verdict error).
[[nodiscard]] Report lookup_report(const std::string& input, Result<Resolution> resolved);

// The reports of every identifier argument among `arguments`, resolved
// together (concurrent, over reused connections), in argument order; nullopt
// for the arguments that are files. The resolver is only made (and the
// network only used) when there is an identifier.
[[nodiscard]] std::vector<std::optional<Report>> look_up_identifiers(const std::vector<std::string>& arguments,
                                                                     const ResolverOptions& options,
                                                                     const registry::TrustStore& trust);

}  // namespace pith::resolver
