// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The catch-all around each tool's main: anything unexpected (an exception
// from a library, a bug) is one line naming the tool and exit 2, never an
// abort with a core dump.
#include "pith/base/exit_codes.hpp"
#include "pith/base/terminal_text.hpp"

#include <exception>
#include <iostream>

namespace pith::cli {

template <class Command>
int run_guarded(const char* tool, Command&& command) {
  try {
    return command();
  } catch (const std::exception& e) {
    std::cerr << tool << ": internal error: " << terminal_safe(e.what()) << "\n";
  } catch (...) {
    std::cerr << tool << ": internal error: unknown exception\n";
  }
  return exit_code_for(ErrorKind::internal);
}

}  // namespace pith::cli
