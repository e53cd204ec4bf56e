// SPDX-License-Identifier: GPL-3.0-or-later
// Long-lived workers of the one scheduler (runner/child_scheduler.hpp:
// submit): answers come back for their tickets; a worker that crashes, spins past its CPU limit, hangs past its
// deadline or answers too much is that request's error, worded as a forked
// child's would be, and the pool goes on with a fresh worker; workers are
// replaced after their quota; the sandbox holds in a worker.
#include "pith/runner/child_scheduler.hpp"

#include <catch2/catch.hpp>

#include <csignal>
#include <fcntl.h>
#include <sys/socket.h>
#include <map>
#include <algorithm>
#include <ctime>
#include <fstream>
#include <string>
#include <thread>
#include <unistd.h>

using namespace pith;
using namespace pith::runner;

namespace {

SchedulerOptions tight(unsigned workers, std::size_t quota = 500) {
  SchedulerOptions o;
  o.subject = "the test";
  o.children = workers;
  o.limits.cpu_seconds = 1;
  o.limits.wall_seconds = 3;
  o.limits.memory_bytes = std::uint64_t{512} << 20;
  o.limits.max_output_bytes = 1 << 20;
  o.requests_per_worker = quota;
  return o;
}

// The handler: "pid" answers the worker's pid; "crash", "spin", "hang",
// "big", "throw", "write" misbehave; anything else is echoed.
std::string handle(std::string_view request) {
  if (request == "pid") return std::to_string(::getpid());
  if (request == "crash") std::raise(SIGSEGV);
  if (request == "spin") {
    for (;;) asm volatile("");  // NOLINT: spins, and is not optimised away
  }
  if (request == "hang") std::this_thread::sleep_for(std::chrono::hours(1));
  if (request == "big") return std::string(2 << 20, 'x');
  if (request == "throw") throw std::runtime_error("boom");
  if (request == "write") {
    // Opening to write is refused (EACCES); a socket is fatal.
    if (::open("/tmp/pith-worker-pool-test", O_WRONLY | O_CREAT, 0600) >= 0) return "opened";
    (void)::socket(AF_INET, SOCK_STREAM, 0);
    return "refused";
  }
  return "echo:" + std::string(request);
}

std::map<std::uint64_t, Result<std::string>> run_all(ChildScheduler& pool, const std::vector<std::string>& requests) {
  std::map<std::uint64_t, Result<std::string>> answers;
  std::size_t next = 0;
  while (next < requests.size() || pool.busy()) {
    while (next < requests.size() && pool.has_idle()) {
      pool.submit(next, requests[next]);
      ++next;
    }
    for (auto& d : pool.wait().done) answers.emplace(d.ticket, std::move(d.answer));
  }
  return answers;
}

}  // namespace

TEST_CASE("a worker pool answers every request for its ticket") {
  ChildScheduler pool(tight(2), handle);
  std::vector<std::string> requests;
  for (int i = 0; i < 200; ++i) requests.push_back(std::to_string(i) + std::string(static_cast<std::size_t>(i) * 997, 'b'));
  const auto answers = run_all(pool, requests);
  REQUIRE(answers.size() == requests.size());
  for (std::size_t i = 0; i < requests.size(); ++i) {
    REQUIRE(answers.at(i).has_value());
    CHECK(*answers.at(i) == "echo:" + requests[i]);
  }
}

TEST_CASE("workers are long-lived, and replaced after their quota") {
  std::vector<std::string> requests(40, "pid");
  ChildScheduler pool(tight(1, 10), handle);
  const auto answers = run_all(pool, requests);
  std::map<std::string, int> pids;
  for (const auto& [t, a] : answers) ++pids[*a];
  CHECK(pids.size() == 4);
  for (const auto& [pid, n] : pids) CHECK(n == 10);
}

TEST_CASE("a misbehaving request is that request's error; the others are answered") {
  ChildScheduler pool(tight(2), handle);
  const std::vector<std::string> requests{"a", "crash", "b", "c", "c", "hang", "d", "big", "e", "throw", "f", "write", "g"};
  const auto answers = run_all(pool, requests);
  REQUIRE(answers.size() == requests.size());
  for (const std::size_t ok : {0u, 2u, 3u, 4u, 6u, 8u, 10u, 12u}) {
    REQUIRE(answers.at(ok).has_value());
    CHECK(*answers.at(ok) == "echo:" + requests[ok]);
  }
  CHECK_THAT(answers.at(1).error().message, Catch::Contains("the test crashed (signal 11"));
  CHECK_THAT(answers.at(5).error().message, Catch::Contains("took longer than 3 s"));
  CHECK_THAT(answers.at(7).error().message, Catch::Contains("sent back more than"));
  CHECK_THAT(answers.at(9).error().message, Catch::Contains("internal error: boom"));
  CHECK_THAT(answers.at(11).error().message, Catch::Contains("stopped by the sandbox"));
  CHECK(::access("/tmp/pith-worker-pool-test", F_OK) != 0);
}

