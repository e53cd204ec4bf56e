// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/runner/child_scheduler.hpp"

#include "pith/base/fd_io.hpp"
#include "pith/base/wire.hpp"

#include <algorithm>
#include <csignal>
#include <sys/wait.h>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <iostream>
#include <iterator>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

namespace pith::runner {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

rlim_t cpu_seconds_used() {
  timespec t{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<rlim_t>(t.tv_sec) + 1;
}

// The child: confined once, then its one piece of work (`work`), or one
// request after another until the parent closes the socket. After an
// exception (memory) it leaves: its state is suspect.
[[noreturn]] void child_main(int fd, const SchedulerOptions& options, const std::function<std::string()>* work,
                             const ChildScheduler::Handler& handler) {
  const bool worker = work == nullptr;
  if (auto confined = confine_child(fd, options.limits, /*cpu_limit_per_request=*/worker); !confined) {
    const std::string why = options.subject + " failed: internal error: " + confined.error().describe();
    ::_exit(write_framed(fd, std::string(1, child_error_tag) + why) ? 0 : 3);
  }
  if (!worker) ::_exit(write_framed(fd, child_work_payload(options.subject, *work, options.limits)) ? 0 : 3);
  for (;;) {
    const auto request = read_framed(fd, options.max_request_bytes);
    // Too large (a bug of the parent's), or the parent closed the socket: leave.
    if (!request) ::_exit(request.error().kind == ErrorKind::malformed ? 5 : 0);
    const rlimit cpu{cpu_seconds_used() + options.limits.cpu_seconds, RLIM_INFINITY};
    ::setrlimit(RLIMIT_CPU, &cpu);
    const std::string payload =
        child_work_payload(options.subject, [&] { return handler(*request); }, options.limits);
    if (!write_framed(fd, payload)) ::_exit(3);
    if (payload.front() != child_result_tag) ::_exit(0);
  }
}

}  // namespace

ChildScheduler::ChildScheduler(SchedulerOptions options, Handler handler)
    : options_(std::move(options)), handler_(std::move(handler)) {
  children_.resize(std::max(1u, options_.children));
}

ChildScheduler::ChildScheduler(unsigned max_children, const IsolationLimits& limits)
    : ChildScheduler(SchedulerOptions{.children = max_children, .limits = limits.child_limits()}) {}

ChildScheduler::~ChildScheduler() {
  // Those at work are killed; an idle worker leaves when its socket closes.
  for (auto& c : children_) (void)reap(c, c.given.empty() ? Clock::now() + std::chrono::seconds(2) : Clock::time_point::min());
  for (const pid_t pid : leaving_) (void)reap_child(pid, Clock::now() + std::chrono::seconds(2));
}

void ChildScheduler::release_idle() {
  if (!waiting_.empty()) return;
  for (auto& c : children_) {
    if (c.pid <= 0 || !c.given.empty()) continue;
    if (c.fd >= 0) ::close(c.fd);
    leaving_.push_back(c.pid);
    c = Child{};  // a free slot: a worker is forked again if work comes after all
  }
}

bool ChildScheduler::can_queue_behind(const Child& c) const {
  // Not behind a worker's last request of its quota: it leaves after that one.
  return c.given.size() == 1 && c.pid > 0 && c.served + 2 <= c.quota;
}

bool ChildScheduler::has_idle() const {
  if (!waiting_.empty()) return false;  // those go first
  return std::any_of(children_.begin(), children_.end(),
                     [this](const Child& c) { return c.given.empty() || can_queue_behind(c); });
}

bool ChildScheduler::busy() const {
  return !early_.empty() || !waiting_.empty() ||
         std::any_of(children_.begin(), children_.end(), [](const Child& c) { return !c.given.empty(); });
}

Result<void> ChildScheduler::fork_child(Child& c, const std::function<std::string()>* work) {
  const auto failed = [](const char* what) { return fail(ErrorKind::io, "", std::string(what) + ": " + std::strerror(errno)); };
  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) return failed("socketpair");
  // Nothing buffered may be written twice (once by the child).
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) {
    auto error = failed("fork");
    ::close(fds[0]);
    ::close(fds[1]);
    return error;
  }
  if (pid == 0) {
    ::close(fds[0]);
    child_main(fds[1], options_, work, handler_);
  }
  ::close(fds[1]);
  c = Child{};
  c.pid = pid;
  c.fd = fds[0];
  c.quota = work != nullptr ? 1 : std::max<std::size_t>(1, options_.requests_per_worker);
  return {};
}

