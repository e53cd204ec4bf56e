// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Checking hostile input in a child process. PDFs are parsed with PoDoFo,
// whose 0.9.x parsers have a long CVE list and no fuzzing: pith-check runs
// each PDF check in a forked child with CPU-time, memory and wall-clock
// limits, so a crash, a hang or a limit becomes that file's verdict `error`
// with the reason, never a crash or a hang of pith-check. The child runner
// itself is base/child_process.hpp (pith-stamp uses it too); this is the
// FileCheck on top of it: the report sent over the pipe, errors as verdicts.
//
// fork() without exec: call this from a single-threaded process (pith-check
// is; parallel workers should be processes, not threads).
#include "pith/base/child_process.hpp"
#include "pith/base/error.hpp"
#include "pith/base/report.hpp"
#include "pith/check/carried.hpp"

#include <chrono>
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <sys/types.h>

namespace pith::check {

struct IsolationLimits {
  std::uint32_t cpu_seconds = 30;                        // RLIMIT_CPU (SIGXCPU)
  std::uint64_t memory_bytes = std::uint64_t{3} << 30;  // RLIMIT_AS: the mapped file counts too
  std::uint32_t wall_seconds = 60;                       // then SIGKILL
  std::size_t max_report_bytes = std::size_t{64} << 20;  // what the child may send back

  [[nodiscard]] ChildLimits child_limits() const { return {cpu_seconds, memory_bytes, wall_seconds, max_report_bytes}; }
};

// Runs `check` in a child process under `limits` and returns its result. A
// child that crashes, exceeds a limit or sends no complete report gives a
// report for `input_name` with `error` set to the reason. The child's stdout
// and stderr go to /dev/null (libraries such as Exempi print parse errors),
// and crash signals get their default action in it.
[[nodiscard]] FileCheck run_isolated(std::string_view input_name, const std::function<FileCheck()>& check,
                                     const IsolationLimits& limits = {});

// One check running in a child process, for callers that watch several at
// once (pith-check -j N polls their descriptors). run_isolated is start,
// read until complete or the deadline, finish.
class IsolatedChild {
 public:
  // Forks the child. A failure to fork or to make the pipe is not an
  // exception: the child is then already finished with an error report.
  [[nodiscard]] static IsolatedChild start(std::string input_name, const std::function<FileCheck()>& check,
                                           const IsolationLimits& limits = {});
  // A child that only reads: `work` returns what to send back (a PDF's facts,
  // pdf_facts.hpp), and `judge` makes the FileCheck of it in this process
  // (given the child's failure instead when it crashed or hit a limit).
  using Judge = std::function<FileCheck(const Result<std::string>& sent)>;
  [[nodiscard]] static IsolatedChild start_judged(std::string input_name, const std::function<std::string()>& work,
                                                  Judge judge, const IsolationLimits& limits = {});
  // Moving keeps the child; destroying kills and reaps a child still running.

  // The read end of the child's report pipe; -1 once nothing more is read.
  [[nodiscard]] int fd() const { return child_.fd(); }
  [[nodiscard]] std::chrono::steady_clock::time_point deadline() const { return child_.deadline(); }
  // Reads what the child has written (call when fd() is readable). True
  // once there is nothing more to read: end of file, or a report too large.
  bool read_available() { return child_.read_available(); }
  // Waits for the child (killing it first if it is still running past its
  // deadline or sent too much) and judges its exit: the child's report, or an
  // error report naming the crash or the limit.
  [[nodiscard]] FileCheck finish();

 private:
  IsolatedChild(std::string input_name, ChildProcess child, Judge judge = {})
      : input_name_(std::move(input_name)), child_(std::move(child)), judge_(std::move(judge)) {}

  std::string input_name_;
  ChildProcess child_;
  Judge judge_;  // empty: the child sends a FileCheck
};

// The two ends of the child's pipe, for every runner of checks in children
// (IsolatedChild, the worker pool of check_corpus): what the child sends for
// its FileCheck, and what the parent makes of what arrived (or of why
// nothing did: the crash or limit becomes the report's `error`).
[[nodiscard]] std::string file_check_wire_text(const FileCheck& checked);
[[nodiscard]] FileCheck file_check_from_child(std::string_view input_name, Result<std::string> sent);

// The lossless form of a Report sent from the child (Report::to_json is for
// people and drops what the verdict is computed from).
[[nodiscard]] nlohmann::json report_to_wire(const Report& report);
[[nodiscard]] Result<Report> report_from_wire(const nlohmann::json& wire);
// The same for a whole FileCheck: the report and the carried copy.
[[nodiscard]] nlohmann::json file_check_to_wire(const FileCheck& checked);
[[nodiscard]] Result<FileCheck> file_check_from_wire(const nlohmann::json& wire);

}  // namespace pith::check
