// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/base/run_program.hpp"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <utility>

extern char** environ;

namespace pith {

namespace fs = std::filesystem;

Result<TempDir> TempDir::make(std::string_view purpose) {
  std::error_code ec;
  fs::path base = fs::temp_directory_path(ec);
  if (ec) base = "/tmp";
  std::string pattern = (base / ("pith-" + std::string(purpose) + ".XXXXXX")).string();
  if (::mkdtemp(pattern.data()) == nullptr)
    return fail(ErrorKind::io, pattern, std::string("cannot make a temporary directory: ") + std::strerror(errno));
  return TempDir(pattern);
}

TempDir::TempDir(TempDir&& other) noexcept : path_(std::exchange(other.path_, {})) {}

TempDir::~TempDir() {
  std::error_code ec;
  if (!path_.empty()) fs::remove_all(path_, ec);
}

Result<int> run_program(const Program& p, std::chrono::steady_clock::time_point deadline,
                        const std::function<void()>& while_waiting) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  for (int fd : {0, 1, 2}) posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0);
  posix_spawn_file_actions_addchdir_np(&actions, p.cwd.c_str());
  std::vector<char*> argv;
  for (const auto& a : p.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  std::vector<char*> envp;
  if (p.env) {
    for (const auto& e : *p.env) envp.push_back(const_cast<char*>(e.c_str()));
    envp.push_back(nullptr);
  }
  pid_t pid = -1;
  const int rc = ::posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), p.env ? envp.data() : environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) return fail(ErrorKind::io, p.argv[0], std::string("cannot run: ") + std::strerror(rc));
  int status = 0;
  for (;;) {
    const pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) return fail(ErrorKind::internal, p.argv[0], std::strerror(errno));
    if (while_waiting) while_waiting();
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      return fail(ErrorKind::io, p.argv[0], "did not finish within the time limit");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + WTERMSIG(status);
}

}  // namespace pith
