// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/runner/child_scheduler.hpp"

#include <algorithm>

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

ChildEvents poll_children(const std::vector<ChildWatch>& watches, int also) {
  ChildEvents events;
  events.revents.assign(watches.size(), 0);
  // Output from any child, the caller's descriptor, or the nearest deadline.
  std::vector<pollfd> fds;
  std::vector<std::size_t> watch_of;  // fds[i + first] belongs to watches[watch_of[i]]
  if (also >= 0) fds.push_back(pollfd{also, POLLIN, 0});
  const std::size_t first_child = fds.size();
  auto nearest = std::chrono::steady_clock::time_point::max();
  for (std::size_t i = 0; i < watches.size(); ++i) {
    if (watches[i].fd >= 0) {
      fds.push_back(pollfd{watches[i].fd, watches[i].events, 0});
      watch_of.push_back(i);
    }
    nearest = std::min(nearest, watches[i].deadline);
  }
  if (fds.empty() && watches.empty()) {
    events.now = std::chrono::steady_clock::now();
    return events;
  }
  const int timeout = watches.empty() ? -1 : milliseconds_until(nearest);
  // An interrupted poll has no revents set: the caller looks at the deadlines and waits again.
  if (!fds.empty() && ::poll(fds.data(), fds.size(), timeout) < 0) {
    for (auto& p : fds) p.revents = 0;
  }
  events.also_readable = also >= 0 && fds[0].revents != 0;
  for (std::size_t i = first_child; i < fds.size(); ++i) events.revents[watch_of[i - first_child]] = fds[i].revents;
  events.now = std::chrono::steady_clock::now();
  return events;
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
