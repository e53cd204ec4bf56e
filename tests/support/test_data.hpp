// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Reading the committed fixtures in tests/data (and any file) in tests.
#include <filesystem>
#include <string>

namespace pith::test {

// Whole file as bytes; throws std::runtime_error naming the file if unreadable.
[[nodiscard]] std::string read_file(const std::filesystem::path& path);
// tests/data/<name>
[[nodiscard]] std::filesystem::path data_path(const std::string& name);
[[nodiscard]] std::string read_data(const std::string& name);
// Writes `bytes` to `path` (creating parent directories).
void write_file(const std::filesystem::path& path, const std::string& bytes);
// This test process's own directory under the system temp dir
// (pith-test-<pid>), removed when the process that made it exits, unless
// PITH_KEEP_TEST_FILES is set (to inspect what a test wrote). Every scratch
// file of a C++ test lives below it, so no run leaves files in /tmp.
[[nodiscard]] std::filesystem::path process_scratch_dir();
// A fresh empty directory under process_scratch_dir(), unique per call.
[[nodiscard]] std::filesystem::path fresh_temp_dir(const std::string& tag);

}  // namespace pith::test
