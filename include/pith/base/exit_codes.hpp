// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The one table of exit codes of pith-check, pith-stamp and pith-serve: the
// codes (stable: never renumber; documented in README.md, docs/report-codes.md,
// docs/resolver.md and each tool's --help), and the mapping to them from
// everything a tool can end with: a verdict on an input, a failure of a kind,
// an outcome with or without a failure. The tools return only what these
// functions give; no tool or job maps on its own. Each mapping is a switch
// with no default: an outcome that is not mapped here does not compile
// (-Wswitch).
#include "pith/base/error.hpp"
#include "pith/base/verdict.hpp"

#include <optional>

namespace pith::exit_code {
inline constexpr int ok = 0;                   // everything verified (or stamped)
inline constexpr int verification_failed = 1;  // a check failed: never 0 then
inline constexpr int usage_or_io = 2;          // bad usage, unreadable input, write failure
inline constexpr int not_found = 3;            // no Pith Number in the input
inline constexpr int unverifiable = 4;         // nothing trusted to verify with
inline constexpr int altered = 5;              // genuine record, page 1 binds, content changed since stamping
// pith-check stopped by SIGINT, SIGTERM or SIGHUP after writing its partial
// report (docs/corpus.md): 128 + the signal, as a shell reports a process
// the signal ended (130, 143, 129). It overrides the verdicts' codes.
[[nodiscard]] constexpr int interrupted_by(int signal) { return 128 + signal; }

// With many inputs the worst wins: 1 > 5 > 2 > 4 > 3 > 0. An altered paper
// is a finding about the file, like a failure, so it outranks an input that
// could not be read.
[[nodiscard]] constexpr int severity(int code) {
  switch (code) {
    case verification_failed: return 5;
    case altered: return 4;
    case usage_or_io: return 3;
    case unverifiable: return 2;
    case not_found: return 1;
    default: return 0;
  }
}
[[nodiscard]] constexpr int worst(int a, int b) { return severity(a) >= severity(b) ? a : b; }
}  // namespace pith::exit_code

namespace pith {

// What went wrong (an Error's kind) → its exit code.
[[nodiscard]] constexpr int exit_code_for(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::rejected:
    case ErrorKind::conflict: return exit_code::verification_failed;
    case ErrorKind::usage:
    case ErrorKind::malformed:
    case ErrorKind::io:
    case ErrorKind::network:
    case ErrorKind::not_served:
    case ErrorKind::limit:  // a tool that stops because a child passed its budget (pith-check's verdict is unverifiable)
    case ErrorKind::crashed:  // as a malformed input: the input's doing, or a bug, either way not judged
    case ErrorKind::internal: return exit_code::usage_or_io;
    case ErrorKind::not_found: return exit_code::not_found;
    case ErrorKind::unverifiable: return exit_code::unverifiable;
  }
  return exit_code::usage_or_io;  // not reached: the switch covers every kind
}

[[nodiscard]] constexpr int exit_code_for(const Error& error) { return exit_code_for(error.kind); }

// A job's outcome: no failure is success, else the failure's kind decides.
[[nodiscard]] constexpr int exit_code_for(const std::optional<ErrorKind>& failure) {
  return failure ? exit_code_for(*failure) : exit_code::ok;
}

// The verdict on one input (a report's, report.hpp) → its exit code.
[[nodiscard]] constexpr int exit_code_for(Verdict verdict) {
  switch (verdict) {
    case Verdict::verified: return exit_code::ok;
    case Verdict::failed: return exit_code::verification_failed;
    case Verdict::altered: return exit_code::altered;
    case Verdict::error: return exit_code::usage_or_io;
    case Verdict::unverifiable:
    case Verdict::unbound: return exit_code::unverifiable;
    case Verdict::not_found: return exit_code::not_found;
  }
  return exit_code::verification_failed;  // not reached: the switch covers every verdict
}

}  // namespace pith
