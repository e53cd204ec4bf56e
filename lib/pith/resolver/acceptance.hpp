// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the resolver accepts (resolver.cpp, not installed): a document only
// when it verified against the trust store and is the record asked for; a
// cache entry only when it verifies and holds the number it is filed under;
// only signed bundles go into the cache.
#include "pith/base/report.hpp"
#include "pith/registry/identifier.hpp"
#include "pith/registry/verify.hpp"
#include "pith/resolver/cache.hpp"
#include "pith/resolver/resolver.hpp"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace pith::resolver::detail {

// The first failed check of a report, for a one-line reason.
[[nodiscard]] std::string first_failure(const Report& report);

// Why a verified-looking document was refused, and what that means.
struct Refusal {
  // rejected, unverifiable (intact, but no trusted signature), or not_served
  // (the record asked for under another year: `same_body` is its number)
  ErrorKind kind = ErrorKind::rejected;
  std::string reason;
  std::string same_body;
};

// A document is usable only when fully verified against the trust store
// (then it holds a record) and it is the record asked for.
[[nodiscard]] std::optional<Refusal> rejection_reason(const registry::DocumentVerification& verification,
                                                      const registry::Identifier& id);

// The arXiv ids a record's cache entry is also filed under (with and without version).
[[nodiscard]] std::vector<std::string> arxiv_aliases_of(const nlohmann::json& record);

// The sound entry already filed under `full_number` (it verifies and holds
// that number), for an answer to a lookup that did not start from it (an
// arXiv id without an alias, an ambiguous short form): such an answer must
// not replace a newer copy either.
struct HeldEntry {
  CachedDocument document;
  registry::VerifiedRecord record;
};
[[nodiscard]] std::optional<HeldEntry> sound_entry_for(const RecordCache& cache, const registry::TrustStore& trust,
                                                       const registry::PithNumber& full_number);

// Only a signed bundle is kept: a state alone is not signed, and a cached
// copy is what later lookups (and the rollback check) start from.
[[nodiscard]] bool cacheable(registry::DocumentKind kind);

}  // namespace pith::resolver::detail
