// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One run of a tool as a library object, as qpdf's QPDFJob: the job owns its
// command line. Its options are declared once, in the job (declare()); CLI11
// parses argv from that declaration, and --help, --version and the hidden
// --list-options (from which the build makes the shell completions, with
// help2man the man page: cmake/PithToolDocs.cmake) read the same one. The
// wiring from options to library calls is the job's (run()), and so is what
// it prints. A tool's main is
//
//   int main(int argc, char** argv) { pith::stamp::StampJob job; job.run_process(argc, argv); }
//
// One exit path: run() ends with the exit code of what it judged
// (exit_codes.hpp), or with the Error that stopped it, printed as one line
// "TOOL: where: message" and mapped by exit_code_for(kind). A usage error
// of CLI11's own is its message and exit 2; anything unexpected (an
// exception, a bug) is one line "TOOL: internal error: ..." and exit 2.
#include "pith/base/error.hpp"
#include "pith/base/exit_codes.hpp"

#include <optional>
#include <string>

namespace CLI {
class App;  // CLI11's parser: only the jobs' sources include CLI11
}

namespace pith {

// How a job's run ended, what every job's outcome shares (stamp::StampRunOutcome,
// stamp::ArxivOutcome derive from it): a status of the job's own, the kind of
// failure that gives the exit code (none: 0), one sentence for people, and
// the Pith Number it was about once known.
template <class Status>
struct JobOutcome {
  Status status = Status::error;
  std::optional<ErrorKind> failure;
  std::string message;
  std::string pith_number;  // text, not registry's PithNumber: base/ is below registry/; only printed (docs/architecture.md)

  [[nodiscard]] bool succeeded() const { return !failure.has_value(); }
  [[nodiscard]] int exit_code() const { return failure ? exit_code_for(*failure) : exit_code::ok; }
};

class Job {
 public:
  Job(const Job&) = delete;
  Job& operator=(const Job&) = delete;
  virtual ~Job() = default;

  // Parses argv, runs, prints; the process's exit code.
  [[nodiscard]] int main(int argc, char** argv);
  // main(), then the process ends with its exit code at once: standard output
  // and error flushed, and a write that failed (a full disk, /dev/full) is
  // "TOOL: cannot write standard output: REASON" and exit 2, never a verdict
  // nobody received. The libraries' static destructors are not run: tearing
  // down poppler's, PoDoFo's and NSS's memory, which the kernel frees anyway,
  // was 3 ms of a 60 ms check (issue 32). Only for a tool's main: every file a
  // job writes is closed before run() returns.
  [[noreturn]] void run_process(int argc, char** argv);

 protected:
  explicit Job(std::string tool) : tool_(std::move(tool)) {}

  // The one declaration of the command line: description, options, footer.
  // `app` already has --help, --version and --list-options.
  virtual void declare(CLI::App& app) = 0;
  // The run, once argv is parsed: an exit code, or the error that stopped it.
  [[nodiscard]] virtual Result<int> run() = 0;

  [[nodiscard]] const std::string& tool() const { return tool_; }
  // "TOOL: warning: TEXT" on stderr (terminal-safe), the run going on.
  void warn(const std::string& text) const;
  // A usage error that points at --help ("Run with --help for more
  // information." on a second line, as CLI11's own usage errors do).
  [[nodiscard]] std::unexpected<Error> usage_with_help(std::string message);

 private:
  std::string tool_;
  bool point_at_help_ = false;
};

}  // namespace pith
