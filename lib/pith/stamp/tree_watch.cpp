// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/stamp/tree_watch.hpp"

#include <array>
#include <cerrno>
#include <cstring>
#include <sys/inotify.h>
#include <unistd.h>
#include <utility>

namespace pith::stamp {
namespace fs = std::filesystem;

namespace {

bool is_vcs_directory(const fs::path& dir) {
  const std::string name = dir.filename().string();
  return name == ".git" || name == ".svn" || name == ".hg";
}

}  // namespace

Result<TreeWatch> TreeWatch::start(const fs::path& root, std::size_t max_directories) {
  const int fd = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  if (fd < 0) return fail(ErrorKind::io, root.string(), std::string("cannot watch for opened files (inotify): ") + std::strerror(errno));
  TreeWatch watch(fd);
  std::error_code ec;
  const fs::path top = fs::absolute(root, ec).lexically_normal();
  const auto add = [&](const fs::path& dir) -> Result<void> {
    if (watch.directories_.size() >= max_directories) {
      return fail(ErrorKind::io, top.string(), "has more than " + std::to_string(max_directories) +
                                                   " directories: too many to watch for opened files");
    }
    const int wd = ::inotify_add_watch(fd, dir.c_str(), IN_OPEN | IN_ONLYDIR | IN_EXCL_UNLINK);
    if (wd < 0) {
      return fail(ErrorKind::io, dir.string(), std::string("cannot watch for opened files (inotify): ") + std::strerror(errno));
    }
    watch.directories_.emplace(wd, dir);
    return {};
  };
  if (auto ok = add(top); !ok) return std::unexpected(ok.error());
  for (auto it = fs::recursive_directory_iterator(top, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    std::error_code type_ec;
    if (!it->is_directory(type_ec) || it->is_symlink(type_ec)) continue;
    if (is_vcs_directory(it->path())) {
      it.disable_recursion_pending();
      continue;
    }
    if (auto ok = add(it->path().lexically_normal()); !ok) return std::unexpected(ok.error());
  }
  if (ec) return fail(ErrorKind::io, top.string(), "cannot list its directories: " + ec.message());
  return watch;
}

TreeWatch::TreeWatch(TreeWatch&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)),
      directories_(std::move(other.directories_)),
      opened_(std::move(other.opened_)),
      overflowed_(other.overflowed_) {}

TreeWatch::~TreeWatch() {
  if (fd_ >= 0) ::close(fd_);
}

void TreeWatch::drain() {
  alignas(inotify_event) std::array<char, 64 * 1024> buffer{};
  for (;;) {
    const ssize_t n = ::read(fd_, buffer.data(), buffer.size());
    if (n <= 0) return;  // EAGAIN: nothing more queued
    for (std::size_t at = 0; at + sizeof(inotify_event) <= static_cast<std::size_t>(n);) {
      inotify_event event{};
      std::memcpy(&event, buffer.data() + at, sizeof event);
      const char* name = buffer.data() + at + sizeof(inotify_event);
      at += sizeof(inotify_event) + event.len;
      if (event.mask & IN_Q_OVERFLOW) overflowed_ = true;
      if ((event.mask & IN_ISDIR) || event.len == 0) continue;
      const auto dir = directories_.find(event.wd);
      if (dir == directories_.end()) continue;
      opened_.insert(dir->second / std::string(name, ::strnlen(name, event.len)));
    }
  }
}

}  // namespace pith::stamp
