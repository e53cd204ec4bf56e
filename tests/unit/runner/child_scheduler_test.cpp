// SPDX-License-Identifier: GPL-3.0-or-later
// Children forked per piece of work (runner/child_scheduler.hpp): at most the
// bound at once, each answer back under its ticket, a crash or a hang that
// ticket's error, and a caller's descriptor (pith-serve's control socket)
// waking the wait.
#include "pith/runner/child_scheduler.hpp"

#include <catch2/catch.hpp>

#include <csignal>
#include <map>
#include <thread>
#include <unistd.h>

using namespace pith;
using namespace std::chrono_literals;

namespace {

runner::IsolationLimits quick() {
  runner::IsolationLimits l;
  l.wall_seconds = 2;
  return l;
}

std::map<std::uint64_t, Result<std::string>> wait_for_all(runner::ChildScheduler& children) {
  std::map<std::uint64_t, Result<std::string>> answers;
  while (children.busy()) {
    for (auto& d : children.wait().done) answers.emplace(d.ticket, std::move(d.answer));
  }
  return answers;
}

}  // namespace

TEST_CASE("answers come back under their tickets, failures as errors, never more children than the bound",
          "[scheduler]") {
  runner::ChildScheduler children(2, quick());
  CHECK_FALSE(children.busy());
  children.start(7, [] { return std::string("seven"); });
  CHECK(children.has_idle());
  children.start(8, []() -> std::string {
    std::raise(SIGSEGV);
    return {};
  });
  CHECK_FALSE(children.has_idle());
  const auto first = wait_for_all(children);
  children.start(9, []() -> std::string {
    for (;;) std::this_thread::sleep_for(1s);
  });
  const auto second = wait_for_all(children);
  REQUIRE(first.size() == 2);
  REQUIRE(first.at(7));
  CHECK(*first.at(7) == "seven");
  REQUIRE_FALSE(first.at(8));
  CHECK(first.at(8).error().message.find("crashed (signal 11") != std::string::npos);
  REQUIRE(second.size() == 1);
  REQUIRE_FALSE(second.at(9));
  CHECK(second.at(9).error().message.find("wall-clock limit") != std::string::npos);
  CHECK(children.has_idle());
}

TEST_CASE("the caller's descriptor wakes the wait, with or without children", "[scheduler]") {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  runner::ChildScheduler children(1, quick());
  REQUIRE(::write(fds[1], "x", 1) == 1);
  const auto idle = children.wait(fds[0]);
  CHECK(idle.also_readable);
  CHECK(idle.done.empty());

  char byte = 0;
  REQUIRE(::read(fds[0], &byte, 1) == 1);
  children.start(1, []() -> std::string {
    std::this_thread::sleep_for(1500ms);
    return "late";
  });
  REQUIRE(::write(fds[1], "y", 1) == 1);
  const auto busy = children.wait(fds[0]);
  CHECK(busy.also_readable);
  CHECK(busy.done.empty());
  CHECK(children.busy());
  ::close(fds[0]);
  ::close(fds[1]);
}

TEST_CASE("the one poll loop: each watch's events in order, woken by the nearest deadline", "[scheduler]") {
  int quiet[2];
  int ready[2];
  REQUIRE(::pipe(quiet) == 0);
  REQUIRE(::pipe(ready) == 0);
  REQUIRE(::write(ready[1], "x", 1) == 1);
  const auto now = std::chrono::steady_clock::now();
  // A watch with no descriptor (a child whose pipe is closed) still has its deadline.
  const std::vector<ChildWatch> watches{
      {quiet[0], POLLIN, now + 10s}, {-1, POLLIN, now + 10s}, {ready[0], POLLIN, now + 10s}};
  const auto events = poll_children(watches);
  REQUIRE(events.revents.size() == 3);
  CHECK(events.revents[0] == 0);
  CHECK(events.revents[1] == 0);
  CHECK((events.revents[2] & POLLIN) != 0);
  CHECK_FALSE(events.also_readable);

  // Nothing ready: the wait ends at the nearest deadline, not the later one.
  const auto started = std::chrono::steady_clock::now();
  const auto timed_out = poll_children({{quiet[0], POLLIN, started + 200ms}, {quiet[0], POLLIN, started + 10s}});
  CHECK(timed_out.now >= started + 200ms);
  CHECK(timed_out.now < started + 5s);
  CHECK(timed_out.revents == std::vector<short>{0, 0});
  // No watch and no descriptor of the caller's: nothing to wait for.
  CHECK(poll_children({}).revents.empty());
  for (const int fd : {quiet[0], quiet[1], ready[0], ready[1]}) ::close(fd);
}
