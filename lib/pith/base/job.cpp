// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/base/job.hpp"

#include "pith/base/command_line.hpp"
#include "pith/base/exit_codes.hpp"
#include "pith/base/terminal_text.hpp"

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <iostream>
#include <string>

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

void Job::run_process(int argc, char** argv) {
  int code = main(argc, argv);
  errno = 0;  // before the first flush: its failure's reason is the one to name
  std::cout.flush();
  const bool written = std::cout.good() && std::fflush(stdout) == 0 && std::ferror(stdout) == 0;
  if (!written) {
    const int reason = errno;
    // The reason is known when this last flush failed; a write that failed
    // earlier, while the job ran, left only the stream's error flag.
    std::cerr << tool_ << ": cannot write standard output" << (reason != 0 ? std::string(" (") + std::strerror(reason) + ")" : "")
              << ": what it printed is incomplete\n";
    code = exit_code::usage_or_io;
  }
  std::cerr.flush();
  std::fflush(stderr);
  std::_Exit(code);
}

}  // namespace pith
