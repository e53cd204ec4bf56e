// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/resolver/resolver.hpp"

#include "pith/base/check_codes.hpp"
#include "pith/registry/documents.hpp"
#include "pith/registry/identifier.hpp"

#include <algorithm>
#include <cctype>
#include <ctime>
#include <filesystem>
#include <optional>
#include <set>
#include <string>

namespace pith::resolver {
namespace {

// Who configured a base: what a public answer may call it, and whether an
// answer from it counts as the registry's or a mirror's.
enum class BaseRole { registry, mirror, hint };

struct Endpoint {
  std::string url;
  std::string accept;
  std::size_t base_index = 0;  // position in the job's bases
  std::string base;            // the base URL the endpoint is under
  BaseRole role = BaseRole::registry;
};

// What a public answer calls a base (never its URL: issue 23).
const char* public_name(BaseRole role) {
  switch (role) {
    case BaseRole::registry: return "the registry";
    case BaseRole::mirror: return "a mirror";
    case BaseRole::hint: return "a mirror the record names";
  }
  return "the registry";
}

std::string without_trailing_slash(std::string url) {
  while (url.size() > 1 && url.back() == '/') url.pop_back();
  return url;
}

bool is_file_url(std::string_view url) { return url.starts_with("file://"); }
bool is_web_url(std::string_view url) { return url.starts_with("https://") || url.starts_with("http://"); }

std::vector<Endpoint> endpoints_for(const std::string& base, std::size_t base_index, BaseRole role, const std::string& id) {
  std::vector<Endpoint> out = {
      {base + "/pith/" + id + "/bundle.json", "application/json", base_index, base, role},
      {base + "/.well-known/pith/" + id + "/bundle.json", "application/json", base_index, base, role},
      {base + "/pith/" + id + "/state.json", "application/json", base_index, base, role},
  };
  // A file:// mirror has no content negotiation: /pith/<ID> is a directory there.
  if (!is_file_url(base)) out.push_back({base + "/pith/" + id, "application/ld+json", base_index, base, role});
  return out;
}

// "a", "a or b", "a, b or c".
std::string either(const std::vector<std::string>& items) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += i + 1 == items.size() ? " or " : ", ";
    out += items[i];
  }
  return out;
}

// What a report or message calls an endpoint: its URL for a user, its role
// ("the registry", "a mirror") in a public answer (options.disclosure).
std::string shown(const ResolverOptions& options, const Endpoint& ep) {
  return options.disclosure == Disclosure::public_answer ? public_name(ep.role) : ep.url;
}

// A base as a message names it: its URL, or its role in a public answer.
std::string shown_base(const ResolverOptions& options, const std::string& base, BaseRole role) {
  return options.disclosure == Disclosure::public_answer ? public_name(role) : base;
}

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : "; ") + item;
  return out;
}

void add_unique(std::vector<std::string>& list, const std::string& item) {
  if (std::find(list.begin(), list.end(), item) == list.end()) list.push_back(item);
}

// The directory a file:// base names (file:///srv/m or file://localhost/srv/m,
// %XX decoded as curl decodes it), or nullopt for another host.
std::optional<std::filesystem::path> directory_of(std::string_view base) {
  base.remove_prefix(std::string_view("file://").size());
  if (base.starts_with("localhost/")) base.remove_prefix(std::string_view("localhost").size());
  if (!base.starts_with('/')) return std::nullopt;
  std::string path;
  for (std::size_t i = 0; i < base.size(); ++i) {
    const auto hex = [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; };
    if (base[i] == '%' && i + 2 < base.size() && hex(base[i + 1]) && hex(base[i + 2])) {
      path += static_cast<char>(std::stoi(std::string(base.substr(i + 1, 2)), nullptr, 16));
      i += 2;
    } else {
      path += base[i];
    }
  }
  return std::filesystem::path(path);
}

bool is_body(std::string_view name) {
  return name.size() == 26 && std::all_of(name.begin(), name.end(), [](char c) {
           return (c >= 'A' && c <= 'Z') || (c >= '2' && c <= '7');
         });
}

