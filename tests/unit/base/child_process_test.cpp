// SPDX-License-Identifier: GPL-3.0-or-later
// base/child_process: a result sent in part before the work ends (EarlySend),
// read by the parent while the child is still at work; the one kill and reap.
#include "pith/base/child_process.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <csignal>
#include <sys/wait.h>
#include <unistd.h>
#include <stdexcept>
#include <string>

namespace {

// Busy for `ms` milliseconds (no sleeping system call: the sandbox decides those).
void busy_for(int ms) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
  while (std::chrono::steady_clock::now() < until) {
  }
}

bool has_line(std::string_view received) { return received.find('\n') != std::string_view::npos; }

}  // namespace

TEST_CASE("an early part of the result reaches the parent while the child works on", "[child]") {
  pith::ChildProcess child = pith::ChildProcess::start("the work", [](const pith::EarlySend& send_early) {
    send_early("decided\n");
    busy_for(300);
    return std::string("rest");
  });
  pith::read_until_or_deadline(child, [&] { return has_line(child.received()); });
  CHECK(child.received() == "decided\n");
  CHECK(child.fd() >= 0);  // not done yet: the rest is still to come
  pith::read_until_done_or_deadline(child);
  auto all = child.finish();
  REQUIRE(all);
  CHECK(*all == "decided\nrest");
}

TEST_CASE("a failure after an early part is an error, not a result", "[child]") {
  pith::ChildProcess child = pith::ChildProcess::start("the work", [](const pith::EarlySend& send_early) -> std::string {
    send_early("decided\n");
    throw std::runtime_error("broken later");
  });
  pith::read_until_done_or_deadline(child);
  auto all = child.finish();
  REQUIRE_FALSE(all);
  CHECK(all.error().message.find("the work ended abnormally") != std::string::npos);
}

TEST_CASE("work without an early part comes back whole, as before", "[child]") {
  pith::ChildProcess child = pith::ChildProcess::start("the work", [] { return std::string("all at once"); });
  pith::read_until_done_or_deadline(child);
  auto all = child.finish();
  REQUIRE(all);
  CHECK(*all == "all at once");
}

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
