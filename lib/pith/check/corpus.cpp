// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/check/corpus.hpp"

#include "pith/base/crypto.hpp"

#include "pith/base/worker_pool.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <poll.h>
#include <vector>

namespace pith::check {

namespace {

struct Running {
  std::size_t index = 0;
  IsolatedChild child;
  std::chrono::steady_clock::time_point started;
};

// Reports that finished before an earlier input: held until their turn.
class InOrder {
 public:
  explicit InOrder(const std::function<void(std::size_t, FileCheck)>& emit) : emit_(emit) {}
  void done(std::size_t index, FileCheck checked) {
    held_.emplace(index, std::move(checked));
    for (auto it = held_.find(next_); it != held_.end(); it = held_.find(next_)) {
      emit_(next_, std::move(it->second));
      held_.erase(it);
      ++next_;
    }
  }

 private:
  const std::function<void(std::size_t, FileCheck)>& emit_;
  std::map<std::size_t, FileCheck> held_;
  std::size_t next_ = 0;
};

int milliseconds_until(std::chrono::steady_clock::time_point t) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(t - std::chrono::steady_clock::now());
  return static_cast<int>(std::clamp<long long>(left.count() + 1, 0, 60'000));
}

// The same run over long-lived workers: one request per input, each worker
// only reads (read_request) and the answers are judged here by the same step
// as a forked child's (judge_in_parent).
void check_in_pool(const CorpusTasks& tasks, const CorpusOptions& options) {
  WorkerPoolOptions pool_options;
  pool_options.workers = std::clamp<unsigned>(options.jobs, 1, max_corpus_jobs);
  pool_options.limits = options.limits.child_limits();
  pool_options.requests_per_worker = options.inputs_per_worker;
  // Many inputs (a stream, or a list): OpenSSL's start-up is paid once and
  // every hash after it is faster. One input keeps libsodium's cheaper start.
  if (tasks.has || tasks.count > 1) sha256_warm_up();
  WorkerPool pool("the check", [&tasks](std::string_view request) { return tasks.read_request(request); }, pool_options);
  InOrder out(tasks.emit);
  std::size_t next = 0;
  const auto more = [&] { return tasks.has ? tasks.has(next) : next < tasks.count; };
  const auto give_idle_workers_work = [&] {
    while (pool.has_idle() && more()) {
      const std::size_t i = next++;
      if (tasks.in_parent) {
        if (auto answer = tasks.in_parent(i)) {
          out.done(i, std::move(*answer));
          continue;
        }
      }
      pool.submit(i, tasks.request(i));
    }
  };
  while (more() || pool.busy()) {
    give_idle_workers_work();
    if (!pool.busy()) continue;
    auto done = pool.wait();
    // The workers that just answered get their next input before this
    // process judges their answers, so they read while it judges: judging
    // first left each worker idle for its own answer's judgement, and the
    // run used 1.2 of 2 cores.
    give_idle_workers_work();
    for (auto& d : done) {
      const std::size_t i = static_cast<std::size_t>(d.ticket);
      FileCheck checked = tasks.judge_in_parent(i, d.answer);
      if (tasks.took) tasks.took(i, d.seconds);
      out.done(i, std::move(checked));
    }
  }
}

}  // namespace

void check_corpus(const CorpusTasks& tasks, const CorpusOptions& options) {
  if (options.inputs_per_worker > 0 && tasks.request && tasks.read_request && tasks.judge_in_parent) {
    check_in_pool(tasks, options);
    return;
  }
  const std::size_t jobs = std::clamp<unsigned>(options.jobs, 1, max_corpus_jobs);
  InOrder out(tasks.emit);
  std::vector<Running> running;
  std::size_t next = 0;
  const auto more = [&] { return tasks.has ? tasks.has(next) : next < tasks.count; };

  while (more() || !running.empty()) {
    // Start children up to the bound; answers the parent has are emitted at once.
    while (running.size() < jobs && more()) {
      const std::size_t i = next++;
      if (tasks.in_parent) {
        if (auto answer = tasks.in_parent(i)) {
          out.done(i, std::move(*answer));
          continue;
        }
      }
      const auto started = std::chrono::steady_clock::now();
      running.push_back(Running{
          i,
          IsolatedChild::start_judged(
              tasks.name(i), [&tasks, i] { return tasks.read_in_child(i); },
              [&tasks, i](const Result<std::string>& sent) { return tasks.judge_in_parent(i, sent); }, options.limits),
          started});
    }
    if (running.empty()) continue;

    // Wait for output from any child, or the nearest deadline.
    std::vector<pollfd> fds;
    auto nearest = running.front().child.deadline();
    for (const auto& r : running) {
      if (r.child.fd() >= 0) fds.push_back(pollfd{r.child.fd(), POLLIN, 0});
      nearest = std::min(nearest, r.child.deadline());
    }
    if (!fds.empty()) {
      // An interrupted poll has no revents set: the loop just polls again.
      if (::poll(fds.data(), fds.size(), milliseconds_until(nearest)) < 0) {
        for (auto& p : fds) p.revents = 0;
      }
    }
    const auto now = std::chrono::steady_clock::now();
    std::size_t k = 0;
    for (auto it = running.begin(); it != running.end();) {
      bool complete = it->child.fd() < 0;
      if (!complete) {
        const pollfd& p = fds[k++];
        if (p.revents != 0) complete = it->child.read_available();
      }
      // Past the deadline with the pipe still open: finish() kills it.
      if (complete || now >= it->child.deadline()) {
        FileCheck checked = it->child.finish();
        if (tasks.took) tasks.took(it->index, std::chrono::duration<double>(std::chrono::steady_clock::now() - it->started).count());
        out.done(it->index, std::move(checked));
        it = running.erase(it);
      } else {
        ++it;
      }
    }
  }
}

}  // namespace pith::check
