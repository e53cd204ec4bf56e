// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How the tools reach the registry: one value type shared by pith-check and
// pith-stamp (the CLI flags are registered by resolver/command_line.hpp, so the
// tools never duplicate them). Defaults come from the environment
// (PITH_RESOLVER, PITH_MIRRORS, XDG_CACHE_HOME, HOME); flags override.
#include "pith/base/version.hpp"
#include "pith/resolver/http_client.hpp"

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace pith::resolver {

// Who reads what the resolver says (issue 23).
//   user: a person running a tool, who configured the bases: messages name
//     them and what each did (Resolution::failures, JSON failed_attempts).
//   public_answer: anyone (pith-serve's answers): messages and reports say
//     "the registry", "a mirror", "the cache", never a URL, a local path or
//     a per-URL status; those go to ResolverOptions::operator_log.
enum class Disclosure { user, public_answer };

struct ResolverOptions {
  std::string resolver_url = default_resolver_url;  // base serving /pith/<ID>/...; https://, http:// or file://
  std::vector<std::string> mirrors;                 // tried in order when the resolver fails
  bool offline = false;    // cache and local files only; never the network
  bool refresh = false;    // ignore the freshness window (still revalidates with ETag)
  std::filesystem::path cache_dir;                  // empty: default_cache_dir()
  std::string cacert;                               // CA bundle (PEM) for HTTPS
  double timeout_seconds = 30.0;                    // total per request; connect gets a third
  std::chrono::seconds freshness{24 * 3600};        // cached entries younger than this are used as is
  std::size_t max_concurrency = 16;                 // batch lookups in flight
  // Also ask the bases a verified bundle's mirror_hints name (signed by the
  // registry, not chosen by the operator: never private addresses, http_client.hpp).
  bool mirror_hints = true;
  Disclosure disclosure = Disclosure::user;
  // With Disclosure::public_answer: one line per lookup that failed (or needed
  // more than one attempt) with every attempt, for the operator's log.
  std::function<void(const std::string& line)> operator_log;

  // PITH_RESOLVER and PITH_MIRRORS (separated by spaces, commas or
  // semicolons) over the built-in defaults.
  [[nodiscard]] static ResolverOptions from_environment();
  [[nodiscard]] HttpOptions http_options() const;
  [[nodiscard]] std::filesystem::path effective_cache_dir() const;
};

// Appended to a failure to reach the registry: what a user without network
// (or behind a firewall) can do instead; the flags are resolver/command_line.hpp's.
inline constexpr const char* network_hint =
    " (no network? use --offline for the cache and file:// bases only, a saved registry bundle (pith-check "
    "FILE, pith-stamp --bundle FILE), or --mirror URL for another base)";

// $XDG_CACHE_HOME/pith, else ~/.cache/pith (absolute XDG paths only, per the
// spec; HOME unset: the account's home from the password database). Empty
// when there is no such private place: then nothing is cached (never a
// shared, predictable directory such as /tmp/pith-cache).
[[nodiscard]] std::filesystem::path default_cache_dir();

// Splits a PITH_MIRRORS-style list.
[[nodiscard]] std::vector<std::string> split_url_list(std::string_view list);

}  // namespace pith::resolver
