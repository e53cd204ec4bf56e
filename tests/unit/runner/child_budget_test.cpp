// SPDX-License-Identifier: GPL-3.0-or-later
// The one budget of every child (runner/child_budget.hpp): what the work
// may take beside what the child had when forked and the file it maps, and a
// stop that names the budget and the option raising it.
#include "pith/base/child_process.hpp"
#include "pith/runner/child_budget.hpp"
#include "pith/runner/isolation.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

using namespace pith;

namespace {

// Allocates and touches `mib` MiB, then answers "done".
std::string take_mib(std::size_t mib) {
  std::vector<std::vector<char>> held;
  for (std::size_t i = 0; i < mib; ++i) held.emplace_back(std::size_t{1} << 20, 'x');
  return "done";
}

}  // namespace

TEST_CASE("a child within its budget runs, whatever the parent holds") {
  // The parent's own heap is copied into the child's address space by fork:
  // counted above it, the budget is the same in a big tool as in a small one.
  std::vector<char> parent_heap(std::size_t{256} << 20, 'p');
  runner::ChildBudget budget;
  budget.memory_mib = 64;
  auto sent = runner::run_isolated("the work", [] { return take_mib(16); }, budget.limits());
  REQUIRE(sent);
  CHECK(*sent == "done");
  CHECK(parent_heap.back() == 'p');
}

TEST_CASE("a child past its memory budget is stopped with the budget and the option") {
  runner::ChildBudget budget;
  budget.memory_mib = 32;
  auto sent = runner::run_isolated("the work", [] { return take_mib(256); }, budget.limits(std::uint64_t{8} << 20));
  REQUIRE_FALSE(sent);
  CHECK_THAT(sent.error().message, Catch::Contains("exceeded the memory limit of 32 MiB") &&
                                       Catch::Contains("raise it with --child-memory MiB"));
}

TEST_CASE("a child past its time budget is stopped with the option") {
  runner::ChildBudget budget;
  budget.wall_seconds = 1;
  budget.time_option = "--child-time SECONDS";
  auto sent = runner::run_isolated("the work", [] { for (;;) std::this_thread::sleep_for(std::chrono::seconds(1)); return std::string(); }, budget.limits());
  REQUIRE_FALSE(sent);
  CHECK_THAT(sent.error().message, Catch::Contains("wall-clock limit; raise it with --child-time SECONDS"));
}

TEST_CASE("the default budget is 512 MiB beside the mapped file") {
  const ChildLimits limits = runner::ChildBudget{}.limits(std::uint64_t{40} << 20);
  CHECK(limits.memory_bytes == std::uint64_t{512} << 20);
  CHECK(limits.mapped_bytes == std::uint64_t{40} << 20);
  CHECK(limits.memory_above_start);
}
