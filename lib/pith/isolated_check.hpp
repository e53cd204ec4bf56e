#pragma once
// Checking hostile input in a child process. PDFs are parsed with PoDoFo,
// whose 0.9.x parsers have a long CVE list and no fuzzing: pith-check runs
// each PDF check in a forked child with CPU-time, memory and wall-clock
// limits, so a crash, a hang or a limit becomes that file's verdict `error`
// with the reason, never a crash or a hang of pith-check.
//
// fork() without exec: call this from a single-threaded process (pith-check
// is; parallel workers should be processes, not threads).
#include "pith/error.hpp"
#include "pith/report.hpp"

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string_view>

namespace pith {

struct IsolationLimits {
  std::uint32_t cpu_seconds = 30;                        // RLIMIT_CPU (SIGXCPU)
  std::uint64_t memory_bytes = std::uint64_t{3} << 30;  // RLIMIT_AS: the mapped file counts too
  std::uint32_t wall_seconds = 60;                       // then SIGKILL
  std::size_t max_report_bytes = std::size_t{64} << 20;  // what the child may send back
};

// Runs `check` in a child process under `limits` and returns its report. A
// child that crashes, exceeds a limit or sends no complete report gives a
// report for `input_name` with `error` set to the reason. The child's stdout
// and stderr go to /dev/null (libraries such as Exempi print parse errors),
// and crash signals get their default action in it.
[[nodiscard]] Report run_isolated(std::string_view input_name, const std::function<Report()>& check,
                                  const IsolationLimits& limits = {});

// The lossless form of a Report sent from the child (Report::to_json is for
// people and drops what the verdict is computed from).
[[nodiscard]] nlohmann::json report_to_wire(const Report& report);
[[nodiscard]] Result<Report> report_from_wire(const nlohmann::json& wire);

}  // namespace pith
