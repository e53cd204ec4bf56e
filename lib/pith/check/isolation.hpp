// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Checking hostile input in a child process. PDFs are parsed with PoDoFo,
// whose 0.9.x parsers have a long CVE list and no fuzzing: pith-check runs
// each PDF check in a forked child with CPU-time, memory and wall-clock
// limits, so a crash, a hang or a limit becomes that file's verdict `error`
// with the reason, never a crash or a hang of pith-check. The child runner
// itself is base/child_process.hpp (pith-stamp uses it too); this is the
// FileCheck on top of it: the child reads, the parent judges, errors as verdicts.
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

// One check running in a child process, for callers that watch several at
// once (pith-check -j N polls their descriptors): start, read until complete
// or the deadline, finish. The child's stdout and stderr go to /dev/null
// (libraries such as Exempi print parse errors), and crash signals get their
// default action in it.
class IsolatedChild {
 public:
  // Forks a child that only reads: `work` returns what to send back (a PDF's
  // facts, pdf_facts.hpp), and `judge` makes the FileCheck of it in this
  // process (given the child's failure instead when it crashed or hit a
  // limit, or could not be forked). Nothing the child sends is a verdict.
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
  // deadline or sent too much) and judges what it sent, or the crash or the
  // limit that stopped it.
  [[nodiscard]] FileCheck finish();

 private:
  IsolatedChild(ChildProcess child, Judge judge) : child_(std::move(child)), judge_(std::move(judge)) {}

  ChildProcess child_;
  Judge judge_;
};

// The lossless form of a Report sent from pith-serve's broker to its HTTP
// side (Report::to_json is for people and drops what the verdict is computed
// from).
[[nodiscard]] nlohmann::json report_to_wire(const Report& report);
[[nodiscard]] Result<Report> report_from_wire(const nlohmann::json& wire);
// The same for a whole FileCheck: the report and the carried copy.
[[nodiscard]] nlohmann::json file_check_to_wire(const FileCheck& checked);
[[nodiscard]] Result<FileCheck> file_check_from_wire(const nlohmann::json& wire);

}  // namespace pith::check
