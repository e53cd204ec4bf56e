// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/runner/isolation.hpp"

#include "pith/runner/child_scheduler.hpp"

namespace pith::runner {

Result<std::string> run_isolated(const std::function<std::string()>& read, const IsolationLimits& limits) {
  return run_isolated(isolated_subject, read, limits.child_limits());
}

// One piece of work is a run of one on the scheduler: every child runner/ forks is its.
Result<std::string> run_isolated(std::string subject, const std::function<std::string()>& work,
                                 const ChildLimits& limits) {
  ChildScheduler child(SchedulerOptions{.children = 1, .limits = limits, .subject = std::move(subject)});
  child.start(0, work);
  for (;;) {
    auto woken = child.wait();
    if (!woken.done.empty()) return std::move(woken.done.front().answer);
  }
}

}  // namespace pith::runner