// The records a file:// mirror holds whose body starts with `prefix`: a scan
// of its pith/ and .well-known/pith/ directories. A plain mirror (a copy of
// the registry's paths) has no short-form paths and needs no index file for
// this; a directory of a million records costs one readdir of it per lookup.
std::vector<std::string> mirror_bodies_with_prefix(std::string_view base, std::string_view prefix) {
  std::set<std::string> bodies;
  const auto dir = directory_of(base);
  if (!dir) return {};
  for (const char* sub : {"pith", ".well-known/pith"}) {
    std::error_code ec;
    for (std::filesystem::directory_iterator it(*dir / sub, ec), end; !ec && it != end; it.increment(ec)) {
      const std::string name = it->path().filename().string();
      if (is_body(name) && name.starts_with(prefix)) bodies.insert(name);
    }
  }
  return {bodies.begin(), bodies.end()};
}

std::string iso_time(std::int64_t unix_seconds) {
  if (unix_seconds <= 0) return "at an unknown time";
  const std::time_t t = static_cast<std::time_t>(unix_seconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

// The first failed check of a report, for a one-line reason.
std::string first_failure(const Report& report) {
  for (const auto& c : report.checks()) {
    if (c.status == CheckStatus::fail) return c.code + (c.detail.empty() ? "" : ": " + c.detail);
  }
  return std::string("verdict ") + to_string(report.verdict());
}

// Why a verified-looking document was refused, and what that means.
struct Refusal {
  ErrorKind kind = ErrorKind::rejected;  // rejected, or unverifiable (intact, but no trusted signature)
  std::string reason;
};

// A document is usable only when fully verified against the trust store
// (then it holds a record) and it is the record asked for.
std::optional<Refusal> rejection_reason(const registry::DocumentVerification& verification, const registry::Identifier& id) {
  if (!verification.record()) {
    const Verdict verdict = verification.report.verdict();
    return Refusal{verdict == Verdict::unverifiable ? ErrorKind::unverifiable : ErrorKind::rejected,
                   "failed verification (" + first_failure(verification.report) + ")"};
  }
  const registry::VerifiedRecord& record = *verification.record();
  if (!id.matches(record.pith_number, record.canonical_record)) {
    return Refusal{ErrorKind::rejected, "substitution: " + id.mismatch(record.pith_number, record.canonical_record)};
  }
  return std::nullopt;
}

// mirror_hints of a verified bundle: other bases serving the same paths.
// Only a bundle's are signed; a state alone is not, and its hints would send
// requests wherever its author chose (SSRF).
std::vector<std::string> mirror_hint_bases(const registry::DocumentContent& content) {
  std::vector<std::string> out;
  if (content.kind != registry::DocumentKind::bundle) return out;
  auto collect = [&out](const nlohmann::json& hints) {
    if (!hints.is_array()) return;
    for (const auto& h : hints) {
      if (h.is_object() && h.contains("base_url") && h["base_url"].is_string()) {
        const std::string base = h["base_url"].get<std::string>();
        if (is_web_url(base) && base.size() < 2048) out.push_back(base);
      }
    }
  };
  collect(registry::member(content.document, "mirror_hints"));
  collect(registry::member(registry::member(registry::merged_state(content), "current"), "mirror_hints"));
  return out;
}

std::vector<std::string> arxiv_aliases_of(const nlohmann::json& record) {
  std::vector<std::string> out;
  const auto arxiv = registry::record_arxiv_source(record);
  if (!arxiv) return out;
  out.push_back(arxiv->id);
  if (arxiv->version) out.push_back(arxiv->to_string());
  return out;
}

// The sound entry already filed under `full_number` (it verifies and holds
// that number), for an answer to a lookup that did not start from it (an
// arXiv id without an alias, an ambiguous short form): such an answer must
// not replace a newer copy either.
struct HeldEntry {
  CachedDocument document;
  registry::VerifiedRecord record;
};
std::optional<HeldEntry> sound_entry_for(const RecordCache& cache, const DocumentVerifier& verify,
                                         const std::string& full_number) {
  const auto number = registry::parse_pith_number(full_number);
  if (!number || !number->has_whole_body()) return std::nullopt;
  auto doc = cache.load_body(number->body);
  if (!doc) return std::nullopt;
  auto verified = verify(doc->bytes, doc->path.string());
  if (!verified || !verified->record() || verified->record()->pith_number != full_number) return std::nullopt;
  if (!doc->full_number.empty() && doc->full_number != full_number) return std::nullopt;
  return HeldEntry{std::move(*doc), *std::move(*verified).record()};
}

// Only a signed bundle is kept: a state alone is not signed, and a cached
// copy is what later lookups (and the rollback check) start from.
bool cacheable(registry::DocumentKind kind) { return kind == registry::DocumentKind::bundle; }

}  // namespace

const char* to_string(ResolutionOrigin o) {
  switch (o) {
    case ResolutionOrigin::server: return "server";
    case ResolutionOrigin::mirror: return "mirror";
    case ResolutionOrigin::cache: return "cache";
    case ResolutionOrigin::stale_cache: return "stale cache";
  }
  return "?";
}

// One input on its way through cache, bases and endpoints.
struct Resolver::Job {
  std::string input;
  registry::Identifier id;
  std::optional<Result<Resolution>> result;  // set when finished
  std::optional<CachedDocument> cached;      // verified but not fresh: revalidate, or fall back to it
  std::optional<registry::VerifiedRecord> cached_record;
  std::vector<Endpoint> endpoints;
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
    Resolution r;
    r.input = input;
    r.identifier = id;
    r.origin = origin;
    r.source = std::move(source);
    r.failures = std::move(failures);
    r.not_served = not_served();
    r.report = std::move(report);
    r.record = std::move(record);
    return r;
  }
};

