// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/resolver/options.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <pwd.h>
#include <unistd.h>

namespace pith::resolver {
namespace {

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

std::chrono::milliseconds to_ms(double seconds) {
  return std::chrono::milliseconds(static_cast<long long>(std::llround(std::max(seconds, 0.001) * 1000.0)));
}

}  // namespace

std::vector<std::string> split_url_list(std::string_view list) {
  std::vector<std::string> out;
  std::string current;
  for (char c : list) {
    if (c == ' ' || c == ',' || c == ';' || c == '\t' || c == '\n') {
      if (!current.empty()) out.push_back(std::move(current));
      current.clear();
    } else {
      current += c;
    }
  }
  if (!current.empty()) out.push_back(std::move(current));
  return out;
}

std::filesystem::path default_cache_dir() {
  const std::string xdg = env("XDG_CACHE_HOME");
  if (!xdg.empty() && xdg.front() == '/') return std::filesystem::path(xdg) / "pith";
  std::string home = env("HOME");
  if (home.empty()) {
    // As ssh does: the account's home directory when HOME is unset.
    if (const passwd* account = ::getpwuid(::getuid()); account && account->pw_dir) home = account->pw_dir;
  }
  if (!home.empty() && home.front() == '/') return std::filesystem::path(home) / ".cache" / "pith";
  // Never a shared, predictable place such as /tmp/pith-cache: another user
  // could plant or hold entries there (an older bundle, a full disk). No
  // cache at all instead (RecordCache with an empty directory).
  return {};
}

ResolverOptions ResolverOptions::from_environment() {
  ResolverOptions o;
  if (const std::string r = env("PITH_RESOLVER"); !r.empty()) o.resolver_url = r;
  o.mirrors = split_url_list(env("PITH_MIRRORS"));
  return o;
}

HttpOptions ResolverOptions::http_options() const {
  HttpOptions h;
  h.total_timeout = to_ms(timeout_seconds);
  // A third of the budget to connect, but at least a second (a loaded machine
  // can be slow to accept even on loopback), never more than the total.
  h.connect_timeout = std::min(h.total_timeout, std::max(to_ms(timeout_seconds / 3.0), std::chrono::milliseconds(1000)));
  // A drip slower than this for a third of the budget will not finish in time anyway.
  h.low_speed_time = std::chrono::seconds(std::max<long long>(1, std::llround(timeout_seconds / 3.0)));
  h.cacert = cacert;
  // Redirects may go to these hosts, and only these may be internal
  // addresses; a mirror hint is none of them (http_client.hpp).
  h.configured_bases = mirrors;
  h.configured_bases.insert(h.configured_bases.begin(), resolver_url);
  return h;
}

std::filesystem::path ResolverOptions::effective_cache_dir() const {
  return cache_dir.empty() ? default_cache_dir() : cache_dir;
}

}  // namespace pith::resolver
