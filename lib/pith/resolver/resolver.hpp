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

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace pith::resolver {

// Verifies registry bytes; `name` (a URL or cache path) goes into errors.
using DocumentVerifier = std::function<Result<registry::VerifiedRecord>(std::string_view bytes, std::string_view name)>;

// The production verifier: verify_document with the tool's trust store
// (which must outlive the returned function).
[[nodiscard]] inline DocumentVerifier verifier_using(const registry::TrustStore& trust) {
  return [&trust](std::string_view bytes, std::string_view name) { return registry::verify_document(bytes, trust, name); };
}

// A failed resolution during which some answer (or cache entry) was refused
// as forged, tampered or substituted has an Error message starting with this
// marker: a front end reports it as a failed verification, not a network error.
inline constexpr std::string_view rejection_marker = "bad record rejected";
[[nodiscard]] inline bool is_rejection(const Error& e) { return e.message.starts_with(rejection_marker); }

enum class ResolutionOrigin { server, mirror, cache, stale_cache };
[[nodiscard]] const char* to_string(ResolutionOrigin o);

struct Resolution {
  std::string input;           // as typed
  registry::Identifier identifier;
  registry::VerifiedRecord record;       // verified; record.pith_number is the full number
  ResolutionOrigin origin = ResolutionOrigin::server;
  std::string source;          // URL, or cache file path
  std::vector<std::string> failures;  // each attempt that did not yield the record: "URL: why"
  Report report;               // resolver.* checks (source, short form, arXiv, offline, cache, rejected)
};

class Resolver {
 public:
  Resolver(ResolverOptions options, DocumentVerifier verifier);
  ~Resolver();
  Resolver(const Resolver&) = delete;
  Resolver& operator=(const Resolver&) = delete;

  // The Error names the input and summarises every failed attempt.
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

  ResolverOptions options_;
  DocumentVerifier verify_;
  RecordCache cache_;
  std::vector<RecordCache::Entry> pending_stores_;  // verified in this batch, written at its end
  std::unique_ptr<HttpClient> http_;
};

}  // namespace pith::resolver