Resolver::Resolver(ResolverOptions options, DocumentVerifier verifier)
    : options_(std::move(options)),
      verify_(std::move(verifier)),
      cache_(options_.effective_cache_dir()),
      http_(std::make_unique<HttpClient>(options_.http_options())) {}

Resolver::~Resolver() = default;

void Resolver::consult_cache(Job& job) {
  std::optional<std::string> body;
  switch (job.id.kind()) {
    case registry::IdentifierKind::full_number:
    case registry::IdentifierKind::body: body = job.id.number()->body; break;
    case registry::IdentifierKind::arxiv: body = cache_.body_for_arxiv(job.id.text()); break;
    case registry::IdentifierKind::short_form: {
      const auto bodies = cache_.bodies_with_prefix(job.id.number()->body);
      if (bodies.size() == 1) body = bodies.front();
      if (bodies.size() > 1) {
        job.report.warn(check_code::resolver_short_form_ambiguous,
                        job.id.text() + " matches " + std::to_string(bodies.size()) + " cached records; asking the registry");
      }
      break;
    }
  }
  if (!body) return;
  auto doc = cache_.load_body(*body);
  if (!doc) return;
  auto verified = verify_(doc->bytes, doc->path.string());
  // An entry that does not verify, or holds another number than the one it
  // is filed under, is never used; it is not removed either (the cache only
  // ever changes by a verified record filed under its own number: the next
  // verified fetch of this number replaces it).
  std::optional<std::string> unusable;
  if (!verified) {
    unusable = verified.error().describe();
  } else if (!verified->record()) {
    unusable = "failed verification (" + first_failure(verified->report) + ")";
  } else if (!doc->full_number.empty() && doc->full_number != verified->record()->pith_number) {
    unusable = "filed under " + doc->full_number + " but holds " + verified->record()->pith_number;
  }
  if (unusable) {
    const ErrorKind kind = verified && !verified->record() && verified->report.verdict() == Verdict::unverifiable
                               ? ErrorKind::unverifiable
                               : ErrorKind::rejected;
    job.report.warn(check_code::resolver_cache_rejected,
                    shown_cache(doc->path) + ": " + *unusable + "; not used (left in place until a verified copy replaces it)");
    job.failures.push_back(doc->path.string() + ": " + *unusable + " (cache entry not used)");
    job.refusals.push_back("the cached copy " + *unusable + " (not used, left in place)");
    job.refuse(kind);
    return;
  }
  // A sound entry that is not what was asked for (another year, another
  // arXiv id): the lookup's mistake, not the entry's. It is neither used nor
  // touched, and the answer says which record the cache does hold.
  if (auto why = rejection_reason(*verified, job.id)) {
    const std::string& held = verified->record()->pith_number;
    const bool same_body = job.id.number() && job.id.number()->has_whole_body() &&
                           held.ends_with(":" + job.id.number()->body);
    const std::string reason = same_body ? "the year differs: the record with this body is " + held : why->reason;
    job.report.warn(check_code::resolver_cache_other_record,
                    shown_cache(doc->path) + " holds " + held + ", not what was asked for (" + reason + "); not used, and kept");
    job.failures.push_back(doc->path.string() + ": holds " + held + ", not " + job.id.text() + " (" + reason +
                           "); not used, kept");
    job.refusals.push_back("the cache holds " + held + ", not " + job.id.text() + " (" + reason + "); not used, kept");
    job.refuse(why->kind);
    return;
  }
  const bool fresh = doc->meta.fetched_at > 0 && unix_now() - doc->meta.fetched_at < options_.freshness.count();
  if (options_.offline || (fresh && !options_.refresh)) {
    Resolution r = job.resolved(ResolutionOrigin::cache, shown_cache(doc->path), *std::move(*verified).record());
    r.report.pass(check_code::resolver_source, std::string("verified ") + to_string(r.record.kind) + " from " +
                                         cache_phrase(r.source) + " (fetched " + iso_time(doc->meta.fetched_at) + ")");
    if (options_.offline) {
      r.report.warn(check_code::resolver_offline, "offline: the registry was not asked; cached copy fetched " +
                                            iso_time(doc->meta.fetched_at));
    }
    job.result = std::move(r);
    return;
  }
  job.cached = std::move(*doc);
  job.cached_record = std::move(*verified).record();
}

