// SPDX-License-Identifier: GPL-3.0-or-later
// Many inputs, each checked in its own child process, a bounded number at a
// time: every input gets exactly one report, in input order, whatever the
// children do (crash, hang, spin) and whichever finishes first.
#include "pith/runner/corpus.hpp"
#include "support/test_data.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <new>
#include <sys/mman.h>
#include <thread>
#include <vector>

using namespace pith;
using namespace std::chrono_literals;

namespace {

std::size_t index_of(std::string_view name) { return std::stoul(std::string(name.substr(4))); }

Report named(std::size_t i, const std::string& detail) {
  Report r;
  r.input = "file" + std::to_string(i);
  r.trust_anchor("test.ok", detail);
  return r;
}

runner::IsolationLimits tight() {
  runner::IsolationLimits l;
  l.cpu_seconds = 1;
  l.wall_seconds = 3;
  l.memory_bytes = std::uint64_t{512} << 20;
  return l;
}

struct Emitted {
  std::vector<std::size_t> order;
  std::vector<Report> reports;
};

// Each child sends the detail of its input's report; the parent judges it
// (a failed child: the report's error), as pith-check's children only read.
class TestJudge final : public runner::Judge {
 public:
  TestJudge(std::function<std::string(std::size_t)> child, Emitted& out) : child_(std::move(child)), out_(out) {}
  [[nodiscard]] std::string read(const runner::InputRequest& input) const override {
    return child_(index_of(input.name));
  }
  void judge(runner::CorpusInput input, std::optional<Result<std::string>> sent) override {
    const std::size_t i = index_of(input.name);
    Report r;
    if (!sent) {
      r = *input.ready;
    } else if (*sent) {
      r = named(i, **sent);
    } else {
      r.input = input.name;
      r.error = sent->error();
    }
    out_.order.push_back(i);
    out_.reports.push_back(std::move(r));
  }

 private:
  std::function<std::string(std::size_t)> child_;
  Emitted& out_;
};

// Inputs file0 … file<count-1>; `parent(i)` may have answered input i already.
Emitted run(std::size_t count, unsigned jobs, const std::function<std::string(std::size_t)>& child,
            const std::function<std::optional<Report>(std::size_t)>& parent = {},
            const runner::IsolationLimits& limits = tight(), std::size_t inputs_per_worker = 0) {
  Emitted out;
  runner::InputList given;
  for (std::size_t i = 0; i < count; ++i) {
    given.names.push_back("file" + std::to_string(i));
    given.ready.push_back(parent ? parent(i) : std::nullopt);
  }
  runner::InputSource inputs(given, runner::Shard{}, nullptr, 0, [](const std::string&) {});
  TestJudge judge(child, out);
  runner::CorpusOptions options;
  options.jobs = jobs;
  options.limits = limits;
  options.inputs_per_worker = inputs_per_worker;  // 0: a child forked per input
  CHECK(runner::run_corpus(inputs, judge, options));
  return out;
}

std::vector<std::size_t> iota(std::size_t n) {
  std::vector<std::size_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = i;
  return v;
}

}  // namespace

TEST_CASE("reports come back in input order, though later inputs finish first", "[corpus]") {
  // Input 0 is the slowest: with 3 workers, 1 and 2 finish before it.
  const auto out = run(6, 3, [](std::size_t i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(i == 0 ? 400 : 10));
    return "child " + std::to_string(i);
  });
  CHECK(out.order == iota(6));
  for (std::size_t i = 0; i < 6; ++i) {
    CHECK(out.reports[i].input == "file" + std::to_string(i));
    CHECK(out.reports[i].verdict() == Verdict::verified);
  }
}

TEST_CASE("with long-lived workers too, reports come back in input order", "[corpus]") {
  const auto out = run(
      6, 3,
      [](std::size_t i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(i == 0 ? 400 : 10));
        return "worker " + std::to_string(i);
      },
      [](std::size_t i) -> std::optional<Report> {
        if (i == 4) return named(i, "parent");
        return std::nullopt;
      },
      tight(), 2);
  CHECK(out.order == iota(6));
  for (std::size_t i = 0; i < 6; ++i) {
    CHECK(out.reports[i].input == "file" + std::to_string(i));
    CHECK(out.reports[i].checks().front().detail == (i == 4 ? "parent" : "worker " + std::to_string(i)));
  }
}

