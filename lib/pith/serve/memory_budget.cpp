// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/serve/memory_budget.hpp"

#include <charconv>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <unistd.h>
#include <utility>

namespace pith::serve {

bool MemoryBudget::try_reserve(std::size_t bytes) {
  std::size_t now = reserved_.load();
  do {
    if (bytes > total_ || now > total_ - bytes) return false;
  } while (!reserved_.compare_exchange_weak(now, now + bytes));
  std::size_t peak = peak_.load();
  while (now + bytes > peak && !peak_.compare_exchange_weak(peak, now + bytes)) {
  }
  return true;
}

void MemoryBudget::release(std::size_t bytes) { reserved_.fetch_sub(bytes); }

MemoryReservation::MemoryReservation(MemoryReservation&& other) noexcept
    : budget_(std::exchange(other.budget_, nullptr)), bytes_(std::exchange(other.bytes_, 0)) {}

MemoryReservation& MemoryReservation::operator=(MemoryReservation&& other) noexcept {
  if (this != &other) {
    reset();
    budget_ = std::exchange(other.budget_, nullptr);
    bytes_ = std::exchange(other.bytes_, 0);
  }
  return *this;
}

bool MemoryReservation::hold_at_least(std::size_t bytes) {
  if (bytes <= bytes_) return true;
  if (budget_ == nullptr || !budget_->try_reserve(bytes - bytes_)) return false;
  bytes_ = bytes;
  return true;
}

void MemoryReservation::reset() {
  if (budget_ != nullptr && bytes_ > 0) budget_->release(bytes_);
  bytes_ = 0;
}

std::optional<std::string> BudgetPlan::shortfall(std::size_t budget) const {
  if (budget >= minimum()) return std::nullopt;
  return "--memory-budget " + byte_size_text(budget) + " is below the " + byte_size_text(minimum()) +
         " this set-up needs: the service and broker (" + byte_size_text(service_bytes) + "), --jobs × --check-memory (" +
         byte_size_text(checks_bytes) + ") and one upload at --max-upload, held twice (" +
         byte_size_text(smallest_upload_pool) + "); raise --memory-budget, or lower --jobs, --check-memory or --max-upload";
}

namespace {

std::optional<std::size_t> number_in(const std::string& text) {
  std::size_t value = 0;
  const char* end = text.data() + text.size();
  while (end > text.data() && (end[-1] == '\n' || end[-1] == ' ')) --end;
  const auto [stop, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || stop != end) return std::nullopt;
  return value;
}

std::string first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

// cgroup v2: /proc/self/cgroup says "0::/system.slice/pith-serve.service";
// its memory.max is a number or "max". The nearest limit up the tree applies.
std::optional<std::size_t> cgroup_limit() {
  std::string line = first_line("/proc/self/cgroup");
  if (!line.starts_with("0::")) return std::nullopt;
  std::string group = line.substr(3);
  std::optional<std::size_t> limit;
  for (;;) {
    if (auto value = number_in(first_line("/sys/fs/cgroup" + group + "/memory.max"))) {
      limit = limit ? std::min(*limit, *value) : *value;
    }
    if (group.empty() || group == "/") break;
    group = group.substr(0, group.rfind('/'));
  }
  return limit;
}

}  // namespace

std::optional<std::size_t> host_memory_limit() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page_size = ::sysconf(_SC_PAGESIZE);
  std::optional<std::size_t> physical;
  if (pages > 0 && page_size > 0) physical = static_cast<std::size_t>(pages) * static_cast<std::size_t>(page_size);
  const auto group = cgroup_limit();
  if (group && physical) return std::min(*group, *physical);
  return group ? group : physical;
}

std::size_t resident_bytes(int pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (!line.starts_with("VmRSS:")) continue;
    std::istringstream fields(line.substr(6));
    std::size_t kib = 0;
    fields >> kib;
    return kib * 1024;
  }
  return 0;
}

std::string byte_size_text(std::size_t bytes) {
  constexpr std::size_t kib = 1024;
  constexpr std::size_t mib = kib * 1024;
  constexpr std::size_t gib = mib * 1024;
  char text[32];
  if (bytes >= gib) {
    std::snprintf(text, sizeof text, "%.1f GiB", static_cast<double>(bytes) / gib);
  } else if (bytes >= mib) {
    std::snprintf(text, sizeof text, "%zu MiB", (bytes + mib / 2) / mib);
  } else {
    std::snprintf(text, sizeof text, "%zu KiB", (bytes + kib / 2) / kib);
  }
  return text;
}

}  // namespace pith::serve
