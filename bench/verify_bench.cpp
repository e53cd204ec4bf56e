// SPDX-License-Identifier: GPL-3.0-or-later
// verify_bench: bundles fully verified per second on one thread.
//   verify_bench [--seconds S] [--trust-key FILE]... BUNDLE...
// Each bundle is verified completely (strict parse, record hash, receipt,
// every event hash and signature, bundle hash and signature, state
// recomputed and compared), and must come out `verified`.
#include "pith/registry/trust_store.hpp"
#include "pith/registry/verify.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  double seconds = 3.0;
  pith::registry::TrustStore trust = pith::registry::TrustStore::with_pinned_key();
  std::vector<std::pair<std::string, std::string>> inputs;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--seconds" && i + 1 < argc) {
      seconds = std::atof(argv[++i]);
    } else if (arg == "--trust-key" && i + 1 < argc) {
      if (auto r = trust.add_key_file(argv[++i]); !r) {
        std::fprintf(stderr, "verify_bench: %s\n", r.error().describe().c_str());
        return 2;
      }
    } else {
      std::ifstream in(arg, std::ios::binary);
      if (!in) {
        std::fprintf(stderr, "verify_bench: cannot read %s\n", arg.c_str());
        return 2;
      }
      std::ostringstream buf;
      buf << in.rdbuf();
      inputs.emplace_back(arg, buf.str());
    }
  }
  if (inputs.empty()) {
    std::fprintf(stderr, "usage: verify_bench [--seconds S] [--trust-key FILE]... BUNDLE...\n");
    return 2;
  }
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  std::size_t done = 0;
  double elapsed = 0;
  do {
    for (const auto& [name, bytes] : inputs) {
      auto v = pith::registry::verify_document(bytes, trust, name);
      if (!v || v->report.verdict() != pith::Verdict::verified) {
        std::fprintf(stderr, "verify_bench: %s did not verify\n", name.c_str());
        return 1;
      }
      ++done;
    }
    elapsed = std::chrono::duration<double>(clock::now() - start).count();
  } while (elapsed < seconds);
  std::printf("cpp   %zu bundles in %.2f s: %.0f bundles/s (%.1f us per bundle)\n", done, elapsed,
              static_cast<double>(done) / elapsed, elapsed * 1e6 / static_cast<double>(done));
  return 0;
}
