// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How a fuzz target says that the code under test broke one of its promises
// (a round trip, a bound): a line naming the target and the promise on
// stderr, then abort(), which libFuzzer reports as a crash and saves the
// input for. The target's name is the program's (xmp_fuzz, ...).
#include <cerrno>
#include <cstdio>
#include <cstdlib>

namespace pith::fuzz {

[[noreturn]] inline void broken_promise(const char* promise) {
  std::fprintf(stderr, "%s: broken promise: %s\n", program_invocation_short_name, promise);
  std::abort();
}

}  // namespace pith::fuzz
