// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The parts of a child process's life for work on hostile input, under
// CPU-time, memory and wall-clock limits: a crash, a hang or a blow-up in a
// parser (PoDoFo 0.9.x has a long CVE list and no fuzzing) becomes an Error
// of the caller, never a crash or a hang of the tool. The child sends back
// bytes (the caller chooses their format); the parent keeps every write to
// the user's files. Every child is forked by runner/ (runner/isolation.hpp:
// one piece of work; runner/child_scheduler.hpp: many, or long-lived
// workers), on these parts: its confinement, its envelope, the wording of
// why it gave no answer, the one poll loop and the one kill and reap.
//
// fork() without exec: fork from a single-threaded process.
#include "pith/base/error.hpp"

#include <chrono>
#include <poll.h>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <vector>

namespace pith {

struct ChildLimits {
  std::uint32_t cpu_seconds = 30;                        // RLIMIT_CPU (SIGXCPU)
  std::uint64_t memory_bytes = std::uint64_t{3} << 30;  // RLIMIT_AS: a mapped file counts too
  std::uint32_t wall_seconds = 60;                       // then SIGKILL
  std::size_t max_output_bytes = std::size_t{64} << 20;  // what the child may send back
  // One more descriptor the child keeps open (every other is closed): the
  // file it reads, which it maps itself (pith-stamp: base/mapped_file.hpp).
  int keep_descriptor = -1;
  // The options that raise the memory and the time limits, named when a
  // child is stopped by one ("--child-memory MiB"; empty: none named).
  std::string memory_option;
  std::string time_option;
  // memory_bytes counted above the address space the child has when it is
  // confined (what fork copied: the libraries, the parent's heap), so that
  // it is what the parser may take, the same in every tool: the budget of
  // runner/child_budget.hpp. Otherwise (false) it is the whole address space.
  bool memory_above_start = false;
  // What the child maps of its input, allowed beside memory_bytes (which
  // messages name as the limit).
  std::uint64_t mapped_bytes = 0;
};

// In the child, before touching the input: stdout/stderr to /dev/null,
// default crash signals, RLIMIT_CPU/AS/CORE from `limits`, then the sandbox
// keeping only `keep_fd`. An Error: the child must not go on.
// `cpu_limit_per_request`: the hard RLIMIT_CPU stays open, for a worker
// (runner/child_scheduler.hpp) that sets its soft limit before each request.
[[nodiscard]] Result<void> confine_child(int keep_fd, const ChildLimits& limits, bool cpu_limit_per_request = false);
// In the child: runs `work` and returns the tagged payload to send back
// (child_result_tag + result, or child_error_tag + why: an exception, memory).
[[nodiscard]] std::string child_work_payload(const std::string& subject, const std::function<std::string()>& work,
                                             const ChildLimits& limits);
// In the parent, from a waitpid status: why the child ended abnormally
// ("the check crashed (signal 11 (Segmentation fault))"), or nullopt for exit 0.
[[nodiscard]] std::optional<std::string> describe_child_end(const std::string& subject, int status,
                                                            const ChildLimits& limits);
// In the parent: the one kill and reap of a child. Waits for `pid` to end,
// killing it (SIGKILL) once `until` has passed (time_point::min(): at once);
// `killed` says whether it was.
struct ChildEnd {
  int status = 0;  // the wait status
  bool killed = false;
};
[[nodiscard]] ChildEnd reap_child(pid_t pid, std::chrono::steady_clock::time_point until);
[[nodiscard]] std::string describe_wall_clock_stop(const std::string& subject, const ChildLimits& limits);
[[nodiscard]] std::string describe_memory_stop(const std::string& subject, const ChildLimits& limits);
[[nodiscard]] std::string describe_too_large(const std::string& subject, const ChildLimits& limits);
// What a child sent (a tag byte, then the result or the reason there is none):
// the result, or an Error (kind malformed) with the reason.
[[nodiscard]] Result<std::string> child_payload(const std::string& subject, std::string payload);
inline constexpr char child_result_tag = 'R';
inline constexpr char child_error_tag = 'E';
inline constexpr char child_limit_tag = 'L';  // why: past the budget (memory): an Error of kind limit

// A child at work as the poll loop sees it: what to wait for, and until when.
struct ChildWatch {
  int fd = -1;  // -1: nothing to read or write now (its deadline still counts)
  short events = POLLIN;
  std::chrono::steady_clock::time_point deadline{};
};

struct ChildEvents {
  std::vector<short> revents;  // one per watch, in order: 0 when nothing happened (or the wait was interrupted)
  bool also_readable = false;
  std::chrono::steady_clock::time_point now{};  // after the wait: compare the deadlines with it
};

// The one poll loop with deadlines, for every runner of children
// (runner/child_scheduler.hpp: ChildScheduler::wait): waits until a watched
// descriptor or `also` (a descriptor of the caller's; -1: none) is ready, or
// the nearest deadline passes. With no watch it waits for `also` alone, and
// returns at once without one. What happened to each child (read it, finish
// it, kill it past its deadline) is the caller's.
[[nodiscard]] ChildEvents poll_children(const std::vector<ChildWatch>& watches, int also = -1);

}  // namespace pith
