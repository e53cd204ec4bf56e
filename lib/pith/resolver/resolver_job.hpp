// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One input on its way through the resolver (resolver.cpp,
// failure_message.cpp; not installed): cache, bases, endpoints, and what
// each attempt said.
#include "pith/resolver/endpoints.hpp"
#include "pith/resolver/resolver.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pith::resolver {

namespace detail {
// A time as reports write it (2026-05-01T12:00:00Z), or "at an unknown time".
[[nodiscard]] std::string iso_time(std::int64_t unix_seconds);
}  // namespace detail

// One input on its way through cache, bases and endpoints.
struct Resolver::Job {
  std::string input;
  registry::Identifier id;
  std::optional<Result<Resolution>> result;  // set when finished
  std::optional<CachedDocument> cached;      // verified but not fresh: revalidate, or fall back to it
  std::optional<registry::VerifiedRecord> cached_record;
  std::vector<detail::Endpoint> endpoints;
  std::size_t next = 0;
  std::vector<std::string> failures;  // "URL or path: why", each attempt that failed (the operator's detail)
  // For the one-line message (failure_message): the bases that answered 404,
  // those that could not be reached (with why), and why answers were refused.
  std::vector<std::string> bases_not_found;
  std::vector<std::string> bases_unreachable;
  std::vector<std::string> refusals;
  // The worst refusal of an answer or cache entry so far: rejected (forged,
  // tampered, substituted) outranks unverifiable (signed by no trusted key).
  std::optional<ErrorKind> refused;
  // The number of a verified record with the asked body under another year
  // (the asker mistyped the year): said instead of "not served".
  std::string same_body;
  std::size_t answered_not_found = 0;  // HTTP 404 answers
  std::size_t answered_otherwise = 0;  // other HTTP error statuses
  Report report;

  void refuse(ErrorKind kind) {
    if (!refused || kind == ErrorKind::rejected) refused = kind;
  }
  // Some base answered 404 and none answered another error status (a base
  // that could not be reached says nothing either way; a 5xx is trouble, not
  // an answer).
  [[nodiscard]] bool not_served() const { return answered_not_found > 0 && answered_otherwise == 0; }

  [[nodiscard]] bool has_next() const { return !result && next < endpoints.size(); }
  void skip_base(std::size_t base_index) {
    while (next < endpoints.size() && endpoints[next].base_index == base_index) ++next;
  }
  // The answer for this input: `record` from `source`, with the failed
  // attempts and the report's checks so far (moved out of the job).
  [[nodiscard]] Resolution resolved(ResolutionOrigin origin, std::string source, registry::VerifiedRecord record) {
    return Resolution{.input = input,
                      .identifier = id,
                      .record = std::move(record),
                      .origin = origin,
                      .source = std::move(source),
                      .failures = std::move(failures),
                      .not_served = not_served(),
                      .report = std::move(report)};
  }
};

}  // namespace pith::resolver
