// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/runner/child_scheduler.hpp"

#include <algorithm>

namespace pith::runner {

namespace {

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace

ChildScheduler::ChildScheduler(unsigned max_children, IsolationLimits limits)
    : max_children_(std::max(1u, max_children)), limits_(limits) {}

ChildScheduler::~ChildScheduler() = default;  // each ChildProcess kills and reaps its child

void ChildScheduler::start(std::uint64_t ticket, const std::function<std::string()>& work) {
  const auto started = std::chrono::steady_clock::now();
  running_.push_back(Running{ticket, ChildProcess::start(isolated_subject, work, limits_.child_limits()), started});
}

ChildScheduler::Woken ChildScheduler::wait(int also) {
  Woken woken;
  std::vector<ChildWatch> watches;
  watches.reserve(running_.size());
  for (const auto& r : running_) watches.push_back(ChildWatch{r.child.fd(), POLLIN, r.child.deadline()});
  if (watches.empty() && also < 0) return woken;
  const ChildEvents events = poll_children(watches, also);
  woken.also_readable = events.also_readable;
  std::vector<Running> still_running;
  for (std::size_t k = 0; k < running_.size(); ++k) {
    Running& r = running_[k];
    bool complete = r.child.fd() < 0;
    if (!complete && events.revents[k] != 0) complete = r.child.read_available();
    // Past the deadline with the pipe still open: finish() kills it.
    if (complete || events.now >= r.child.deadline()) {
      Result<std::string> answer = r.child.finish();
      woken.done.push_back(ChildDone{r.ticket, std::move(answer), seconds_since(r.started)});
    } else {
      still_running.push_back(std::move(r));
    }
  }
  running_ = std::move(still_running);
  return woken;
}

}  // namespace pith::runner
