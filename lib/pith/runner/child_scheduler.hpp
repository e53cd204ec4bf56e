// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Children forked one per piece of hostile work, at most a bound at once,
// each under IsolationLimits and held to its wall-clock deadline: what
// pith-check's runs with a fork per input (corpus.hpp) and pith-serve's check
// broker (serve/broker.cpp) run on. Its interface is the worker pool's
// (worker_pool.hpp: long-lived workers), so a run uses either, and both wait
// in the one poll loop with deadlines (base/child_process.hpp: poll_children).
//
// fork() without exec: create and use it from a single-threaded process.
#include "pith/base/child_process.hpp"
#include "pith/base/error.hpp"
#include "pith/runner/isolation.hpp"

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace pith::runner {

// One piece of work done (or stopped): what its child sent back, or why
// nothing came (the crash or the limit, as ChildProcess::finish words it).
struct ChildDone {
  std::uint64_t ticket = 0;
  Result<std::string> answer;  // the work's answer, or why there is none
  double seconds = 0;          // wall-clock time of the work
};

class ChildScheduler {
 public:
  ChildScheduler(unsigned max_children, IsolationLimits limits);
  ChildScheduler(const ChildScheduler&) = delete;
  ChildScheduler& operator=(const ChildScheduler&) = delete;
  ~ChildScheduler();  // kills and reaps the children still running

  // Fewer than max_children running: start() may be called.
  [[nodiscard]] bool has_idle() const { return running_.size() < max_children_; }
  [[nodiscard]] bool busy() const { return !running_.empty(); }
  // Forks a child that runs `work` (what it captures is the child's copy,
  // taken at the fork). A failure to fork is that ticket's Error at the next wait().
  void start(std::uint64_t ticket, const std::function<std::string()>& work);

  // Waits until a child is done or past its deadline (then killed), or
  // `also` (a descriptor of the caller's; -1: none) is readable, and returns
  // the children done, in no particular order. With no child running it
  // waits for `also` alone (returns at once without one).
  struct Woken {
    std::vector<ChildDone> done;
    bool also_readable = false;
  };
  [[nodiscard]] Woken wait(int also = -1);

 private:
  struct Running {
    std::uint64_t ticket = 0;
    ChildProcess child;
    std::chrono::steady_clock::time_point started;
  };
  unsigned max_children_;
  IsolationLimits limits_;
  std::vector<Running> running_;
};

}  // namespace pith::runner
