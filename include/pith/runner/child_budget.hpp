// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The one budget of the children pith-check, pith-stamp and pith-serve fork
// to read a hostile file (base/child_process.hpp): address space, CPU time
// and wall-clock time, and the option that raises each, so a child past its
// budget is stopped with one line naming the budget and the option, never
// a crash of the tool. The address-space limit (RLIMIT_AS) also counts what
// the child maps of the file and what it had when forked (the libraries):
// the budget is what the parser may use beside those, whatever the file's
// size and the tool's.
#include "pith/base/child_process.hpp"

#include <cstdint>
#include <string>
#include <utility>

namespace pith::runner {

inline constexpr std::uint64_t default_child_memory_mib = 512;
// Drawing page 1 for a person to look at (pdf/evidence.hpp: pith-check
// --evidence, pith-serve's page) or for OCR to read its title's lines
// (pdf/drawn_letters.hpp): poppler decodes the page's images whole, so these
// children may take 1 GiB beside the file, whatever the parsers' budget.
inline constexpr std::uint64_t render_child_memory_mib = 1024;

struct ChildBudget {
  std::uint64_t memory_mib = default_child_memory_mib;  // beside the mapped file
  std::uint32_t cpu_seconds = 30;
  std::uint32_t wall_seconds = 60;
  std::string memory_option = "--child-memory MiB";  // named in messages: how to raise it
  std::string time_option = "--child-time SECONDS";

  // The limits of a child that maps `mapped_bytes` of its input.
  [[nodiscard]] ChildLimits limits(std::uint64_t mapped_bytes = 0) const {
    ChildLimits l;
    l.cpu_seconds = cpu_seconds;
    l.memory_bytes = memory_mib << 20;
    l.mapped_bytes = mapped_bytes;
    l.wall_seconds = wall_seconds;
    l.memory_option = memory_option;
    l.time_option = time_option;
    l.memory_above_start = true;
    return l;
  }
};

// The budget of a child that draws page 1 (render_child_memory_mib; the
// time the same as a parser's), naming `memory_option` and `time_option`
// when it is stopped: the options of the tool that raise it (none: empty).
[[nodiscard]] inline ChildBudget rendering_budget(std::string memory_option = {}, std::string time_option = {}) {
  ChildBudget budget;
  budget.memory_mib = render_child_memory_mib;
  budget.memory_option = std::move(memory_option);
  budget.time_option = std::move(time_option);
  return budget;
}

}  // namespace pith::runner
