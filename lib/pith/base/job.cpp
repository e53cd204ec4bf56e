// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/base/job.hpp"

#include "pith/base/command_line.hpp"
#include "pith/base/exit_codes.hpp"
#include "pith/base/terminal_text.hpp"

#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>

namespace pith {

void Job::warn(const std::string& text) const { std::cerr << tool_ << ": warning: " << terminal_safe(text) << "\n"; }

std::unexpected<Error> Job::usage_with_help(std::string message) {
  point_at_help_ = true;
  return fail(ErrorKind::usage, "", std::move(message));
}

int Job::main(int argc, char** argv) {
  // The one catch-all: anything unexpected (an exception from a library, a
  // bug) is one line naming the tool and exit 2, never an abort with a core dump.
  try {
    CLI::App app;
    app.name(tool_);
    cli::add_common_options(app, tool_.c_str());  // --version, and the options listing for completions
    declare(app);
    if (const auto done = cli::parse_or_exit_code(app, argc, argv)) return *done;
    const Result<int> ran = run();
    if (ran) return *ran;
    std::cerr << tool_ << ": " << terminal_safe(ran.error().describe()) << "\n";
    if (point_at_help_) std::cerr << "Run with --help for more information.\n";
    return exit_code_for(ran.error().kind);
  } catch (const std::exception& e) {
    std::cerr << tool_ << ": internal error: " << terminal_safe(e.what()) << "\n";
  } catch (...) {
    std::cerr << tool_ << ": internal error: unknown exception\n";
  }
  return exit_code::usage_or_io;
}

}  // namespace pith
