// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/runner/isolation.hpp"

#include "pith/runner/child_scheduler.hpp"

namespace pith::runner {

// One read is a run of one on the scheduler: every child runner/ forks is its.
Result<std::string> run_isolated(const std::function<std::string()>& read, const IsolationLimits& limits) {
  ChildScheduler child(1, limits);
  child.start(0, read);
  for (;;) {
    auto woken = child.wait();
    if (!woken.done.empty()) return std::move(woken.done.front().answer);
  }
}

}  // namespace pith::runner
