// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/base/child_process.hpp"

#include "pith/base/sandbox.hpp"

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <csignal>
#include <stdexcept>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <new>
#include <poll.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <utility>

namespace pith {
namespace {

// The first byte the child sends says what follows: the work's result, or
// why there is none (an exception in the child).
constexpr char result_tag = child_result_tag;
constexpr char error_tag = child_error_tag;
constexpr char limit_tag = child_limit_tag;

// "; raise it with --child-memory MiB", after a limit's message.
std::string raise_with(const std::string& option) { return option.empty() ? "" : "; raise it with " + option; }

// The child's address space now (/proc/self/statm's first field), 0 when
// it cannot be read.
std::uint64_t address_space_now() {
  std::uint64_t pages = 0;
  if (std::FILE* statm = std::fopen("/proc/self/statm", "re")) {
    if (std::fscanf(statm, "%" SCNu64, &pages) != 1) pages = 0;
    std::fclose(statm);
  }
  return pages * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
}

void set_limit(int resource, rlim_t soft, rlim_t hard) {
  const rlimit limit{soft, hard};
  ::setrlimit(resource, &limit);
}

std::string describe_signal(int sig) {
  const char* name = ::strsignal(sig);
  return "signal " + std::to_string(sig) + (name ? std::string(" (") + name + ")" : std::string());
}

// Milliseconds to wait for `t`: at least 0, at most a minute (the caller
// looks at its deadlines and waits again).
int milliseconds_until(std::chrono::steady_clock::time_point t) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(t - std::chrono::steady_clock::now());
  return static_cast<int>(std::clamp<long long>(left.count() + 1, 0, 60'000));
}

}  // namespace

ChildEvents poll_children(const std::vector<ChildWatch>& watches, int also) {
  ChildEvents events;
  events.revents.assign(watches.size(), 0);
  // Output from any child, the caller's descriptor, or the nearest deadline.
  std::vector<pollfd> fds;
  std::vector<std::size_t> watch_of;  // fds[i + first] belongs to watches[watch_of[i]]
  if (also >= 0) fds.push_back(pollfd{also, POLLIN, 0});
  const std::size_t first_child = fds.size();
  auto nearest = std::chrono::steady_clock::time_point::max();
  for (std::size_t i = 0; i < watches.size(); ++i) {
    if (watches[i].fd >= 0) {
      fds.push_back(pollfd{watches[i].fd, watches[i].events, 0});
      watch_of.push_back(i);
    }
    nearest = std::min(nearest, watches[i].deadline);
  }
  if (fds.empty() && watches.empty()) {
    events.now = std::chrono::steady_clock::now();
    return events;
  }
  const int timeout = watches.empty() ? -1 : milliseconds_until(nearest);
  // An interrupted poll has no revents set: the caller looks at the deadlines and waits again.
  if (!fds.empty() && ::poll(fds.data(), fds.size(), timeout) < 0) {
    for (auto& p : fds) p.revents = 0;
  }
  events.also_readable = also >= 0 && fds[0].revents != 0;
  for (std::size_t i = first_child; i < fds.size(); ++i) events.revents[watch_of[i - first_child]] = fds[i].revents;
  events.now = std::chrono::steady_clock::now();
  return events;
}

std::string describe_memory_stop(const std::string& subject, const ChildLimits& limits) {
  return subject + " exceeded the memory limit of " + std::to_string(limits.memory_bytes >> 20) + " MiB and was stopped" +
         raise_with(limits.memory_option);
}

std::string child_work_payload(const std::string& subject, const std::function<std::string()>& work,
                               const ChildLimits& limits) {
  try {
    return std::string(1, result_tag) + work();
  } catch (const std::bad_alloc&) {
    return std::string(1, limit_tag) + describe_memory_stop(subject, limits);
  } catch (const std::exception& e) {
    return std::string(1, error_tag) + subject + " failed: internal error: " + e.what();
  } catch (...) {
    return std::string(1, error_tag) + subject + " failed: internal error";
  }
}

Result<void> confine_child(int keep_fd, const ChildLimits& limits, bool cpu_limit_per_request) {
  if (const int devnull = ::open("/dev/null", O_WRONLY | O_CLOEXEC); devnull >= 0) {
    ::dup2(devnull, STDOUT_FILENO);
    ::dup2(devnull, STDERR_FILENO);
    ::close(devnull);
  }
  // A crash must end the child and be seen by the parent as that signal, not
  // go to handlers inherited from the caller.
  for (const int sig : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGXCPU, SIGPIPE}) std::signal(sig, SIG_DFL);
  // An interrupt ends the child, never runs the parent's handler (runner/interruption.hpp).
  for (const int sig : {SIGINT, SIGTERM, SIGHUP}) std::signal(sig, SIG_DFL);
  // A worker moves its soft limit on before each request: the hard one stays open.
  set_limit(RLIMIT_CPU, limits.cpu_seconds, cpu_limit_per_request ? RLIM_INFINITY : limits.cpu_seconds + 1);
  set_limit(RLIMIT_CORE, 0, 0);  // a crash of the parser is reported, not dumped
  const std::uint64_t start = limits.memory_above_start ? address_space_now() : 0;  // before the sandbox: it opens a file
  // Confined before the input is touched: read, compute, report (base/sandbox.hpp).
  if (auto sandboxed = enter_sandbox({keep_fd, limits.keep_descriptor}); !sandboxed) return sandboxed;
  // The memory limit is the parser's, set once the sandbox stands: building
  // the seccomp filter allocates, and under a small limit it failed in a
  // heap the parent had left full, as an internal error instead of the
  // limit it is.
  const std::uint64_t address_space = start + limits.mapped_bytes + limits.memory_bytes;
  set_limit(RLIMIT_AS, address_space, address_space);
  return {};
}

std::optional<std::string> describe_child_end(const std::string& subject, int status, const ChildLimits& limits) {
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    if (killed_by_sandbox(sig)) {
      // A library reaching for something the allow-list lacks is far more
      // likely than an attack: the message blames neither the file nor its author.
      return subject + " was stopped by the sandbox: a library made a system call pith's sandbox does not allow (" +
             describe_signal(sig) + "); please report it to pith's authors with the file";
    }
    if (sig == SIGXCPU) {
      return subject + " exceeded the CPU-time limit of " + std::to_string(limits.cpu_seconds) + " s and was stopped" +
             raise_with(limits.time_option);
    }
    return subject + " crashed (" + describe_signal(sig) + ")";
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return subject + " ended abnormally (exit status " + std::to_string(WEXITSTATUS(status)) + ")";
  }
  return std::nullopt;
}

