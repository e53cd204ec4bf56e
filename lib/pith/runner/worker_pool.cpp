// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/runner/worker_pool.hpp"

#include "pith/base/fd_io.hpp"
#include "pith/base/wire.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <iostream>
#include <iterator>
#include <poll.h>
#include <csignal>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

namespace pith::runner {

namespace {

// Requests and answers are framed (base/wire.hpp: append_framed).
rlim_t cpu_seconds_used() {
  timespec t{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<rlim_t>(t.tv_sec) + 1;
}

// The worker: confined once, then one request after another until the parent
// closes the socket. After an exception (memory) it leaves: its state is suspect.
[[noreturn]] void serve(int fd, const std::string& subject, const WorkerPool::Handler& handler,
                        const WorkerPoolOptions& options) {
  if (!confine_child(fd, options.limits, /*cpu_limit_per_request=*/true)) ::_exit(4);
  std::string request;
  for (;;) {
    auto next = read_framed(fd, options.max_request_bytes);
    if (!next) ::_exit(next.error().kind == ErrorKind::malformed ? 5 : 0);  // too large; or the parent closed the socket
    request = std::move(*next);
    const rlimit cpu{cpu_seconds_used() + options.limits.cpu_seconds, RLIM_INFINITY};
    ::setrlimit(RLIMIT_CPU, &cpu);
    const std::string payload = child_work_payload(subject, [&] { return handler(request); }, options.limits);
    if (!write_framed(fd, payload)) ::_exit(3);
    if (payload.front() != child_result_tag) ::_exit(0);
  }
}

}  // namespace

WorkerPool::WorkerPool(std::string subject, Handler handler, WorkerPoolOptions options)
    : subject_(std::move(subject)), handler_(std::move(handler)), options_(options) {
  workers_.resize(std::max(1u, options_.workers));
}

WorkerPool::~WorkerPool() {
  for (auto& w : workers_) {
    if (!w.given.empty() && w.pid > 0) ::kill(w.pid, SIGKILL);
    stop(w, nullptr);
  }
}

// A worker at work takes one more request behind its current one, unless it
// is to be replaced after the current one (its quota).
bool WorkerPool::can_queue_behind(const Worker& w) const {
  return w.given.size() == 1 && w.pid > 0 && w.served + 2 <= options_.requests_per_worker;
}

bool WorkerPool::has_idle() const {
  if (!waiting_.empty()) return false;  // those go first
  return std::any_of(workers_.begin(), workers_.end(),
                     [this](const Worker& w) { return w.given.empty() || can_queue_behind(w); });
}

bool WorkerPool::busy() const {
  return !early_.empty() || !waiting_.empty() ||
         std::any_of(workers_.begin(), workers_.end(), [](const Worker& w) { return !w.given.empty(); });
}

// A free worker first; else one at work that can queue it.
WorkerPool::Worker* WorkerPool::worker_for_next() {
  for (auto& w : workers_) {
    if (w.given.empty()) return &w;
  }
  for (auto& w : workers_) {
    if (can_queue_behind(w)) return &w;
  }
  return nullptr;
}

bool WorkerPool::start(Worker& w) {
  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) return false;
  // Nothing buffered may be written twice (once by the worker).
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return false;
  }
  if (pid == 0) {
    ::close(fds[0]);
    serve(fds[1], subject_, handler_, options_);
  }
  ::close(fds[1]);
  w = Worker{};
  w.pid = pid;
  w.fd = fds[0];
  return true;
}

// Ends the worker: a closed socket tells an idle one to leave; one still at
// work, or one that does not leave by its deadline, is killed.
void WorkerPool::stop(Worker& w, int* status) {
  if (w.fd >= 0) ::close(std::exchange(w.fd, -1));
  if (w.pid <= 0) return;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  int st = 0;
  for (;;) {
    const pid_t done = ::waitpid(w.pid, &st, WNOHANG);
    if (done == w.pid || (done < 0 && errno != EINTR)) break;
    if (done == 0 && std::chrono::steady_clock::now() >= deadline) {
      ::kill(w.pid, SIGKILL);
      while (::waitpid(w.pid, &st, 0) < 0 && errno == EINTR) {
      }
      break;
    }
    if (done == 0) ::usleep(200);
  }
  if (status) *status = st;
  w.pid = -1;
}

void WorkerPool::begin_front(Worker& w) {
  w.started = std::chrono::steady_clock::now();
  w.deadline = w.started + std::chrono::seconds(options_.limits.wall_seconds);
  w.answer.clear();
}

bool WorkerPool::flush(Worker& w) {
  while (!w.outgoing.empty()) {
    // The parent must not die of SIGPIPE when a worker has crashed, nor wait
    // on a worker busy with the request before.
    const ssize_t n = ::send(w.fd, w.outgoing.data(), w.outgoing.size(), MSG_DONTWAIT | MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return true;
    if (n <= 0) return false;
    w.outgoing.erase(0, static_cast<std::size_t>(n));
  }
  return true;
}

void WorkerPool::give(Worker& w, std::uint64_t ticket, std::string request) {
  const bool free = w.given.empty();
  // A free worker that died while idle is replaced, once.
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (w.pid <= 0 && !start(w)) break;
    append_framed(w.outgoing, request);
    w.given.push_back(Given{ticket, std::move(request)});
    if (free) begin_front(w);
    if (flush(w) || !free) return;  // a busy worker that is gone: its read says how, and passes this on
    request = std::move(w.given.back().request);
    w.given.clear();
    w.outgoing.clear();
    ::kill(w.pid, SIGKILL);
    stop(w, nullptr);
  }
  early_.push_back(Done{ticket, fail(ErrorKind::io, "", "cannot isolate " + subject_ + ": no worker process"), 0});
}

