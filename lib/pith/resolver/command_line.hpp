// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Private to libpith (the jobs' sources: base/job.hpp). The registry
// options shared by pith-check, pith-stamp and pith-serve, registered once
// here so the jobs never duplicate them. Start from
// pith::ResolverOptions::from_environment() (PITH_RESOLVER, PITH_MIRRORS);
// flags given on the command line override it.
#include "pith/resolver/options.hpp"

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace pith::cli {

inline void add_resolver_options(CLI::App& app, resolver::ResolverOptions& options) {
  const std::string group = "Registry";
  app.add_option("--resolver", options.resolver_url,
                 std::string("registry base URL (default ") + default_resolver_url +
                     ", env PITH_RESOLVER); file:// for a local mirror")
      ->type_name("URL")
      ->group(group);
  // --mirror entries come before those of PITH_MIRRORS, in the order given.
  app.add_option_function<std::vector<std::string>>(
         "--mirror",
         [&options](const std::vector<std::string>& urls) {
           options.mirrors.insert(options.mirrors.begin(), urls.begin(), urls.end());
         },
         "another base serving the registry paths, tried in order when the resolver fails (repeatable; env "
         "PITH_MIRRORS)")
      ->type_name("URL")
      ->allow_extra_args(false)  // one URL per --mirror: the inputs that follow are not mirrors
      ->group(group);
  app.add_flag("--offline", options.offline, "never use the network: only the cache and file:// bases")->group(group);
  app.add_flag_callback(
         "--no-mirror-hints", [&options] { options.mirror_hints = false; },
         "never ask the mirrors a cached record names (mirror_hints), only --resolver and --mirror")
      ->group(group);
  app.add_flag("--refresh", options.refresh, "ask the registry even when the cached copy is fresh")->group(group);
  app.add_option("--cache-dir", options.cache_dir, "where verified records are cached (default $XDG_CACHE_HOME/pith)")
      ->type_name("DIR")
      ->group(group);
  app.add_option("--cacert", options.cacert, "trust this CA bundle (PEM) for HTTPS; verification is never off")
      ->check(CLI::Validator(CLI::ExistingFile).description(""))
      ->type_name("FILE")
      ->group(group);
  app.add_option("--timeout", options.timeout_seconds, "seconds allowed per request (default 30)")
      ->check(CLI::Range(0.001, 86400.0).description(""))
      ->type_name("SECONDS")
      ->group(group);
}

}  // namespace pith::cli