void Resolver::finish_from_network(Job& job, registry::VerifiedRecord record, const std::string& url,
                                   const HttpResponse& response) {
  const Endpoint& ep = job.endpoints[job.next];
  const bool mirror = ep.role != BaseRole::registry;
  if (cacheable(record.kind)) {
    pending_stores_.push_back({record.pith_number, record.document_bytes,
                               CacheMeta{url, response.etag, response.last_modified, unix_now()},
                               arxiv_aliases_of(record.canonical_record)});
  }
  Resolution r = job.resolved(mirror ? ResolutionOrigin::mirror : ResolutionOrigin::server, shown(options_, ep), std::move(record));
  r.report.pass(check_code::resolver_source, std::string("verified ") + to_string(r.record.kind) + " from " +
                                       (public_answers() ? r.source : to_string(r.origin) + std::string(" ") + url));
  job.result = std::move(r);
}

void Resolver::handle_answer(Job& job, Result<HttpResponse> answer) {
  const Endpoint& ep = job.endpoints[job.next];
  if (!answer) {
    // Transport failure (refused, timeout, TLS, too large, bad redirect): this
    // base will not do better on its other paths; go to the next base.
    job.failures.push_back(answer.error().describe());
    add_unique(job.bases_unreachable, ep.base + ": " + answer.error().message);
    job.skip_base(ep.base_index);
    return;
  }
  if (answer->not_modified && job.cached && job.cached_record) {
    // Same bytes as our verified copy: use it, refreshed.
    const std::string full = job.cached_record->pith_number;
    (void)cache_.touch(full, unix_now());
    HttpResponse same = *answer;
    same.etag = job.cached->meta.etag;
    same.last_modified = job.cached->meta.last_modified;
    registry::VerifiedRecord record = std::move(*job.cached_record);
    job.cached_record.reset();
    const bool mirror = ep.role != BaseRole::registry;
    Resolution r = job.resolved(ResolutionOrigin::cache, shown_cache(job.cached->path), std::move(record));
    r.report.pass(check_code::resolver_source, std::string("verified ") + to_string(r.record.kind) + " from " + cache_phrase(r.source) +
                                         ", revalidated with " +
                                         (public_answers() ? shown(options_, ep) : (mirror ? "mirror " : "server ") + ep.url) +
                                         " (304 Not Modified)");
    job.result = std::move(r);
    return;
  }
  if (!answer->ok()) {
    job.failures.push_back(ep.url + ": " + answer->status_text());
    if (answer->status == 404) {
      ++job.answered_not_found;
      add_unique(job.bases_not_found, ep.base);
    } else {
      ++job.answered_otherwise;
      add_unique(job.bases_unreachable, ep.base + ": " + answer->status_text());
    }
    // A 5xx that outlived the retries: the server is in trouble, try the next base.
    if (answer->status >= 500) {
      job.skip_base(ep.base_index);
    } else {
      ++job.next;
    }
    return;
  }
  auto verified = verify_(answer->body, ep.url);
  if (!verified) {
    job.failures.push_back(ep.url + ": not a registry document (" + verified.error().message + ")");
    add_unique(job.bases_unreachable, ep.base + ": not a registry document");
    ++job.next;
    return;
  }
  if (auto why = rejection_reason(*verified, job.id)) {
    job.failures.push_back(ep.url + ": " + why->reason);
    job.refusals.push_back((public_answers() ? std::string("the answer of ") + shown(options_, ep) : ep.url) + " " + why->reason);
    job.report.warn(check_code::resolver_rejected, shown(options_, ep) + ": " + why->reason);
    job.refuse(why->kind);
    ++job.next;
    return;
  }
  if (!job.cached_record) {
    if (auto held = sound_entry_for(cache_, verify_, verified->record()->pith_number)) {
      job.cached = std::move(held->document);
      job.cached_record = std::move(held->record);
    }
  }
  if (job.cached_record) {
    if (auto older = registry::rollback_from(*job.cached_record, *verified->record())) {
      finish_with_rollback(job, ep.url, shown(options_, ep), *older);
      return;
    }
  }
  finish_from_network(job, *std::move(*verified).record(), ep.url, *answer);
}

