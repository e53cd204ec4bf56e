// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/serve/metrics.hpp"

#include <algorithm>
#include <sstream>

namespace pith::serve {

void Metrics::check_done(Verdict verdict, double seconds, bool child_failed) {
  std::lock_guard lock(mutex_);
  ++by_verdict_[static_cast<std::size_t>(verdict)];
  const auto bucket = std::lower_bound(latency_buckets.begin(), latency_buckets.end(), seconds);
  if (bucket != latency_buckets.end()) ++bucket_counts_[static_cast<std::size_t>(bucket - latency_buckets.begin())];
  ++latency_count_;
  latency_sum_ += seconds;
  if (child_failed) ++child_failures_;
}

void Metrics::refused_busy() {
  std::lock_guard lock(mutex_);
  ++busy_;
}

void Metrics::refused_too_large() {
  std::lock_guard lock(mutex_);
  ++too_large_;
}

void Metrics::set_in_flight(std::size_t admitted, std::size_t running_capacity) {
  std::lock_guard lock(mutex_);
  running_ = std::min(admitted, running_capacity);
  queued_ = admitted - running_;
}

std::string Metrics::text() const {
  std::lock_guard lock(mutex_);
  std::ostringstream out;
  out << "# HELP pith_checks_total Checks answered, by verdict.\n# TYPE pith_checks_total counter\n";
  for (const Verdict v : all_verdicts) {
    out << "pith_checks_total{verdict=\"" << to_string(v) << "\"} " << by_verdict_[static_cast<std::size_t>(v)] << "\n";
  }
  out << "# HELP pith_check_duration_seconds Time from upload received to answer ready.\n"
      << "# TYPE pith_check_duration_seconds histogram\n";
  std::uint64_t cumulative = 0;
  for (std::size_t i = 0; i < latency_buckets.size(); ++i) {
    cumulative += bucket_counts_[i];
    out << "pith_check_duration_seconds_bucket{le=\"" << latency_buckets[i] << "\"} " << cumulative << "\n";
  }
  out << "pith_check_duration_seconds_bucket{le=\"+Inf\"} " << latency_count_ << "\n"
      << "pith_check_duration_seconds_sum " << latency_sum_ << "\n"
      << "pith_check_duration_seconds_count " << latency_count_ << "\n";
  out << "# HELP pith_checks_running Checks running in isolated children now.\n# TYPE pith_checks_running gauge\n"
      << "pith_checks_running " << running_ << "\n";
  out << "# HELP pith_check_queue_depth Checks admitted and waiting for a child.\n# TYPE pith_check_queue_depth gauge\n"
      << "pith_check_queue_depth " << queued_ << "\n";
  out << "# HELP pith_child_failures_total Check children that crashed, hit a limit or sent no report.\n"
      << "# TYPE pith_child_failures_total counter\npith_child_failures_total " << child_failures_ << "\n";
  out << "# HELP pith_rejected_busy_total Checks refused with 503 (all workers and the queue full).\n"
      << "# TYPE pith_rejected_busy_total counter\npith_rejected_busy_total " << busy_ << "\n";
  out << "# HELP pith_rejected_too_large_total Uploads refused with 413.\n"
      << "# TYPE pith_rejected_too_large_total counter\npith_rejected_too_large_total " << too_large_ << "\n";
  return out.str();
}

std::string server_metrics_text(const ServerCounters& c, const MemoryBudget& budget) {
  std::ostringstream out;
  out << "# HELP pith_connections_open HTTP connections open now.\n# TYPE pith_connections_open gauge\n"
      << "pith_connections_open " << c.open_connections << "\n";
  out << "# HELP pith_connections_refused_total Connections refused with 503 (over --max-connections or "
         "--max-connections-per-client).\n# TYPE pith_connections_refused_total counter\n"
      << "pith_connections_refused_total " << c.refused_connections << "\n";
  out << "# HELP pith_requests_timed_out_total Requests whose head or body did not arrive within its deadline (408).\n"
      << "# TYPE pith_requests_timed_out_total counter\n"
      << "pith_requests_timed_out_total{part=\"head\"} " << c.timed_out_heads << "\n"
      << "pith_requests_timed_out_total{part=\"body\"} " << c.timed_out_bodies << "\n";
  out << "# HELP pith_rejected_memory_total Uploads refused with 503: the memory budget had no room.\n"
      << "# TYPE pith_rejected_memory_total counter\npith_rejected_memory_total " << c.refused_for_memory << "\n";
  out << "# HELP pith_memory_budget_bytes --memory-budget.\n# TYPE pith_memory_budget_bytes gauge\n"
      << "pith_memory_budget_bytes " << budget.total() << "\n";
  out << "# HELP pith_memory_reserved_bytes Memory reserved now: service, broker, checks and uploads in flight.\n"
      << "# TYPE pith_memory_reserved_bytes gauge\npith_memory_reserved_bytes " << budget.reserved() << "\n";
  out << "# HELP pith_memory_reserved_peak_bytes The most ever reserved at once.\n"
      << "# TYPE pith_memory_reserved_peak_bytes gauge\npith_memory_reserved_peak_bytes " << budget.peak() << "\n";
  return out.str();
}

}  // namespace pith::serve
