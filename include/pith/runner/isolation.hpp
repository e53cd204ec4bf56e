// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Reading hostile input in a child process. PDFs are parsed with PoDoFo,
// whose 0.9.x parsers have a long CVE list and no fuzzing: every input is
// read in a forked child with CPU-time, memory and wall-clock limits and the
// seccomp sandbox (base/child_process.hpp, base/sandbox.hpp), so a crash, a
// hang or a limit becomes an Error naming the reason (the caller makes it
// that input's verdict `error`), never a crash or a hang of the tool. The
// child only reads and sends bytes back; the parent judges them
// (check/file.hpp: judge_pdf_facts): nothing a child sends is a verdict. Many children
// at once: child_scheduler.hpp (a fork each, or long-lived workers).
//
// fork() without exec: call this from a single-threaded process (pith-check
// is; pith-serve forks its broker before any thread exists).
#include "pith/base/child_process.hpp"
#include "pith/base/error.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace pith::runner {

struct IsolationLimits {
  std::uint32_t cpu_seconds = 30;                        // RLIMIT_CPU (SIGXCPU)
  std::uint64_t memory_bytes = std::uint64_t{3} << 30;  // RLIMIT_AS: the mapped file counts too
  std::uint32_t wall_seconds = 60;                       // then SIGKILL
  std::size_t max_report_bytes = std::size_t{64} << 20;  // what the child may send back
  std::string memory_option;  // the options that raise the limits, named when a child is stopped (child_budget.hpp)
  std::string time_option;

  [[nodiscard]] ChildLimits child_limits() const {
    ChildLimits l;
    l.cpu_seconds = cpu_seconds;
    l.memory_bytes = memory_bytes;
    l.wall_seconds = wall_seconds;
    l.max_output_bytes = max_report_bytes;
    l.memory_option = memory_option;
    l.time_option = time_option;
    return l;
  }
};

// What the child's work is called in messages ("the check crashed (signal 11 …)").
inline constexpr const char* isolated_subject = "the check";

// Runs `read` in a child process under `limits` and returns what it sent
// back, or why nothing came: an Error of kind malformed naming the crash or
// the limit, or of kind io when no child could be started. The child's
// stdout and stderr go to /dev/null (libraries such as Exempi print parse
// errors), and crash signals get their default action in it.
[[nodiscard]] Result<std::string> run_isolated(const std::function<std::string()>& read,
                                               const IsolationLimits& limits = {});

// The same for any one piece of hostile work (the crop a person looks at,
// OCR of the title's lines, pith-stamp --remove's read): `subject` names it
// in messages ("rendering page 1 crashed (…)"), `limits` as given (a budget's:
// child_budget.hpp, with the descriptor the child keeps and the options named).
[[nodiscard]] Result<std::string> run_isolated(std::string subject, const std::function<std::string()>& work,
                                               const ChildLimits& limits);

}  // namespace pith::runner