void Resolver::finish_with_rollback(Job& job, const std::string& url, const std::string& shown_as, const std::string& why) {
  // The answer verifies, but is older than the verified copy held: a
  // replayed bundle hiding later events (a correction). It replaces nothing;
  // the newer copy is used, and its fetch time is left as it was so the
  // registry is asked again next time.
  job.failures.push_back(url + ": older than the cached copy (" + why + ")");
  registry::VerifiedRecord record = std::move(*job.cached_record);
  job.cached_record.reset();
  Resolution r = job.resolved(ResolutionOrigin::cache, shown_cache(job.cached->path), std::move(record));
  r.report.pass(check_code::resolver_source, std::string("verified ") + to_string(r.record.kind) + " from " + cache_phrase(r.source) +
                                       " (fetched " + iso_time(job.cached->meta.fetched_at) + ")");
  r.report.warn(check_code::online_rollback, shown_as + " served an older copy of the record than the one already verified (" +
                                       why + "): not used; the newer cached copy " +
                                       (public_answers() ? std::string() : r.source + " ") + "is");
  job.result = std::move(r);
}

void Resolver::finish_exhausted(Job& job) {
  if (job.result) return;
  if (job.cached && job.cached_record) {
    Resolution r = job.resolved(ResolutionOrigin::stale_cache, shown_cache(job.cached->path), std::move(*job.cached_record));
    r.report.pass(check_code::resolver_source, std::string("verified ") + to_string(r.record.kind) + " from " +
                                         cache_phrase(r.source) + " (fetched " + iso_time(job.cached->meta.fetched_at) + ")");
    r.report.warn(check_code::resolver_cache_stale, "the registry and mirrors did not answer; using the cached copy fetched " +
                                              iso_time(job.cached->meta.fetched_at));
    job.result = std::move(r);
    return;
  }
  const ErrorKind kind = job.refused ? *job.refused : job.not_served() ? ErrorKind::not_served : ErrorKind::network;
  const std::string message = failure_message(job, kind);
  if (public_answers()) log_for_operator(job.input, failure_message(job, kind, Disclosure::user), job.failures);
  job.result = fail(kind, job.input, message);
}

