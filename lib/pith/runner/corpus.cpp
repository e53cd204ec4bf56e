// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/runner/corpus.hpp"

#include "pith/base/crypto.hpp"
#include "pith/runner/child_scheduler.hpp"
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

// The one loop, whichever way work reaches the children (a fork per input,
// or workers): give every free child an input, wait, hand on what is done.
template <class Give>
bool run_on(ChildScheduler& children, InputSource& inputs, InOrder& out, const Interruption* interruption, const Give& give) {
  const auto interrupted = [interruption] { return interruption != nullptr && interruption->requested(); };
  std::size_t next = 0;
  const auto give_idle_children_work = [&] {
    while (children.has_idle() && inputs.has(next)) {
      const std::size_t i = next++;
      if (inputs.at(i).ready) {
        out.done(i, std::nullopt, 0);
        continue;
      }
      give(i, inputs.at(i));
    }
  };
  while (inputs.has(next) || children.busy()) {
    if (interrupted()) return false;
    give_idle_children_work();
    if (!children.busy()) continue;
    auto done = children.wait(interruption ? interruption->fd() : -1).done;
    // Answers that come with an interrupt are not judged: a child the same
    // Ctrl-C ended would read as a crash. Those inputs are checked on --resume.
    if (interrupted()) return false;
    // The children that just answered get their next input before this
    // process judges their answers, so they read while it judges: judging
    // first left each worker idle for its own answer's judgement, and the
    // run used 1.2 of 2 cores.
    give_idle_children_work();
    if (!inputs.has(next)) children.release_idle();
    for (auto& d : done) out.done(static_cast<std::size_t>(d.ticket), std::move(d.answer), d.seconds);
  }
  return true;
}

// OpenSSL's start-up (sha256_warm_up, ~5 M instructions) pays only across
// inputs: a paper's hash after it is ~0.4 ms faster, the start-up ~1.5 ms.
// A run of one or two files (pith-check paper.pdf) starts sooner without it;
// one whose count is not known up front (archives, a shard, --resume) is
// taken to be many.
constexpr std::size_t warm_up_from_inputs = 4;

bool warm_up_pays(const InputSource& inputs) {
  const auto total = inputs.total();
  return !total || *total >= warm_up_from_inputs;
}

}  // namespace

bool run_corpus(InputSource& inputs, Judge& judge, const CorpusOptions& options) {
  InOrder out(inputs, judge);
  SchedulerOptions scheduling;
  scheduling.children = std::clamp<unsigned>(options.jobs, 1, max_corpus_jobs);
  scheduling.limits = options.limits.child_limits();
  scheduling.requests_per_worker = options.inputs_per_worker;
  if (options.inputs_per_worker == 0) {
    ChildScheduler children(scheduling);
    return run_on(children, inputs, out, options.interruption, [&](std::size_t i, const CorpusInput& input) {
      children.start(i, [&] { return judge.read(request_for(input)); });
    });
  }
  // Many inputs: OpenSSL's start-up is paid once and every hash after it is faster.
  if (warm_up_pays(inputs)) sha256_warm_up();
  ChildScheduler workers(scheduling, [&judge](std::string_view message) {
    const auto request = decode_input_request(message);
    if (!request) throw std::runtime_error(request.error().describe());
    return judge.read(*request);
  });
  return run_on(workers, inputs, out, options.interruption, [&](std::size_t i, const CorpusInput& input) {
    workers.submit(i, encode_input_request(request_for(input)));
  });
}

}  // namespace pith::runner