void ChildScheduler::begin_front(Child& c) {
  c.started = Clock::now();
  c.deadline = c.started + std::chrono::seconds(options_.limits.wall_seconds);
}

void ChildScheduler::start(std::uint64_t ticket, const std::function<std::string()>& work) {
  const auto free = std::find_if(children_.begin(), children_.end(), [](const Child& c) { return c.given.empty(); });
  if (free == children_.end() || handler_) {
    early_.push_back(ChildDone{ticket, fail(ErrorKind::internal, "", "no child free to start " + options_.subject), 0});
    return;
  }
  if (auto forked = fork_child(*free, &work); !forked) {
    early_.push_back(ChildDone{
        ticket, fail(ErrorKind::io, "", "cannot isolate " + options_.subject + ": " + forked.error().message), 0});
    return;
  }
  free->given.push_back(Given{ticket, {}});  // its work went with the fork
  begin_front(*free);
}

// A free worker first; else one at work that can queue it.
ChildScheduler::Child* ChildScheduler::worker_for_next() {
  for (auto& c : children_) {
    if (c.given.empty()) return &c;
  }
  for (auto& c : children_) {
    if (can_queue_behind(c)) return &c;
  }
  return nullptr;
}

bool ChildScheduler::flush(Child& c) {
  while (!c.outgoing.empty()) {
    // This process must not die of SIGPIPE when a worker has crashed, nor wait
    // on a worker busy with the request before.
    const ssize_t n = ::send(c.fd, c.outgoing.data(), c.outgoing.size(), MSG_DONTWAIT | MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return true;
    if (n <= 0) return false;
    c.outgoing.erase(0, static_cast<std::size_t>(n));
  }
  return true;
}

void ChildScheduler::give(Child& c, std::uint64_t ticket, std::string request) {
  const bool free = c.given.empty();
  // A free worker that died while idle is replaced, once.
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (c.pid <= 0 && !fork_child(c, nullptr)) break;
    append_framed(c.outgoing, request);
    c.given.push_back(Given{ticket, std::move(request)});
    if (free) begin_front(c);
    if (flush(c) || !free) return;  // a busy worker that is gone: its read says how, and passes this on
    request = std::move(c.given.back().request);
    c.given.clear();
    c.outgoing.clear();
    (void)reap(c, Clock::time_point::min());
  }
  early_.push_back(ChildDone{ticket, fail(ErrorKind::io, "", "cannot isolate " + options_.subject + ": no worker process"), 0});
}

void ChildScheduler::submit(std::uint64_t ticket, std::string_view request) {
  if (!handler_) {
    early_.push_back(ChildDone{ticket, fail(ErrorKind::internal, "", "no worker to take " + options_.subject), 0});
  } else if (Child* c = worker_for_next()) {
    give(*c, ticket, std::string(request));
  } else {
    waiting_.push_back(Given{ticket, std::string(request)});
  }
}

void ChildScheduler::give_waiting() {
  while (!waiting_.empty()) {
    Child* c = worker_for_next();
    if (c == nullptr) return;
    Given next = std::move(waiting_.front());
    waiting_.pop_front();
    give(*c, next.ticket, std::move(next.request));
  }
}

ChildEnd ChildScheduler::reap(Child& c, Clock::time_point until) {
  if (c.fd >= 0) ::close(std::exchange(c.fd, -1));
  if (c.pid <= 0) return {};
  return reap_child(std::exchange(c.pid, -1), until);
}

void ChildScheduler::answer_front(Child& c, Result<std::string> answer, std::vector<ChildDone>& done) {
  if (!c.given.empty()) {
    done.push_back(ChildDone{c.given.front().ticket, std::move(answer), seconds_since(c.started)});
    c.given.pop_front();
  }
  pass_on_queued(c);
}

void ChildScheduler::stop(Child& c, Error why, std::vector<ChildDone>& done) {
  (void)reap(c, Clock::time_point::min());
  answer_front(c, std::unexpected(std::move(why)), done);
}

