// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Long-lived worker processes for hostile work, for front ends that handle
// many small inputs (pith-check on a corpus, a checking service): each worker
// is forked once and confined exactly like a ChildProcess (limits, quiet
// output, default crash signals, the sandbox: child_process.hpp), then
// serves requests one at a time over a socket: request bytes in, the
// handler's answer out. The CPU-time limit is per request (the worker's soft
// RLIMIT_CPU is moved on before each), the wall-clock limit is the parent's
// deadline. A worker that crashes, hits a limit or sends too much is that
// request's Error, worded as ChildProcess::finish words it, and is replaced;
// a worker is also replaced after `requests_per_worker` requests, so what a
// parser leaks or leaves behind stays bounded. The pool does not look inside
// requests or answers (worker_wire.hpp says what a corpus run sends). Its
// interface is ChildScheduler's (child_scheduler.hpp: a fork per piece of
// work), so a corpus run uses either (corpus.hpp), and it waits in the same
// poll loop with deadlines (base/child_process.hpp: poll_children).
//
// fork() without exec: create and use it from a single-threaded process.
#include "pith/base/child_process.hpp"
#include "pith/runner/child_scheduler.hpp"

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <vector>

namespace pith::runner {

struct WorkerPoolOptions {
  unsigned workers = 1;
  ChildLimits limits;                     // per request
  std::size_t requests_per_worker = 500;  // then the worker is replaced
  std::size_t max_request_bytes = std::size_t{1} << 30;
};

class WorkerPool {
 public:
  // `handler` runs in the workers (forked from this process as it is when a
  // worker starts: what the handler captures by reference must outlive the
  // pool and be set up before). `subject` names the work in messages.
  using Handler = std::function<std::string(std::string_view request)>;
  WorkerPool(std::string subject, Handler handler, WorkerPoolOptions options);
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;
  ~WorkerPool();  // ends every worker

  using Done = ChildDone;  // the handler's answer, or why there is none

  // A request can be given now: a worker is free, or one at work can take the
  // next request behind its current one (see submit).
  [[nodiscard]] bool has_idle() const;
  [[nodiscard]] bool busy() const;  // a request is given or waiting and not yet done
  // Gives `request` to a free worker (starting one if needed), else queues it
  // behind the current request of a worker at work, so that worker goes on
  // without waiting for this process to read its answer and hand it more: a
  // caller that judges each answer (pith-check does, in the parent) would
  // otherwise leave workers idle for the length of each judgement. At most
  // two requests per worker; bytes go out as the worker reads them (this
  // process never blocks on a worker's socket). A worker that ends before it
  // starts a queued request passes it on to another. Call only when
  // has_idle(). A worker that cannot take it makes it Done with an Error at
  // the next wait().
  void submit(std::uint64_t ticket, std::string_view request);
  // Waits until at least one request is done (or its deadline passes) and
  // returns those done, in no particular order.
  [[nodiscard]] std::vector<Done> wait();

 private:
  struct Given {
    std::uint64_t ticket = 0;
    std::string request;  // kept until answered: another worker takes it if this one ends first
  };
  struct Worker {
    pid_t pid = -1;
    int fd = -1;
    std::size_t served = 0;
    std::deque<Given> given;  // oldest first; the front is the one being worked on
    std::string outgoing;     // framed requests not yet written to the socket
    std::chrono::steady_clock::time_point started{};   // of given.front()
    std::chrono::steady_clock::time_point deadline{};  // of given.front()
    std::string answer;       // bytes received towards given.front()'s answer
  };
  [[nodiscard]] bool start(Worker& w);
  void stop(Worker& w, int* status);
  [[nodiscard]] bool can_queue_behind(const Worker& w) const;
  Worker* worker_for_next();
  void give(Worker& w, std::uint64_t ticket, std::string request);
  void give_waiting();
  // Writes what the socket takes now; false when the worker is gone.
  bool flush(Worker& w);
  void begin_front(Worker& w);
  // The worker ended with `message` as the answer to its current request;
  // requests queued behind it go back to waiting_.
  void worker_ended(Worker& w, std::string message, std::vector<Done>& done);
  void pass_on_queued(Worker& w);
  // True when an answer completed (or the worker is gone).
  bool read_from(Worker& w, std::vector<Done>& done);
  std::string subject_;
  Handler handler_;
  WorkerPoolOptions options_;
  std::vector<Worker> workers_;
  std::deque<Given> waiting_;  // requests not yet with a worker
  std::vector<Done> early_;    // requests that could not be given to a worker
};

}  // namespace pith::runner
