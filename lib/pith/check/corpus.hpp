#pragma once
// Checking many files at once (pith-check -j N): every file is checked in its
// own child process under IsolationLimits (isolated_check.hpp), at most
// `jobs` children at a time, so one slow, crashing or hostile file never
// stops the others. The parent stays single-threaded (children are forked,
// never threads) and hands the reports back in input order, so the output of
// a run does not depend on which child finished first.
#include "pith/check/isolation.hpp"
#include "pith/check/carried.hpp"

#include <cstddef>
#include <functional>
#include <optional>

namespace pith::check {

inline constexpr unsigned max_corpus_jobs = 256;

struct CorpusOptions {
  unsigned jobs = 1;  // children at a time, 1..max_corpus_jobs
  IsolationLimits limits;
};

// Input `i` of `count`: `in_parent(i)` may answer directly (e.g. a number
// already resolved from the registry); otherwise `check_in_child(i)` runs in a
// child process. `emit(i, checked)` is called exactly once per input, in
// input order, as soon as every earlier input has been emitted.
struct CorpusTasks {
  std::size_t count = 0;
  std::function<FileCheck(std::size_t)> check_in_child;
  // Instead of check_in_child, when set: the child only reads (`read_in_child`
  // returns what it sends back) and `judge_in_parent` makes the FileCheck of
  // that here (check/file.hpp: read_file_in_child, judge_file_from_child).
  std::function<std::string(std::size_t)> read_in_child;
  std::function<FileCheck(std::size_t, const Result<std::string>&)> judge_in_parent;
  std::function<std::optional<FileCheck>(std::size_t)> in_parent;  // may be empty
  std::function<std::string(std::size_t)> name;                    // for error reports
  std::function<void(std::size_t, FileCheck)> emit;
};

void check_corpus(const CorpusTasks& tasks, const CorpusOptions& options);

}  // namespace pith::check
