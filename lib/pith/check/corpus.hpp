// SPDX-License-Identifier: GPL-3.0-or-later
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
#include <string_view>

namespace pith::check {

inline constexpr unsigned max_corpus_jobs = 256;

struct CorpusOptions {
  unsigned jobs = 1;  // children at a time, 1..max_corpus_jobs
  IsolationLimits limits;
  // With CorpusTasks::request, read_request and judge_in_parent: `jobs` long-lived workers
  // (base/worker_pool.hpp), each replaced after this many inputs or a crash,
  // instead of a fork per input. 0: a fork per input (pith-check --workers=fork).
  std::size_t inputs_per_worker = 500;
};

// Input `i` of `count`: `in_parent(i)` may answer directly (e.g. a number
// already resolved from the registry); otherwise `read_in_child(i)` runs in a
// child process, which only reads, and `judge_in_parent(i, sent)` makes the
// FileCheck of what it sent here (check/file.hpp: read_input_in_child,
// judge_input_from_child). `emit(i, checked)` is called exactly once per
// input, in input order, as soon as every earlier input has been emitted.
struct CorpusTasks {
  std::size_t count = 0;
  // Inputs that arrive as the run goes (members streamed from a tar): when
  // set, input i exists iff has(i), asked in increasing i; `count` is unused.
  std::function<bool(std::size_t)> has;
  std::function<std::string(std::size_t)> read_in_child;
  std::function<FileCheck(std::size_t, const Result<std::string>&)> judge_in_parent;
  std::function<std::optional<FileCheck>(std::size_t)> in_parent;  // may be empty
  std::function<std::string(std::size_t)> name;                    // for error reports
  std::function<void(std::size_t, FileCheck)> emit;
  // The worker pool's two ends: input i as bytes the parent sends (its path,
  // or its content), and the reading of such a request in a worker, judged by
  // judge_in_parent. All three set: inputs are checked by the pool; else each
  // in a child forked for it.
  std::function<std::string(std::size_t)> request;
  std::function<std::string(std::string_view)> read_request;
  // Wall-clock seconds input i took in its child (may be empty), before emit.
  std::function<void(std::size_t, double)> took;
};

void check_corpus(const CorpusTasks& tasks, const CorpusOptions& options);

}  // namespace pith::check
