// SPDX-License-Identifier: GPL-3.0-or-later
// resolver_bench: Pith Number lookups per second through libpith's resolver
// (fetch + full verification + identity check + atomic cache write).
//   resolver_bench --resolver URL [--trust-key FILE]... [--concurrency N]
//                  [--mode batch|sequential|cached] NUMBERS_FILE
// batch: one resolve_many (curl multi, N in flight, reused connections);
// sequential: one resolve per number over one reused connection;
// cached: the same numbers again from the (fresh) cache, no network.
// Each run starts with an empty cache (except `cached`, which fills it first).
#include "pith/resolver/resolver.hpp"
#include "pith/registry/trust_store.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

int count_verified(const std::vector<pith::Result<pith::resolver::Resolution>>& results, const std::vector<std::string>& numbers) {
  int ok = 0;
  for (std::size_t i = 0; i < results.size(); ++i) {
    if (results[i] && results[i]->record.number().to_string() == numbers[i]) {
      ++ok;
    } else if (!results[i]) {
      std::fprintf(stderr, "resolver_bench: %s\n", results[i].error().describe().c_str());
    }
  }
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  pith::resolver::ResolverOptions options;
  options.timeout_seconds = 10;
  std::string mode = "batch";
  std::string numbers_file;
  pith::registry::TrustStore trust = pith::registry::TrustStore::with_pinned_key();
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--resolver" && i + 1 < argc) {
      options.resolver_url = argv[++i];
    } else if (arg == "--concurrency" && i + 1 < argc) {
      options.max_concurrency = static_cast<std::size_t>(std::atoi(argv[++i]));
    } else if (arg == "--mode" && i + 1 < argc) {
      mode = argv[++i];
    } else if (arg == "--trust-key" && i + 1 < argc) {
      if (auto r = trust.add_key_file(argv[++i]); !r) {
        std::fprintf(stderr, "resolver_bench: %s\n", r.error().describe().c_str());
        return 2;
      }
    } else {
      numbers_file = arg;
    }
  }
  std::vector<std::string> numbers;
  std::ifstream in(numbers_file);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) numbers.push_back(line);
  }
  if (numbers.empty()) {
    std::fprintf(stderr, "usage: resolver_bench --resolver URL [--trust-key FILE]... [--mode M] NUMBERS_FILE\n");
    return 2;
  }
  const auto cache = std::filesystem::temp_directory_path() / ("pith-resolver-bench-" + std::to_string(::getpid()));
  std::filesystem::remove_all(cache);
  options.cache_dir = cache;

  using clock = std::chrono::steady_clock;
  int ok = 0;
  double elapsed = 0;
  if (mode == "cached") {
    pith::resolver::Resolver warmup(options, trust);
    (void)warmup.resolve_many(numbers);
  }
  const auto start = clock::now();
  if (mode == "sequential") {
    pith::resolver::Resolver resolver(options, trust);
    std::vector<pith::Result<pith::resolver::Resolution>> results;
    for (const auto& n : numbers) results.push_back(resolver.resolve(n));
    elapsed = std::chrono::duration<double>(clock::now() - start).count();
    ok = count_verified(results, numbers);
  } else {
    pith::resolver::Resolver resolver(options, trust);
    auto results = resolver.resolve_many(numbers);
    elapsed = std::chrono::duration<double>(clock::now() - start).count();
    ok = count_verified(results, numbers);
  }
  std::filesystem::remove_all(cache);
  std::printf("pith %-10s %zu lookups in %6.2f s: %7.0f lookups/s (%d verified)\n", mode.c_str(), numbers.size(),
              elapsed, static_cast<double>(numbers.size()) / elapsed, ok);
  return ok == static_cast<int>(numbers.size()) ? 0 : 1;
}
