// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/resolver/resolver.hpp"
#include "pith/resolver/acceptance.hpp"
#include "pith/resolver/resolver_job.hpp"

#include "pith/base/check_codes.hpp"
#include "pith/registry/documents.hpp"
#include "pith/registry/identifier.hpp"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>

namespace pith::resolver {

using namespace detail;  // endpoints.hpp, acceptance.hpp, resolver_job.hpp

namespace {

void add_unique(std::vector<std::string>& list, const std::string& item) {
  if (std::find(list.begin(), list.end(), item) == list.end()) list.push_back(item);
}

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

Resolver::Resolver(ResolverOptions options, const registry::TrustStore& trust)
    : options_(std::move(options)),
      trust_(&trust),
      cache_(options_.effective_cache_dir()),
      http_(std::make_unique<HttpClient>(options_.http_options())) {}

Resolver::~Resolver() = default;

Result<registry::DocumentVerification> Resolver::verify(std::string_view bytes, std::string_view name) const {
  return registry::verify_document(bytes, *trust_, name);
}

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
  auto verified = verify(doc->bytes, doc->path.string());
  // An entry that does not verify, or holds another number than the one it
  // is filed under, is never used; it is not removed either (the cache only
  // ever changes by a verified record filed under its own number: the next
  // verified fetch of this number replaces it).
  std::optional<std::string> unusable;
  if (!verified) {
    unusable = verified.error().describe();
  } else if (!verified->record()) {
    unusable = "failed verification (" + first_failure(verified->report) + ")";
  } else if (!doc->full_number.empty() && doc->full_number != verified->record()->number().to_string()) {
    unusable = "filed under " + doc->full_number + " but holds " + verified->record()->number().to_string();
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
    const std::string held = verified->record()->number().to_string();
    const std::string& reason = why->reason;
    if (!why->same_body.empty()) job.same_body = why->same_body;
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
    pending_stores_.push_back({record.number(), record.document_bytes,
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
    const registry::PithNumber full = job.cached_record->number();
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
  auto verified = verify(answer->body, ep.url);
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
    if (!why->same_body.empty()) job.same_body = why->same_body;
    job.refuse(why->kind);
    ++job.next;
    return;
  }
  if (!job.cached_record) {
    if (auto held = sound_entry_for(cache_, *trust_, verified->record()->number())) {
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
        r.report.pass(check_code::resolver_short_form, job.id.text() + " resolved to " + r.record.number().to_string());
      } else if (job.id.kind() == registry::IdentifierKind::arxiv) {
        r.report.pass(check_code::resolver_arxiv, "arXiv " + job.id.text() + " resolved to " + r.record.number().to_string() +
                                            " (the signed record's source matches)");
      }
    }
    out.push_back(std::move(*job.result));
  }
  return out;
}

}  // namespace pith::resolver