TEST_CASE("a request past its CPU-time limit is stopped") {
  auto options = tight(1);
  options.limits.wall_seconds = 60;  // a loaded machine gives the spinner little CPU
  ChildScheduler pool(options, handle);
  const auto answers = run_all(pool, {"spin", "after"});
  CHECK_THAT(answers.at(0).error().message, Catch::Contains("exceeded the CPU-time limit of 1 s"));
  CHECK(answers.at(1).value() == "echo:after");
}

TEST_CASE("the CPU limit is per request, not per worker") {
  // Each request burns 0.6 s of CPU: a worker serving five is past 1 s in all,
  // and still within the limit for each.
  auto burn = [](std::string_view) {
    const auto cpu = [] {
      timespec t{};
      ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
      return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) / 1e9;
    };
    const double end = cpu() + 0.6;
    while (cpu() < end) {
    }
    return std::string("done");
  };
  auto options = tight(1);
  options.limits.wall_seconds = 60;
  ChildScheduler pool(options, burn);
  const auto answers = run_all(pool, std::vector<std::string>(5, "x"));
  for (const auto& [t, a] : answers) {
    INFO(t);
    CHECK(a.has_value());
  }
}

TEST_CASE("a worker at work takes one request behind its current one") {
  ChildScheduler pool(tight(1), handle);
  CHECK(pool.has_idle());
  pool.submit(0, "a");
  CHECK(pool.has_idle());  // queued behind "a" on the same worker
  pool.submit(1, "b");
  CHECK_FALSE(pool.has_idle());
  std::map<std::uint64_t, Result<std::string>> answers;
  while (pool.busy()) {
    for (auto& d : pool.wait().done) answers.emplace(d.ticket, std::move(d.answer));
  }
  CHECK(answers.at(0).value() == "echo:a");
  CHECK(answers.at(1).value() == "echo:b");
}

TEST_CASE("a request queued behind one that crashes, hangs or says too much is answered by the next worker") {
  ChildScheduler pool(tight(1), handle);
  const std::vector<std::string> requests{"crash", "a", "hang", "b", "big", "c", "throw", "d"};
  const auto answers = run_all(pool, requests);
  REQUIRE(answers.size() == requests.size());
  CHECK_THAT(answers.at(0).error().message, Catch::Contains("crashed (signal 11"));
  CHECK_THAT(answers.at(2).error().message, Catch::Contains("took longer than 3 s"));
  CHECK_THAT(answers.at(4).error().message, Catch::Contains("sent back more than"));
  CHECK_THAT(answers.at(6).error().message, Catch::Contains("internal error: boom"));
  for (const std::size_t ok : {1u, 3u, 5u, 7u}) {
    REQUIRE(answers.at(ok).has_value());
    CHECK(*answers.at(ok) == "echo:" + requests[ok]);
  }
}

TEST_CASE("large requests and answers queued on a worker do not deadlock") {
  // Requests and answers far larger than a socket's buffer: the parent
  // writes the queued request only as the worker reads it, and keeps reading
  // answers meanwhile.
  auto options = tight(2);
  options.limits.max_output_bytes = std::size_t{16} << 20;
  options.limits.wall_seconds = 60;
  ChildScheduler pool(options, handle);
  std::vector<std::string> requests;
  for (int i = 0; i < 12; ++i) requests.push_back(std::to_string(i) + std::string(std::size_t{3} << 20, 'q'));
  const auto answers = run_all(pool, requests);
  REQUIRE(answers.size() == requests.size());
  for (std::size_t i = 0; i < requests.size(); ++i) {
    REQUIRE(answers.at(i).has_value());
    CHECK(answers.at(i)->size() == requests[i].size() + 5);
    CHECK(answers.at(i)->starts_with("echo:" + std::to_string(i)));
  }
}

TEST_CASE("released idle workers leave at once, and work after them gets a fresh worker") {
  // release_idle (issue 32): the end of a run lets its idle workers go while
  // it judges their answers, instead of after.
  ChildScheduler pool(tight(2), handle);
  const auto first = run_all(pool, {"pid", "pid"});
  REQUIRE(first.size() == 2);
  std::vector<pid_t> workers;
  for (const auto& [ticket, answer] : first) {
    REQUIRE(answer.has_value());
    workers.push_back(static_cast<pid_t>(std::stol(*answer)));
  }
  pool.release_idle();
  CHECK_FALSE(pool.busy());
  // Each leaves on its own, reaped later: gone (a zombie at most) within 2 s.
  for (const pid_t pid : workers) {
    bool left = false;
    for (int i = 0; i < 200 && !left; ++i) {
      std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
      std::string line;
      std::getline(stat, line);
      left = line.empty() || line.find(") Z ") != std::string::npos;
      if (!left) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    CHECK(left);
  }
  const auto after = run_all(pool, {"pid", "late"});
  REQUIRE(after.size() == 2);
  REQUIRE(after.at(0).has_value());
  CHECK(std::find(workers.begin(), workers.end(), static_cast<pid_t>(std::stol(*after.at(0)))) == workers.end());
  REQUIRE(after.at(1).has_value());
  CHECK(*after.at(1) == "echo:late");
}
