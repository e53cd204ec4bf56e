// SPDX-License-Identifier: GPL-3.0-or-later
#include "support/test_data.hpp"

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

namespace pith::test {

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::ostringstream buf;
  buf << in.rdbuf();
  return buf.str();
}

std::filesystem::path data_path(const std::string& name) { return std::filesystem::path(PITH_TEST_DATA_DIR) / name; }

std::string read_data(const std::string& name) { return read_file(data_path(name)); }

void write_file(const std::filesystem::path& path, const std::string& bytes) {
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

namespace {

// Removed by the process that made it only: a forked child that exits
// normally runs this destructor too, and must not take its parent's files.
struct ProcessScratch {
  std::filesystem::path path;
  pid_t owner = ::getpid();
  ProcessScratch() : path(std::filesystem::temp_directory_path() / ("pith-test-" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~ProcessScratch() {
    std::error_code ignored;
    if (::getpid() == owner && !std::getenv("PITH_KEEP_TEST_FILES")) std::filesystem::remove_all(path, ignored);
  }
};

}  // namespace

std::filesystem::path process_scratch_dir() {
  static const ProcessScratch scratch;
  return scratch.path;
}

std::filesystem::path fresh_temp_dir(const std::string& tag) {
  static std::atomic<int> counter{0};
  auto dir = process_scratch_dir() / (tag + "-" + std::to_string(counter++));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace pith::test
