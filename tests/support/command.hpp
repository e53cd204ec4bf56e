// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The one way tests run a shell command (qpdf, poppler, exiftool, TeX,
// openssl): what it printed and how it ended, as a value.
#include <filesystem>
#include <string>

namespace pith::test {

struct CommandResult {
  int status = -1;  // the exit status; 128 + N when signal N ended it, -1 when it could not start
  std::string out;  // its standard output (add 2>&1 to the command for its errors too)
};

// Runs `command` with /bin/sh, its stdin and stderr the test's own.
[[nodiscard]] CommandResult run(const std::string& command);

// `path` in single quotes for the shell (a quote inside made '\'').
[[nodiscard]] std::string quote(const std::filesystem::path& path);

}  // namespace pith::test
