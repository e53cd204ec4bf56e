// SPDX-License-Identifier: GPL-3.0-or-later
// base/child_process: the one kill and reap (the children themselves are
// runner/'s: tests/unit/runner).
#include "pith/base/child_process.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

TEST_CASE("the one reap: a child that ends is waited for, one past its time is killed", "[child]") {
  const pid_t quick = ::fork();
  REQUIRE(quick >= 0);
  if (quick == 0) ::_exit(3);
  const auto ended = pith::reap_child(quick, std::chrono::steady_clock::now() + std::chrono::seconds(30));
  CHECK_FALSE(ended.killed);
  CHECK((WIFEXITED(ended.status) && WEXITSTATUS(ended.status) == 3));

  const pid_t slow = ::fork();
  REQUIRE(slow >= 0);
  if (slow == 0) {
    ::pause();
    ::_exit(0);
  }
  const auto started = std::chrono::steady_clock::now();
  const auto killed = pith::reap_child(slow, started + std::chrono::milliseconds(100));
  CHECK(killed.killed);
  CHECK((WIFSIGNALED(killed.status) && WTERMSIG(killed.status) == SIGKILL));
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(10));
}