void WorkerPool::submit(std::uint64_t ticket, std::string_view request) {
  if (Worker* w = worker_for_next()) {
    give(*w, ticket, std::string(request));
  } else {
    waiting_.push_back(Given{ticket, std::string(request)});
  }
}

void WorkerPool::give_waiting() {
  while (!waiting_.empty()) {
    Worker* w = worker_for_next();
    if (w == nullptr) return;
    Given next = std::move(waiting_.front());
    waiting_.pop_front();
    give(*w, next.ticket, std::move(next.request));
  }
}

void WorkerPool::worker_ended(Worker& w, std::string message, std::vector<Done>& done) {
  if (!w.given.empty()) {
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - w.started).count();
    done.push_back(Done{w.given.front().ticket, fail(ErrorKind::malformed, "", std::move(message)), seconds});
    w.given.pop_front();
  }
  pass_on_queued(w);
}

void WorkerPool::pass_on_queued(Worker& w) {
  // What it had not started goes to another worker, in the order given.
  while (!w.given.empty()) {
    waiting_.push_front(std::move(w.given.back()));
    w.given.pop_back();
  }
  w.outgoing.clear();
  w.answer.clear();
}

bool WorkerPool::read_from(Worker& w, std::vector<Done>& done) {
  char buffer[65536];
  for (;;) {
    const ssize_t n = ::recv(w.fd, buffer, sizeof buffer, MSG_DONTWAIT);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return false;
    if (n <= 0) {
      // The worker is gone with the request unanswered: how it ended is the answer.
      int status = 0;
      stop(w, &status);
      auto ended = describe_child_end(subject_, status, options_.limits);
      worker_ended(w, ended ? std::move(*ended) : subject_ + " sent back no complete result", done);
      return true;
    }
    w.answer.append(buffer, static_cast<std::size_t>(n));
    bool answered_one = false;
    while (const auto announced = framed_length(w.answer)) {
      const std::uint64_t length = *announced;
      if (length > options_.limits.max_output_bytes + 1) {
        ::kill(w.pid, SIGKILL);
        stop(w, nullptr);
        worker_ended(w, describe_too_large(subject_, options_.limits), done);
        return true;
      }
      if (w.answer.size() < frame_header_bytes + length) break;
      // Bytes past this answer start the next one: only if a next was asked for.
      if (w.answer.size() > frame_header_bytes + length && w.given.size() < 2) {
        ::kill(w.pid, SIGKILL);
        stop(w, nullptr);
        worker_ended(w, subject_ + " sent back more than one answer", done);
        return true;
      }
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - w.started).count();
      std::string payload = w.answer.substr(frame_header_bytes, static_cast<std::size_t>(length));
      std::string rest = w.answer.substr(frame_header_bytes + static_cast<std::size_t>(length));
      const bool answered = !payload.empty() && payload.front() == child_result_tag;
      done.push_back(Done{w.given.front().ticket, child_payload(subject_, std::move(payload)), seconds});
      w.given.pop_front();
      answered_one = true;
      if (!answered || ++w.served >= options_.requests_per_worker) {
        // It leaves (after an internal error) or has served its quota.
        stop(w, nullptr);
        pass_on_queued(w);
        return true;
      }
      begin_front(w);
      w.answer = std::move(rest);
      if (w.given.empty()) break;
    }
    if (answered_one) return true;
  }
}

std::vector<WorkerPool::Done> WorkerPool::wait() {
  std::vector<Done> done = std::move(early_);
  early_.clear();
  while (done.empty()) {
    give_waiting();
    if (!early_.empty()) {
      std::move(early_.begin(), early_.end(), std::back_inserter(done));
      early_.clear();
      break;
    }
    // The workers at work, in the one poll loop (child_scheduler.hpp).
    std::vector<ChildWatch> watches;
    std::vector<Worker*> polled;
    for (auto& w : workers_) {
      if (w.given.empty()) continue;
      const short events = static_cast<short>(POLLIN | (w.outgoing.empty() ? 0 : POLLOUT));
      watches.push_back(ChildWatch{w.fd, events, w.deadline});
      polled.push_back(&w);
    }
    if (watches.empty()) break;
    const ChildEvents events = poll_children(watches);
    for (std::size_t k = 0; k < watches.size(); ++k) {
      Worker& w = *polled[k];
      const short revents = events.revents[k];
      // A worker gone mid-request is seen by its read (end of file): the
      // write only stops trying.
      if ((revents & POLLOUT) != 0 && !flush(w)) w.outgoing.clear();
      if ((revents & (POLLIN | POLLHUP | POLLERR)) != 0 && read_from(w, done)) continue;
      if (!w.given.empty() && events.now >= w.deadline) {
        ::kill(w.pid, SIGKILL);
        stop(w, nullptr);
        worker_ended(w, describe_wall_clock_stop(subject_, options_.limits), done);
      }
    }
  }
  return done;
}

}  // namespace pith::runner
