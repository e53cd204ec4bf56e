// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// pith-serve's memory budget (--memory-budget, issue 23): the whole process
// tree (the service, the check broker, the check children) stays under it by
// design, not by a kernel limit that kills it. What is fixed is reserved at
// start: the service and the broker (measured, plus allowances for
// connections and registry lookups) and `jobs` check children at their
// address-space limit (RLIMIT_AS bounds a child's every mapping, so its RSS
// cannot pass it). What varies is reserved as it arrives: every upload byte
// twice (the body the service holds, and the memfd the broker and the child
// map). A request that does not fit is refused (503), never queued for
// memory: docs/serve.md "Memory" gives the sizing rule.
#include <atomic>
#include <cstddef>
#include <optional>
#include <string>

namespace pith::serve {

class MemoryBudget {
 public:
  explicit MemoryBudget(std::size_t total_bytes) : total_(total_bytes) {}
  MemoryBudget(const MemoryBudget&) = delete;
  MemoryBudget& operator=(const MemoryBudget&) = delete;

  // Reserves `bytes` when they fit beside what is reserved; false (nothing
  // reserved) otherwise. Thread-safe.
  [[nodiscard]] bool try_reserve(std::size_t bytes);
  void release(std::size_t bytes);

  [[nodiscard]] std::size_t total() const { return total_; }
  [[nodiscard]] std::size_t reserved() const { return reserved_.load(); }
  [[nodiscard]] std::size_t peak() const { return peak_.load(); }

 private:
  const std::size_t total_;
  std::atomic<std::size_t> reserved_ = 0;
  std::atomic<std::size_t> peak_ = 0;
};

// Bytes held in a MemoryBudget, released when this goes (move-only).
class MemoryReservation {
 public:
  MemoryReservation() = default;
  explicit MemoryReservation(MemoryBudget& budget) : budget_(&budget) {}
  MemoryReservation(MemoryReservation&& other) noexcept;
  MemoryReservation& operator=(MemoryReservation&& other) noexcept;
  MemoryReservation(const MemoryReservation&) = delete;
  MemoryReservation& operator=(const MemoryReservation&) = delete;
  ~MemoryReservation() { reset(); }

  // Holds at least `bytes` in all (reserving the difference); false when the
  // budget has no room (what was held stays held).
  [[nodiscard]] bool hold_at_least(std::size_t bytes);
  void reset();
  [[nodiscard]] std::size_t bytes() const { return bytes_; }

 private:
  MemoryBudget* budget_ = nullptr;
  std::size_t bytes_ = 0;
};

// What the budget must hold, and the default budget of this host.
struct BudgetPlan {
  std::size_t service_bytes = 0;      // service + broker, with allowances
  std::size_t checks_bytes = 0;       // jobs × the per-check address-space limit
  std::size_t smallest_upload_pool = 0;  // 2 × --max-upload: one upload at its largest

  [[nodiscard]] std::size_t fixed() const { return service_bytes + checks_bytes; }
  [[nodiscard]] std::size_t minimum() const { return fixed() + smallest_upload_pool; }
  // Why `budget` is too small, naming the options to change; nullopt if it will do.
  [[nodiscard]] std::optional<std::string> shortfall(std::size_t budget) const;
};

// The memory this host gives the service: the cgroup's memory.max (systemd's
// MemoryMax=) when there is one, else the physical memory; nullopt if unknown.
[[nodiscard]] std::optional<std::size_t> host_memory_limit();
// The resident set of a process (VmRSS), in bytes; 0 if unknown.
[[nodiscard]] std::size_t resident_bytes(int pid);
// "1.5 GiB", "64 MiB", "512 KiB": for messages and logs.
[[nodiscard]] std::string byte_size_text(std::size_t bytes);

}  // namespace pith::serve
