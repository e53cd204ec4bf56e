// SPDX-License-Identifier: GPL-3.0-or-later
// What the resolver says when a lookup fails, and how it names a cache
// file (resolver.hpp: the Resolver's messages; issue 23: a public answer
// never shows a URL, a path or a status).
#include "pith/resolver/resolver_job.hpp"

#include <ctime>

namespace pith::resolver {

namespace detail {

std::string iso_time(std::int64_t unix_seconds) {
  if (unix_seconds <= 0) return "at an unknown time";
  const std::time_t t = static_cast<std::time_t>(unix_seconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace detail

namespace {

// "a", "a or b", "a, b or c".
std::string either(const std::vector<std::string>& items) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += i + 1 == items.size() ? " or " : ", ";
    out += items[i];
  }
  return out;
}

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : "; ") + item;
  return out;
}

}  // namespace

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
      if (!job.same_body.empty())
        return "no record is " + input + ": the record with this body is " + job.same_body + "; check the year";
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

}  // namespace pith::resolver