TEST_CASE("a crash is that file's error, a hang its stop by the budget (unverifiable); the others are checked", "[corpus]") {
  const auto out = run(6, 2, [](std::size_t i) -> std::string {
    if (i == 1) std::raise(SIGSEGV);
    if (i == 3) {
      for (;;) std::this_thread::sleep_for(1s);
    }
    return "fine";
  });
  REQUIRE(out.order == iota(6));
  for (const std::size_t i : {0u, 2u, 4u, 5u}) CHECK(out.reports[i].verdict() == Verdict::verified);
  REQUIRE(out.reports[1].error);
  CHECK(out.reports[1].error->message.find("crashed (signal 11") != std::string::npos);
  REQUIRE(out.reports[3].error);
  CHECK(out.reports[3].error->message.find("wall-clock limit") != std::string::npos);
  CHECK(out.reports[1].verdict() == Verdict::error);
  CHECK(out.reports[3].verdict() == Verdict::unverifiable);  // not judged within its budget: nothing is known of it
  CHECK(out.reports[3].stopped_by_budget());
  for (const std::size_t i : {1u, 3u}) CHECK(out.reports[i].input == "file" + std::to_string(i));
}

TEST_CASE("a runaway loop is stopped by the CPU-time limit: unverifiable, naming it", "[corpus]") {
  // A generous wall clock: on a loaded machine the CPU limit must still be
  // what stops the loop, whatever share of a core the child gets.
  runner::IsolationLimits limits = tight();
  limits.wall_seconds = 120;
  const auto out = run(
      3, 2,
      [](std::size_t i) -> std::string {
        if (i == 1) {
          volatile unsigned long spin = 0;
          for (;;) spin = spin + 1;
        }
        return "fine";
      },
      {}, limits);
  REQUIRE(out.order == iota(3));
  CHECK(out.reports[0].verdict() == Verdict::verified);
  CHECK(out.reports[2].verdict() == Verdict::verified);
  REQUIRE(out.reports[1].error);
  CHECK(out.reports[1].error->message.find("CPU-time limit") != std::string::npos);
  CHECK(out.reports[1].verdict() == Verdict::unverifiable);
}

TEST_CASE("answers the parent already has are used without a child", "[corpus]") {
  const pid_t parent = ::getpid();
  const auto out = run(
      4, 2,
      [](std::size_t) { return "child " + std::to_string(::getpid()); },
      [parent](std::size_t i) -> std::optional<Report> {
        if (i % 2 == 1) return named(i, "parent " + std::to_string(parent));
        return std::nullopt;
      });
  REQUIRE(out.order == iota(4));
  CHECK(out.reports[1].checks().front().detail == "parent " + std::to_string(parent));
  CHECK(out.reports[3].checks().front().detail == "parent " + std::to_string(parent));
  CHECK(out.reports[0].checks().front().detail != "child " + std::to_string(parent));
  CHECK(out.reports[0].checks().front().detail.starts_with("child "));
}

TEST_CASE("never more children at once than jobs", "[corpus]") {
  // Each child counts itself in while it runs and records the most it saw.
  // (A counter in memory shared with the children: a sandboxed child may not
  // create files, base/sandbox.hpp.)
  void* shared = ::mmap(nullptr, sizeof(std::atomic<int>), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  REQUIRE(shared != MAP_FAILED);
  auto* running = new (shared) std::atomic<int>(0);
  const auto out = run(8, 2, [running](std::size_t) {
    const int now = ++*running;
    std::this_thread::sleep_for(100ms);
    const int seen = std::max(now, running->load());
    --*running;
    return std::to_string(seen);
  });
  ::munmap(shared, sizeof(std::atomic<int>));
  REQUIRE(out.order == iota(8));
  for (const auto& r : out.reports) {
    REQUIRE_FALSE(r.checks().empty());
    CHECK(std::stoul(r.checks().front().detail) <= 2);
  }
}

TEST_CASE("no inputs: nothing emitted, no child", "[corpus]") {
  const auto out = run(0, 4, [](std::size_t) { return std::string("never"); });
  CHECK(out.order.empty());
}

TEST_CASE("a child that closes its report pipe and hangs is still stopped at the deadline", "[corpus]") {
  const auto out = run(2, 2, [](std::size_t i) -> std::string {
    if (i == 0) {
      for (int fd = 3; fd < 64; ++fd) ::close(fd);  // the report pipe among them
      for (;;) std::this_thread::sleep_for(1s);
    }
    return "fine";
  });
  REQUIRE(out.order == iota(2));
  REQUIRE(out.reports[0].error);
  CHECK(out.reports[0].error->message.find("wall-clock limit") != std::string::npos);
  CHECK(out.reports[1].verdict() == Verdict::verified);
}
