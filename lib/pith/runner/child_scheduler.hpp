// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The one scheduler of children for hostile work: at most a bound of child
// processes at once, each confined as base/child_process.hpp confines a child
// (limits, quiet output, default crash signals, the sandbox), each piece of
// work held to its wall-clock deadline, all of them waited for in the one
// poll loop (base/child_process.hpp: poll_children), killed and reaped here,
// and why a child gave no answer worded once (base/child_process.hpp).
// pith-check's corpus runs (corpus.hpp) and pith-serve's broker
// (serve/broker.cpp) run on it.
//
// Work reaches a child in one of two ways; everything else is the same code:
// - start(ticket, work): a child forked for this one piece of work runs
//   `work` (a copy taken at the fork: what it captures may live in this
//   process only), answers and leaves (pith-check --workers=fork, the broker);
// - submit(ticket, request): bytes for a long-lived worker, which runs the
//   scheduler's handler on them (pith-check's default). Workers are forked as
//   needed and serve requests one after another until they have served
//   `requests_per_worker` (then they are replaced, so what a parser leaks or
//   leaves behind stays bounded) or end. A worker at work takes one request
//   queued behind its current one, so it goes on without waiting for this
//   process to judge the answer; what a worker had not begun when it ended
//   goes to another. The CPU-time limit is per request (a worker moves its
//   soft RLIMIT_CPU on before each).
// A child is one process on a socket that answers each piece of work with
// the child envelope (base/child_process.hpp: a tag byte, then the answer or
// why there is none), framed (base/wire.hpp: append_framed); a child forked
// for its work is a worker whose only request came with the fork. A crash
// is that piece of work's Error of kind malformed; a limit (memory, CPU
// time, too much output, a missed deadline) one of kind limit (the budget
// stopped it: nothing is known of the input); the other children go on.
//
// fork() without exec: create and use it from a single-threaded process.
#include "pith/base/child_process.hpp"
#include "pith/base/error.hpp"
#include "pith/runner/isolation.hpp"

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <vector>

namespace pith::runner {

struct SchedulerOptions {
  unsigned children = 1;  // at most this many at once (at least one)
  ChildLimits limits;     // for each piece of work
  std::string subject = isolated_subject;  // names the work in messages ("the check crashed (…)")
  // Long-lived workers (submit) only:
  std::size_t requests_per_worker = 500;  // then the worker is replaced
  std::size_t max_request_bytes = std::size_t{1} << 30;
};

// One piece of work done (or stopped): what its child sent back, or why
// nothing came (the crash or the limit).
struct ChildDone {
  std::uint64_t ticket = 0;
  Result<std::string> answer;  // the work's answer, or why there is none
  double seconds = 0;          // wall-clock time of the work
};

class ChildScheduler {
 public:
  // What a worker runs on each request (in the worker: forked from this
  // process as it is when the worker starts, so what the handler captures by
  // reference must outlive the scheduler and be set up before).
  using Handler = std::function<std::string(std::string_view request)>;
  // Without a handler, every piece of work gets a child forked for it
  // (start); with one, long-lived workers take requests (submit).
  explicit ChildScheduler(SchedulerOptions options, Handler handler = {});
  // A child forked per piece of work, at most `max_children` at once, named
  // isolated_subject: a run of checks (pith-check --workers=fork, pith-serve).
  ChildScheduler(unsigned max_children, const IsolationLimits& limits);
  ChildScheduler(const ChildScheduler&) = delete;
  ChildScheduler& operator=(const ChildScheduler&) = delete;
  ~ChildScheduler();  // kills the children at work, ends the idle workers, reaps them all

  // Work can be given now: a child is free (or, with workers, one at work can
  // queue it behind its current request).
  [[nodiscard]] bool has_idle() const;
  // Some work is given and not yet returned by wait().
  [[nodiscard]] bool busy() const;
  // Forks a child that runs `work`. Call only when has_idle(), in a scheduler
  // without a handler. A failure to fork is that ticket's Error (kind io) at
  // the next wait().
  void start(std::uint64_t ticket, const std::function<std::string()>& work);
  // Gives `request` to a free worker (forking one if needed), else queues it
  // behind the current request of a worker at work (at most two per worker;
  // bytes go out as the worker reads them: this process never blocks on a
  // child's socket). Call only when has_idle(), in a scheduler with a
  // handler. A request no worker can take is its Error at the next wait().
  void submit(std::uint64_t ticket, std::string_view request);

  // Waits until some work is done (or stopped past its deadline), or `also`
  // (a descriptor of the caller's; -1: none) is readable, and returns the
  // work done, in no particular order. With no work given it waits for
  // `also` alone (returns at once without one).
  struct Woken {
    std::vector<ChildDone> done;
    bool also_readable = false;
  };
  [[nodiscard]] Woken wait(int also = -1);

  // No more work will come: the idle workers are told to leave now (their
  // sockets closed), so that they end while this process judges what they
  // sent instead of after it (issue 32: 1-4 ms at the end of a check). They
  // are reaped by the destructor; work passed on later (from a worker that
  // crashed) forks a new one.
  void release_idle();

 private:
  struct Given {
    std::uint64_t ticket = 0;
    std::string request;  // kept until answered: another worker takes it if this one ends first
  };
  // One child process, or the place for one (pid -1).
  struct Child {
    pid_t pid = -1;
    int fd = -1;               // this process's end of the child's socket
    std::size_t quota = 0;     // pieces of work it does, then leaves (1: forked for its work)
    std::size_t served = 0;
    std::deque<Given> given;   // oldest first; the front is the one being worked on
    std::string outgoing;      // framed requests not yet written to the socket
    std::string incoming;      // bytes received towards the front's answer
    std::chrono::steady_clock::time_point started{};   // of given.front()
    std::chrono::steady_clock::time_point deadline{};  // of given.front()
  };
  // Forks the child of `c` with `work` (nullptr: a worker of handler_).
  [[nodiscard]] Result<void> fork_child(Child& c, const std::function<std::string()>* work);
  [[nodiscard]] bool can_queue_behind(const Child& c) const;
  Child* worker_for_next();
  void give(Child& c, std::uint64_t ticket, std::string request);
  void give_waiting();
  void begin_front(Child& c);
  // Writes what the socket takes now; false when the child is gone.
  bool flush(Child& c);
  // Reads what the child sent; true when an answer completed or the child is gone.
  bool read_from(Child& c, std::vector<ChildDone>& done);
  // Closes the socket and waits for the child to end, killing it once
  // `until` has passed (base/child_process.hpp: reap_child).
  ChildEnd reap(Child& c, std::chrono::steady_clock::time_point until);
  // The child is killed: `why` is the answer to its current work.
  void stop(Child& c, Error why, std::vector<ChildDone>& done);
  // The child closed its socket with its work unanswered: how it ended is the answer.
  void ended(Child& c, std::vector<ChildDone>& done);
  // The child has done its quota (or leaves after an error in it): ended.
  void retire(Child& c);
  // The current work gets `answer`; what was queued behind it goes back to waiting_.
  void answer_front(Child& c, Result<std::string> answer, std::vector<ChildDone>& done);
  void pass_on_queued(Child& c);

  SchedulerOptions options_;
  Handler handler_;
  std::vector<Child> children_;
  std::deque<Given> waiting_;     // requests not yet with a worker
  std::vector<ChildDone> early_;  // work no child could take
  std::vector<pid_t> leaving_;    // released by release_idle(), not yet reaped
};

}  // namespace pith::runner