void ChildScheduler::ended(Child& c, std::vector<ChildDone>& done) {
  // The socket's end normally means the child is exiting; one that closed it
  // and lives on is still held to its deadline.
  const ChildEnd end = reap(c, c.deadline);
  if (end.killed) {
    return answer_front(c, fail(ErrorKind::limit, "", describe_wall_clock_stop(options_.subject, options_.limits)), done);
  }
  // Past the CPU-time limit is the budget's stop; any other end is a crash.
  const bool past_cpu_limit = WIFSIGNALED(end.status) && WTERMSIG(end.status) == SIGXCPU;
  auto why = describe_child_end(options_.subject, end.status, options_.limits);
  answer_front(c, fail(past_cpu_limit ? ErrorKind::limit : ErrorKind::crashed, "",
                       why ? std::move(*why) : options_.subject + " sent back no complete result"),
               done);
}

void ChildScheduler::retire(Child& c) {
  (void)reap(c, Clock::now() + std::chrono::seconds(2));
  pass_on_queued(c);
}

void ChildScheduler::pass_on_queued(Child& c) {
  // What it had not started goes to another worker, in the order given.
  while (!c.given.empty()) {
    waiting_.push_front(std::move(c.given.back()));
    c.given.pop_back();
  }
  c.outgoing.clear();
  c.incoming.clear();
}

bool ChildScheduler::read_from(Child& c, std::vector<ChildDone>& done) {
  char buffer[65536];
  for (;;) {
    const ssize_t n = ::recv(c.fd, buffer, sizeof buffer, MSG_DONTWAIT);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return false;
    if (n <= 0) {
      ended(c, done);
      return true;
    }
    c.incoming.append(buffer, static_cast<std::size_t>(n));
    bool answered_one = false;
    while (const auto length = framed_length(c.incoming)) {
      // The envelope's tag byte comes on top of what the work may send.
      if (*length > options_.limits.max_output_bytes + 1) {
        stop(c, Error{ErrorKind::limit, "", describe_too_large(options_.subject, options_.limits)}, done);
        return true;
      }
      std::string_view rest = c.incoming;
      const auto framed = take_framed(rest);
      if (!framed) break;
      // Bytes past this answer start the next one: only if a next was asked for.
      if (!rest.empty() && c.given.size() < 2) {
        stop(c, Error{ErrorKind::crashed, "", options_.subject + " sent back more than one answer"}, done);
        return true;
      }
      std::string payload(*framed);
      c.incoming.erase(0, c.incoming.size() - rest.size());
      const bool answered = !payload.empty() && payload.front() == child_result_tag;
      done.push_back(ChildDone{c.given.front().ticket, child_payload(options_.subject, std::move(payload)),
                               seconds_since(c.started)});
      c.given.pop_front();
      answered_one = true;
      if (!answered || ++c.served >= c.quota) {
        // It leaves (after an internal error) or has done its quota.
        retire(c);
        return true;
      }
      begin_front(c);
      if (c.given.empty()) break;
    }
    if (answered_one) return true;
  }
}

ChildScheduler::Woken ChildScheduler::wait(int also) {
  Woken woken;
  while (woken.done.empty() && !woken.also_readable) {
    give_waiting();
    std::move(early_.begin(), early_.end(), std::back_inserter(woken.done));
    early_.clear();
    if (!woken.done.empty()) break;
    std::vector<ChildWatch> watches;
    std::vector<Child*> polled;
    for (auto& c : children_) {
      if (c.given.empty()) continue;
      const short events = static_cast<short>(POLLIN | (c.outgoing.empty() ? 0 : POLLOUT));
      watches.push_back(ChildWatch{c.fd, events, c.deadline});
      polled.push_back(&c);
    }
    if (watches.empty() && also < 0) break;
    const ChildEvents events = poll_children(watches, also);
    woken.also_readable = events.also_readable;
    for (std::size_t k = 0; k < watches.size(); ++k) {
      Child& c = *polled[k];
      const short revents = events.revents[k];
      // A worker gone mid-request is seen by its read (end of file): the
      // write only stops trying.
      if ((revents & POLLOUT) != 0 && !flush(c)) c.outgoing.clear();
      if ((revents & (POLLIN | POLLHUP | POLLERR)) != 0 && read_from(c, woken.done)) continue;
      if (!c.given.empty() && events.now >= c.deadline) {
        stop(c, Error{ErrorKind::limit, "", describe_wall_clock_stop(options_.subject, options_.limits)}, woken.done);
      }
    }
  }
  return woken;
}

}  // namespace pith::runner
