// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/base/worker_pool.hpp"

#include "pith/base/fd_io.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <iostream>
#include <poll.h>
#include <csignal>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

namespace pith {

namespace {

// Requests and answers are framed (base/fd_io.hpp: length_framed).
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
    std::uint64_t length = 0;
    if (!read_exact(fd, reinterpret_cast<char*>(&length), frame_header_bytes)) ::_exit(0);
    if (length > options.max_request_bytes) ::_exit(5);
    request.resize(length);
    if (!read_exact(fd, request.data(), request.size())) ::_exit(0);
    const rlimit cpu{cpu_seconds_used() + options.limits.cpu_seconds, RLIM_INFINITY};
    ::setrlimit(RLIMIT_CPU, &cpu);
    const std::string payload = child_work_payload(subject, [&] { return handler(request); }, options.limits);
    if (!write_all(fd, length_framed(payload), PeerKind::pipe)) ::_exit(3);
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
    if (w.in_flight && w.pid > 0) ::kill(w.pid, SIGKILL);
    stop(w, nullptr);
  }
}

bool WorkerPool::has_idle() const {
  return std::any_of(workers_.begin(), workers_.end(), [](const Worker& w) { return !w.in_flight; });
}

bool WorkerPool::busy() const {
  return !early_.empty() || std::any_of(workers_.begin(), workers_.end(), [](const Worker& w) { return w.in_flight; });
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

void WorkerPool::fail_request(Worker& w, std::string message, std::vector<Done>& done) {
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - w.started).count();
  done.push_back(Done{w.ticket, fail(ErrorKind::malformed, "", std::move(message)), seconds});
  w.in_flight = false;
  w.answer.clear();
}

void WorkerPool::submit(std::uint64_t ticket, std::string_view request) {
  const auto idle = std::find_if(workers_.begin(), workers_.end(), [](const Worker& w) { return !w.in_flight; });
  if (idle == workers_.end()) return;
  Worker& w = *idle;
  const std::string framed = length_framed(request);
  // A worker that died while idle is replaced, once.
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (w.pid <= 0 && !start(w)) break;
    w.ticket = ticket;
    w.started = std::chrono::steady_clock::now();
    w.deadline = w.started + std::chrono::seconds(options_.limits.wall_seconds);
    w.answer.clear();
    // The parent must not die of SIGPIPE when a worker has crashed.
    if (write_all(w.fd, framed, PeerKind::socket)) {
      w.in_flight = true;
      return;
    }
    ::kill(w.pid, SIGKILL);
    stop(w, nullptr);
  }
  w.ticket = ticket;
  w.started = std::chrono::steady_clock::now();
  early_.push_back(Done{ticket, fail(ErrorKind::io, "", "cannot isolate " + subject_ + ": no worker process"), 0});
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
      fail_request(w, ended ? std::move(*ended) : subject_ + " sent back no complete result", done);
      return true;
    }
    w.answer.append(buffer, static_cast<std::size_t>(n));
    if (w.answer.size() < frame_header_bytes) continue;
    const std::uint64_t length = frame_length(w.answer);
    if (length > options_.limits.max_output_bytes + 1) {
      ::kill(w.pid, SIGKILL);
      stop(w, nullptr);
      fail_request(w, describe_too_large(subject_, options_.limits), done);
      return true;
    }
    if (w.answer.size() < frame_header_bytes + length) continue;
    if (w.answer.size() > frame_header_bytes + length) {  // nothing is asked of it: a worker that says more is not trusted
      ::kill(w.pid, SIGKILL);
      stop(w, nullptr);
      fail_request(w, subject_ + " sent back more than one answer", done);
      return true;
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - w.started).count();
    std::string payload = w.answer.substr(frame_header_bytes);
    const bool answered = !payload.empty() && payload.front() == child_result_tag;
    done.push_back(Done{w.ticket, child_payload(subject_, std::move(payload)), seconds});
    w.in_flight = false;
    w.answer.clear();
    if (!answered || ++w.served >= options_.requests_per_worker) stop(w, nullptr);
    return true;
  }
}

std::vector<WorkerPool::Done> WorkerPool::wait() {
  std::vector<Done> done = std::move(early_);
  early_.clear();
  while (done.empty()) {
    std::vector<pollfd> fds;
    std::vector<Worker*> polled;
    auto nearest = std::chrono::steady_clock::time_point::max();
    for (auto& w : workers_) {
      if (!w.in_flight) continue;
      fds.push_back(pollfd{w.fd, POLLIN, 0});
      polled.push_back(&w);
      nearest = std::min(nearest, w.deadline);
    }
    if (fds.empty()) break;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(nearest - std::chrono::steady_clock::now());
    const int timeout = static_cast<int>(std::clamp<long long>(left.count() + 1, 0, 60'000));
    if (::poll(fds.data(), fds.size(), timeout) < 0) {
      for (auto& p : fds) p.revents = 0;  // interrupted: look at the deadlines, poll again
    }
    const auto now = std::chrono::steady_clock::now();
    for (std::size_t k = 0; k < fds.size(); ++k) {
      Worker& w = *polled[k];
      if (fds[k].revents != 0 && read_from(w, done)) continue;
      if (w.in_flight && now >= w.deadline) {
        ::kill(w.pid, SIGKILL);
        stop(w, nullptr);
        fail_request(w, describe_wall_clock_stop(subject_, options_.limits), done);
      }
    }
  }
  return done;
}

}  // namespace pith
