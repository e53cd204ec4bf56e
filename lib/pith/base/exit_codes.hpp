// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Exit codes of pith-check and pith-stamp. Stable: never renumber.
// Documented in README.md and in each tool's --help.
#include "pith/base/error.hpp"

namespace pith::exit_code {
inline constexpr int ok = 0;                   // everything verified (or stamped)
inline constexpr int verification_failed = 1;  // a check failed: never 0 then
inline constexpr int usage_or_io = 2;          // bad usage, unreadable input, write failure
inline constexpr int not_found = 3;            // no Pith Number in the input
inline constexpr int unverifiable = 4;         // nothing trusted to verify with

// With many inputs the worst wins: 1 > 2 > 4 > 3 > 0.
[[nodiscard]] constexpr int severity(int code) {
  switch (code) {
    case verification_failed: return 4;
    case usage_or_io: return 3;
    case unverifiable: return 2;
    case not_found: return 1;
    default: return 0;
  }
}
[[nodiscard]] constexpr int worst(int a, int b) { return severity(a) >= severity(b) ? a : b; }
}  // namespace pith::exit_code

namespace pith {

// The one mapping from what went wrong to the documented exit code. No
// default: a new ErrorKind that is not mapped here does not compile (-Wswitch).
[[nodiscard]] constexpr int exit_code_for(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::rejected:
    case ErrorKind::conflict: return exit_code::verification_failed;
    case ErrorKind::usage:
    case ErrorKind::malformed:
    case ErrorKind::io:
    case ErrorKind::network:
    case ErrorKind::not_served:
    case ErrorKind::internal: return exit_code::usage_or_io;
    case ErrorKind::not_found: return exit_code::not_found;
    case ErrorKind::unverifiable: return exit_code::unverifiable;
  }
  return exit_code::usage_or_io;  // not reached: the switch covers every kind
}

}  // namespace pith
