// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/runner/child_scheduler.hpp"

#include <algorithm>
#include <poll.h>

namespace pith::runner {

namespace {

int milliseconds_until(std::chrono::steady_clock::time_point t) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(t - std::chrono::steady_clock::now());
  return static_cast<int>(std::clamp<long long>(left.count() + 1, 0, 60'000));
}

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
  // Output from any child, the caller's descriptor, or the nearest deadline.
  std::vector<pollfd> fds;
  if (also >= 0) fds.push_back(pollfd{also, POLLIN, 0});
  const std::size_t first_child = fds.size();
  auto nearest = std::chrono::steady_clock::time_point::max();
  for (const auto& r : running_) {
    if (r.child.fd() >= 0) fds.push_back(pollfd{r.child.fd(), POLLIN, 0});
    nearest = std::min(nearest, r.child.deadline());
  }
  if (fds.empty() && running_.empty()) return woken;
  const int timeout = running_.empty() ? -1 : milliseconds_until(nearest);
  // An interrupted poll has no revents set: the caller just waits again.
  if (!fds.empty() && ::poll(fds.data(), fds.size(), timeout) < 0) {
    for (auto& p : fds) p.revents = 0;
  }
  woken.also_readable = also >= 0 && fds[0].revents != 0;
  const auto now = std::chrono::steady_clock::now();
  std::size_t k = first_child;
  for (auto it = running_.begin(); it != running_.end();) {
    bool complete = it->child.fd() < 0;
    if (!complete) {
      const pollfd& p = fds[k++];
      if (p.revents != 0) complete = it->child.read_available();
    }
    // Past the deadline with the pipe still open: finish() kills it.
    if (complete || now >= it->child.deadline()) {
      Result<std::string> answer = it->child.finish();
      woken.done.push_back(ChildDone{it->ticket, std::move(answer), seconds_since(it->started)});
      it = running_.erase(it);
    } else {
      ++it;
    }
  }
  return woken;
}

}  // namespace pith::runner
