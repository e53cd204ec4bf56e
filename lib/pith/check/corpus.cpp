#include "pith/check/corpus.hpp"

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

}  // namespace

void check_corpus(const CorpusTasks& tasks, const CorpusOptions& options) {
  const std::size_t jobs = std::clamp<unsigned>(options.jobs, 1, max_corpus_jobs);
  InOrder out(tasks.emit);
  std::vector<Running> running;
  std::size_t next = 0;

  while (next < tasks.count || !running.empty()) {
    // Start children up to the bound; answers the parent has are emitted at once.
    while (next < tasks.count && running.size() < jobs) {
      const std::size_t i = next++;
      if (tasks.in_parent) {
        if (auto answer = tasks.in_parent(i)) {
          out.done(i, std::move(*answer));
          continue;
        }
      }
      if (tasks.read_in_child) {
        running.push_back(Running{
            i, IsolatedChild::start_judged(
                   tasks.name(i), [&tasks, i] { return tasks.read_in_child(i); },
                   [&tasks, i](const Result<std::string>& sent) { return tasks.judge_in_parent(i, sent); }, options.limits)});
        continue;
      }
      running.push_back(Running{i, IsolatedChild::start(tasks.name(i), [&tasks, i] { return tasks.check_in_child(i); },
                                                        options.limits)});
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
        out.done(it->index, it->child.finish());
        it = running.erase(it);
      } else {
        ++it;
      }
    }
  }
}

}  // namespace pith::check
