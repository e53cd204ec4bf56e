// SPDX-License-Identifier: GPL-3.0-or-later
// sandbox_bench: what confining a checking child costs (base/sandbox.hpp).
// Forks N children that do nothing but exit, first plainly, then entering the
// sandbox first (descriptor sweep, no_new_privs, seccomp filter build and
// load), and prints the mean cost per child of each and the difference.
//   sandbox_bench [--children N]
#include "pith/base/sandbox.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/wait.h>
#include <unistd.h>

namespace {

// Microseconds enter_sandbox takes inside a fresh child, averaged over `children`
// (timed in the child: fork's own cost and the machine's noise left out).
double mean_microseconds_in_child(int children) {
  double total = 0;
  for (int i = 0; i < children; ++i) {
    int fds[2];
    if (::pipe(fds) != 0) std::exit(2);
    const pid_t pid = ::fork();
    if (pid == 0) {
      const auto t0 = std::chrono::steady_clock::now();
      const bool ok = static_cast<bool>(pith::enter_sandbox({fds[1]}));
      const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
      (void)!::write(fds[1], &us, sizeof us);
      ::_exit(ok ? 0 : 3);
    }
    ::close(fds[1]);
    double us = 0;
    if (::read(fds[0], &us, sizeof us) != static_cast<ssize_t>(sizeof us)) std::exit(2);
    ::close(fds[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    total += us;
  }
  return total / children;
}

double mean_microseconds_per_child(int children, bool sandboxed) {
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < children; ++i) {
    const pid_t pid = ::fork();
    if (pid < 0) {
      std::perror("fork");
      std::exit(2);
    }
    if (pid == 0) {
      if (sandboxed && !pith::enter_sandbox({})) ::_exit(3);
      ::_exit(0);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      std::fprintf(stderr, "sandbox_bench: a child failed (status %d)\n", status);
      std::exit(2);
    }
  }
  const auto elapsed = std::chrono::steady_clock::now() - start;
  return std::chrono::duration<double, std::micro>(elapsed).count() / children;
}

}  // namespace

int main(int argc, char** argv) {
  int children = 500;
  if (argc == 3 && std::strcmp(argv[1], "--children") == 0) children = std::atoi(argv[2]);
  if (children <= 0) {
    std::fprintf(stderr, "usage: sandbox_bench [--children N]\n");
    return 2;
  }
  (void)mean_microseconds_per_child(20, true);  // warm up
  const double plain = mean_microseconds_per_child(children, false);
  const double confined = mean_microseconds_per_child(children, true);
  const double inside = mean_microseconds_in_child(children);
  std::printf("| children | fork+exit (µs/child) | fork+sandbox+exit (µs/child) | enter_sandbox timed in the child (µs) | over %d files (ms) |\n",
              children);
  std::printf("|---:|---:|---:|---:|---:|\n");
  std::printf("| %d | %.0f | %.0f | %.0f | %.0f |\n", children, plain, confined, inside, inside * children / 1000.0);
  return 0;
}
