// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Running another program to its end (TeX, dvips, ps2pdf for pith-stamp
// --arxiv), with a deadline, in a directory of our own that is removed with
// everything in it. Not a sandbox: the program is the user's own toolchain,
// run as they would run it (the hostile-input children are
// base/child_process.hpp's).
#include "pith/base/error.hpp"

#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pith {

// A directory of our own under $TMPDIR (else /tmp), removed with everything
// in it when this goes.
class TempDir {
 public:
  // `purpose` names it: pith-<purpose>.XXXXXX.
  [[nodiscard]] static Result<TempDir> make(std::string_view purpose);
  TempDir(TempDir&& other) noexcept;
  TempDir& operator=(TempDir&&) = delete;
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir();
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }

 private:
  explicit TempDir(std::filesystem::path p) : path_(std::move(p)) {}
  std::filesystem::path path_;
};

struct Program {
  std::vector<std::string> argv;  // argv[0] is looked up in PATH
  std::filesystem::path cwd;
  std::optional<std::vector<std::string>> env;  // empty: this process's environment
};

// Runs `p` with stdin, stdout and stderr on /dev/null (TeX in batchmode
// writes its log; dvips and ps2pdf their errors only), killing it at
// `deadline`, calling `while_waiting` (if any) each time it looks. The
// exit status, or 128 + the signal. Errors: it cannot be started (io), it
// ran past the deadline (io), waiting failed (internal).
[[nodiscard]] Result<int> run_program(const Program& p, std::chrono::steady_clock::time_point deadline,
                                      const std::function<void()>& while_waiting = {});

}  // namespace pith