// Why `job` was not resolved, in one line, for `audience` (issue 23): a CLI
// user reads the bases they configured and what each did (their own
// set-up; every attempt is in the JSON's failed_attempts too); a public
// answer says what the asker needs, never a URL, a path or a status.
std::string Resolver::failure_message(const Job& job, ErrorKind kind, std::optional<Disclosure> audience) const {
  const bool user = audience.value_or(options_.disclosure) == Disclosure::user;
  const std::string& input = job.input;
  switch (kind) {
    case ErrorKind::rejected:
    case ErrorKind::unverifiable:
    case ErrorKind::conflict: {
      std::string why;
      for (const auto& r : job.refusals) why += (why.empty() ? "" : "; ") + r;
      if (user) {
        return "bad record rejected, nothing verified; " + why +
               (options_.offline ? " (offline: only the cache and file:// bases were asked)" : "");
      }
      return (kind == ErrorKind::unverifiable ? "the record served for " + input + " is not signed by a key this service trusts; "
                                              : "a record served for " + input + " was rejected, nothing verified; ") +
             why;
    }
    case ErrorKind::not_served: {
      if (!user) return "no record for " + input + " at the configured registry; check the number";
      std::string message = "no record for " + input + " at " + either(job.bases_not_found) + "; check the number";
      if (!job.bases_unreachable.empty()) message += " (no answer from " + joined(job.bases_unreachable) + ")";
      if (options_.offline) message += " (offline: only the cache and file:// bases were asked)";
      return message;
    }
    default: break;
  }
  if (job.endpoints.empty() && options_.offline) {
    if (!user) return "no record for " + input + " in this service's cache";
    return input + " is not in the cache " + cache_.dir().string() +
           "; offline, only the cache and file:// bases are asked (give --mirror file://DIR, or go online)";
  }
  if (!user) return "the registry could not be reached for " + input + "; try again later";
  std::string message = "not resolved: no answer from " + joined(job.bases_unreachable);
  if (options_.offline) {
    message += " (offline: only the cache and file:// bases were asked)";
  } else {
    message += network_hint;  // options.hpp
  }
  return message;
}

bool Resolver::public_answers() const { return options_.disclosure == Disclosure::public_answer; }


std::string Resolver::shown_cache(const std::filesystem::path& path) const {
  return public_answers() ? std::string("the cache") : path.string();
}

// "the cache" alone, or "the cache PATH".
std::string Resolver::cache_phrase(const std::string& shown_path) const {
  return public_answers() ? shown_path : "the cache " + shown_path;
}

void Resolver::log_for_operator(const std::string& input, const std::string& what,
                                const std::vector<std::string>& attempts) const {
  if (!options_.operator_log) return;
  std::string line = "lookup " + input + ": " + what;
  if (!attempts.empty()) {
    line += "; attempts:";
    for (const auto& a : attempts) line += " " + a + ";";
    line.pop_back();
  }
  options_.operator_log(line);
}

Result<Resolution> Resolver::resolve(std::string_view input) {
  return std::move(resolve_many({std::string(input)}).front());
}

