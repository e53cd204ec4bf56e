// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/runner/corpus.hpp"

#include "pith/base/crypto.hpp"
#include "pith/runner/child_scheduler.hpp"
#include "pith/runner/worker_pool.hpp"
#include "pith/runner/worker_wire.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <utility>

namespace pith::runner {

namespace {

// Answers that came before an earlier input's: held until their turn, then
// judged in input order.
class InOrder {
 public:
  InOrder(InputSource& inputs, Judge& judge) : inputs_(inputs), judge_(judge) {}
  void done(std::size_t index, std::optional<Result<std::string>> sent, double seconds) {
    held_.emplace(index, Held{std::move(sent), seconds});
    for (auto it = held_.find(next_); it != held_.end(); it = held_.find(next_)) {
      CorpusInput input = inputs_.release(next_);
      input.seconds = it->second.seconds;
      auto answer = std::move(it->second.sent);
      held_.erase(it);
      ++next_;
      judge_.judge(std::move(input), std::move(answer));
    }
  }

 private:
  struct Held {
    std::optional<Result<std::string>> sent;
    double seconds = 0;
  };
  InputSource& inputs_;
  Judge& judge_;
  std::map<std::size_t, Held> held_;
  std::size_t next_ = 0;
};

// The one loop over either scheduler (a fork per input, or workers): give
// every free child an input, wait, hand on what is done.
template <class Scheduler, class Give>
void run_on(Scheduler& scheduler, InputSource& inputs, InOrder& out, const Give& give) {
  std::size_t next = 0;
  const auto give_idle_children_work = [&] {
    while (scheduler.has_idle() && inputs.has(next)) {
      const std::size_t i = next++;
      if (inputs.at(i).ready) {
        out.done(i, std::nullopt, 0);
        continue;
      }
      give(i, inputs.at(i));
    }
  };
  while (inputs.has(next) || scheduler.busy()) {
    give_idle_children_work();
    if (!scheduler.busy()) continue;
    auto done = scheduler.wait();
    // The children that just answered get their next input before this
    // process judges their answers, so they read while it judges: judging
    // first left each worker idle for its own answer's judgement, and the
    // run used 1.2 of 2 cores.
    give_idle_children_work();
    for (auto& d : done) out.done(static_cast<std::size_t>(d.ticket), std::move(d.answer), d.seconds);
  }
}

// ChildScheduler::wait with nothing else to watch, as WorkerPool::wait.
class ForkPerInput {
 public:
  ForkPerInput(unsigned jobs, const IsolationLimits& limits) : children_(jobs, limits) {}
  [[nodiscard]] bool has_idle() const { return children_.has_idle(); }
  [[nodiscard]] bool busy() const { return children_.busy(); }
  void start(std::uint64_t ticket, const std::function<std::string()>& work) { children_.start(ticket, work); }
  [[nodiscard]] std::vector<ChildDone> wait() { return children_.wait().done; }

 private:
  ChildScheduler children_;
};

}  // namespace

void run_corpus(InputSource& inputs, Judge& judge, const CorpusOptions& options) {
  const unsigned jobs = std::clamp<unsigned>(options.jobs, 1, max_corpus_jobs);
  InOrder out(inputs, judge);
  if (options.inputs_per_worker == 0) {
    ForkPerInput children(jobs, options.limits);
    run_on(children, inputs, out, [&](std::size_t i, const CorpusInput& input) {
      children.start(i, [&] { return judge.read(request_for(input)); });
    });
    return;
  }
  WorkerPoolOptions pool_options;
  pool_options.workers = jobs;
  pool_options.limits = options.limits.child_limits();
  pool_options.requests_per_worker = options.inputs_per_worker;
  // Many inputs: OpenSSL's start-up is paid once and every hash after it is faster.
  sha256_warm_up();
  WorkerPool pool(
      isolated_subject,
      [&judge](std::string_view message) {
        const auto request = decode_input_request(message);
        if (!request) throw std::runtime_error(request.error().describe());
        return judge.read(*request);
      },
      pool_options);
  run_on(pool, inputs, out, [&](std::size_t i, const CorpusInput& input) {
    pool.submit(i, encode_input_request(request_for(input)));
  });
}

}  // namespace pith::runner
