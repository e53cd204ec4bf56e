// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Resolves what a user typed (full number, body, short form, arXiv id) to a
// fully verified registry document. Order: a fresh cache entry; then, per
// base (the resolver, then the user's mirrors, then the mirror_hints of a
// cached bundle), `/pith/<ID>/bundle.json`, `/.well-known/pith/<ID>/bundle.json`,
// `/pith/<ID>/state.json`, `/pith/<ID>` (application/ld+json); finally a stale
// cache entry when nothing online answered. Every answer, cached or fetched,
// is verified with the trust store before use, and must be the record that
// was asked for (a verified record of another paper is a substitution and is
// rejected). Offline, only the cache and file:// bases are used.
#include "pith/resolver/cache.hpp"
#include "pith/base/error.hpp"
#include "pith/registry/identifier.hpp"
#include "pith/base/report.hpp"
#include "pith/resolver/options.hpp"
#include "pith/registry/verify.hpp"

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pith::resolver {

enum class ResolutionOrigin { server, mirror, cache, stale_cache };
[[nodiscard]] const char* to_string(ResolutionOrigin o);

struct Resolution {
  std::string input;           // as typed
  registry::Identifier identifier;
  registry::VerifiedRecord record;       // verified; record.number() is the full number
  ResolutionOrigin origin = ResolutionOrigin::server;
  std::string source;          // URL, or cache file path; in a public answer "the registry", "a mirror", "the cache"
  // Each attempt that did not yield the record: "URL: why" (empty in a
  // public answer, options.disclosure: those went to options.operator_log).
  std::vector<std::string> failures;
  // Every base that answered with an HTTP status answered 404 (and one did):
  // the registry no longer serves the record, and this came from the cache.
  bool not_served = false;
  Report report;               // resolver.* checks (source, short form, arXiv, offline, cache, rejected)
};

class Resolver {
 public:
  // Every answer and cache entry is verified with registry::verify_document
  // against `trust` (the tool's store: pinned key and the user's keys),
  // which must outlive the resolver. There is no other verifier to plug in:
  // what the resolver hands out is what the registry's verification made.
  Resolver(ResolverOptions options, const registry::TrustStore& trust);
  Resolver(ResolverOptions, registry::TrustStore&&) = delete;  // a temporary store would dangle
  ~Resolver();
  Resolver(const Resolver&) = delete;
  Resolver& operator=(const Resolver&) = delete;

  // The Error names the input and summarises every failed attempt. Its kind
  // says what happened: rejected (some answer or cache entry was forged,
  // tampered or another paper's record), unverifiable (answers were intact
  // but signed by no trusted key), not_served (every base that answered said
  // 404), network (nothing answered, or offline and not cached), malformed
  // (the input is not an identifier).
  [[nodiscard]] Result<Resolution> resolve(std::string_view input);
  // Many inputs at once: concurrent transfers over reused connections,
  // at most options.max_concurrency in flight. Results in input order.
  [[nodiscard]] std::vector<Result<Resolution>> resolve_many(const std::vector<std::string>& inputs);

  [[nodiscard]] const ResolverOptions& options() const { return options_; }
  [[nodiscard]] RecordCache& cache() { return cache_; }

 private:
  struct Job;
  void consult_cache(Job& job);
  void handle_answer(Job& job, Result<HttpResponse> answer);
  void finish_from_network(Job& job, registry::VerifiedRecord record, const std::string& url, const HttpResponse& response);
  void finish_exhausted(Job& job);
  void finish_with_rollback(Job& job, const std::string& url, const std::string& shown_as, const std::string& why);
  [[nodiscard]] std::string failure_message(const Job& job, ErrorKind kind,
                                            std::optional<Disclosure> audience = std::nullopt) const;
  // What reports and messages call a cache file: its path for a user, "the
  // cache" in a public answer (options.disclosure).
  [[nodiscard]] bool public_answers() const;
  [[nodiscard]] std::string shown_cache(const std::filesystem::path& path) const;
  [[nodiscard]] std::string cache_phrase(const std::string& shown_path) const;
  void log_for_operator(const std::string& input, const std::string& what, const std::vector<std::string>& attempts) const;

  // registry::verify_document with the trust store; `name` (a URL or cache path) goes into errors.
  [[nodiscard]] Result<registry::DocumentVerification> verify(std::string_view bytes, std::string_view name) const;

  ResolverOptions options_;
  const registry::TrustStore* trust_;  // never null
  RecordCache cache_;
  std::vector<RecordCache::Entry> pending_stores_;  // verified in this batch, written at its end
  std::unique_ptr<HttpClient> http_;
};

}  // namespace pith::resolver