std::vector<Result<Resolution>> Resolver::resolve_many(const std::vector<std::string>& inputs) {
  std::vector<Job> jobs(inputs.size());
  std::vector<std::pair<std::string, BaseRole>> user_bases;
  user_bases.emplace_back(without_trailing_slash(options_.resolver_url), BaseRole::registry);
  for (const auto& m : options_.mirrors) user_bases.emplace_back(without_trailing_slash(m), BaseRole::mirror);

  for (std::size_t i = 0; i < inputs.size(); ++i) {
    Job& job = jobs[i];
    job.input = inputs[i];
    auto id = registry::parse_identifier(inputs[i]);
    if (!id) {
      job.result = std::unexpected(id.error());
      continue;
    }
    job.id = std::move(*id);
    consult_cache(job);
    if (job.result) continue;
    std::vector<std::pair<std::string, BaseRole>> bases = user_bases;
    if (job.cached_record && options_.mirror_hints) {
      for (auto& hint : mirror_hint_bases(*job.cached_record)) bases.emplace_back(without_trailing_slash(hint), BaseRole::hint);
    }
    std::vector<std::pair<std::string, BaseRole>> unique;
    for (auto& b : bases) {
      if (options_.offline && !is_file_url(b.first)) continue;
      const bool seen = std::any_of(unique.begin(), unique.end(), [&](const auto& u) { return u.first == b.first; });
      if (!seen) unique.push_back(b);  // a hint that is a configured base keeps the configured role
    }
    for (std::size_t b = 0; b < unique.size() && !job.result; ++b) {
      const auto& [base, role] = unique[b];
      std::string path_id = job.id.path_id();
      // A short form on a file:// mirror: the one record there it names.
      if (is_file_url(base) && job.id.kind() == registry::IdentifierKind::short_form) {
        const auto bodies = mirror_bodies_with_prefix(base, job.id.number()->body);
        if (bodies.size() == 1) path_id = bodies.front();
        if (bodies.size() > 1) {
          job.result = fail(ErrorKind::usage, job.input,
                            job.id.text() + " is ambiguous: " + std::to_string(bodies.size()) + " records in " +
                                shown_base(options_, base, role) + " start with it (pith:" + bodies[0] + ", pith:" +
                                bodies[1] + (bodies.size() > 2 ? ", ..." : "") + "); give more characters of the number");
        }
      }
      for (auto& ep : endpoints_for(base, b, role, path_id)) job.endpoints.push_back(std::move(ep));
    }
  }

  // Rounds: every unfinished job asks its next endpoint, all at once.
  for (;;) {
    std::vector<std::size_t> active;
    std::vector<HttpRequest> requests;
    for (std::size_t i = 0; i < jobs.size(); ++i) {
      Job& job = jobs[i];
      if (!job.has_next()) continue;
      const Endpoint& ep = job.endpoints[job.next];
      HttpRequest req(ep.url, ep.accept);
      if (job.cached && job.cached->meta.url == ep.url) {
        if (!job.cached->meta.etag.empty()) req.if_none_match = job.cached->meta.etag;
        if (!job.cached->meta.last_modified.empty()) req.if_modified_since = job.cached->meta.last_modified;
      }
      active.push_back(i);
      requests.push_back(std::move(req));
    }
    if (active.empty()) break;
    auto answers = requests.size() == 1
                       ? std::vector<Result<HttpResponse>>{http_->get(requests.front())}
                       : http_->get_many(requests, options_.max_concurrency);
    for (std::size_t k = 0; k < active.size(); ++k) handle_answer(jobs[active[k]], std::move(answers[k]));
  }

  // The batch's verified documents go to the cache together (one sync).
  // Offline, the cache is only read: what a file:// base served is used, not kept.
  const auto stored = options_.offline ? Result<void>{} : cache_.store_many(pending_stores_);
  pending_stores_.clear();

  std::vector<Result<Resolution>> out;
  out.reserve(jobs.size());
  for (auto& job : jobs) {
    finish_exhausted(job);
    if (job.result && job.result->has_value()) {
      Resolution& r = **job.result;
      if (!stored && (r.origin == ResolutionOrigin::server || r.origin == ResolutionOrigin::mirror)) {
        r.report.warn(check_code::resolver_cache_write, public_answers() ? "the verified record could not be cached"
                                                               : stored.error().describe());
        if (public_answers()) log_for_operator(job.input, "not cached: " + stored.error().describe(), {});
      }
      if (public_answers() && !r.failures.empty()) {
        // The attempts that failed before this one answered: the operator's.
        log_for_operator(job.input, "resolved from " + r.source + " after failed attempts", r.failures);
        r.failures.clear();
      }
      if (job.id.kind() == registry::IdentifierKind::short_form) {
        r.report.pass(check_code::resolver_short_form, job.id.text() + " resolved to " + r.record.pith_number);
      } else if (job.id.kind() == registry::IdentifierKind::arxiv) {
        r.report.pass(check_code::resolver_arxiv, "arXiv " + job.id.text() + " resolved to " + r.record.pith_number +
                                            " (the signed record's source matches)");
      }
    }
    out.push_back(std::move(*job.result));
  }
  return out;
}

}  // namespace pith::resolver
