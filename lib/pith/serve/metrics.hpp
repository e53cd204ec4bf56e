// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// GET /metrics: pith-serve's counters in the Prometheus text format
// (version 0.0.4): checks by verdict, check latency (a histogram, seconds,
// upload received to answer ready), checks running and waiting, requests
// refused as busy (503) or too large (413), child failures. Thread-safe.
#include "pith/base/report.hpp"
#include "pith/serve/http_server.hpp"
#include "pith/serve/memory_budget.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>

namespace pith::serve {

class Metrics {
 public:
  static constexpr std::array<double, 11> latency_buckets{0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30};

  void check_done(Verdict verdict, double seconds, bool child_failed);
  void refused_busy();
  void refused_too_large();
  void set_in_flight(std::size_t admitted, std::size_t running_capacity);

  [[nodiscard]] std::string text() const;

 private:
  mutable std::mutex mutex_;
  std::array<std::uint64_t, verdict_count> by_verdict_{};
  std::array<std::uint64_t, latency_buckets.size()> bucket_counts_{};  // not cumulative
  std::uint64_t latency_count_ = 0;
  double latency_sum_ = 0;
  std::uint64_t child_failures_ = 0;
  std::uint64_t busy_ = 0;
  std::uint64_t too_large_ = 0;
  std::size_t running_ = 0;
  std::size_t queued_ = 0;
};

// The server's side of /metrics: connections open and refused, heads and
// bodies past their deadlines, uploads refused for memory, and the memory
// budget (total, reserved now, peak).
[[nodiscard]] std::string server_metrics_text(const ServerCounters& counters, const MemoryBudget& budget);

}  // namespace pith::serve