ChildEnd reap_child(pid_t pid, std::chrono::steady_clock::time_point until) {
  ChildEnd end;
  for (;;) {
    const pid_t done = ::waitpid(pid, &end.status, WNOHANG);
    if (done == pid || (done < 0 && errno != EINTR)) return end;
    if (done == 0 && std::chrono::steady_clock::now() >= until) break;
    if (done == 0) ::usleep(200);
  }
  ::kill(pid, SIGKILL);
  end.killed = true;
  while (::waitpid(pid, &end.status, 0) < 0 && errno == EINTR) {
  }
  return end;
}

std::string describe_wall_clock_stop(const std::string& subject, const ChildLimits& limits) {
  return subject + " took longer than " + std::to_string(limits.wall_seconds) + " s and was stopped (wall-clock limit" +
         (limits.time_option.empty() ? ")" : "; raise it with " + limits.time_option + ")");
}

std::string describe_too_large(const std::string& subject, const ChildLimits& limits) {
  return subject + " sent back more than " + std::to_string(limits.max_output_bytes) + " bytes and was stopped";
}

Result<std::string> child_payload(const std::string& subject, std::string payload) {
  // The child's own error (error_tag) is the input's; no envelope, or a
  // broken one, is the child failing.
  const auto incomplete = [&subject] { return fail(ErrorKind::crashed, "", subject + " sent back no complete result"); };
  if (payload.empty()) return incomplete();
  if (payload.front() == error_tag) return fail(ErrorKind::malformed, "", payload.substr(1));
  if (payload.front() == limit_tag) return fail(ErrorKind::limit, "", payload.substr(1));
  if (payload.front() != result_tag) return incomplete();
  payload.erase(0, 1);
  return payload;
}

}  // namespace pith
