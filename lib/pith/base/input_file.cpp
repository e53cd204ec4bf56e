// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/base/input_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace pith {
namespace {

std::unexpected<Error> io_error(const std::filesystem::path& path, std::string message) {
  return fail(ErrorKind::io, path.string(), std::move(message));
}

// A descriptor that closes itself.
struct Descriptor {
  int fd = -1;
  ~Descriptor() {
    if (fd >= 0) ::close(fd);
  }
};

// Opens without blocking (O_NONBLOCK: a FIFO with no writer does not wait)
// and accepts only a regular file.
Result<void> open_regular(const std::filesystem::path& path, Descriptor& out) {
  out.fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (out.fd < 0) return io_error(path, std::string("cannot read: ") + std::strerror(errno));
  struct stat st {};
  if (::fstat(out.fd, &st) != 0) return io_error(path, std::string("cannot read: ") + std::strerror(errno));
  if (S_ISDIR(st.st_mode)) return io_error(path, "is a directory");
  if (!S_ISREG(st.st_mode)) {
    return io_error(path, "is not a regular file (a FIFO, socket or device): give a file");
  }
  return {};
}

// Up to `limit` bytes from `fd`.
Result<std::string> read_up_to(const std::filesystem::path& path, int fd, std::size_t limit) {
  std::string bytes;
  char buffer[65536];
  while (bytes.size() < limit) {
    const std::size_t want = std::min(sizeof buffer, limit - bytes.size());
    const ssize_t n = ::read(fd, buffer, want);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return io_error(path, std::string("read error: ") + std::strerror(errno));
    if (n == 0) break;
    bytes.append(buffer, static_cast<std::size_t>(n));
  }
  return bytes;
}

std::string octal_mode(mode_t mode) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%04o", static_cast<unsigned>(mode & 07777));
  return buf;
}

}  // namespace

Result<std::string> read_input_file(const std::filesystem::path& path, std::size_t max_bytes) {
  Descriptor file;
  if (auto ok = open_regular(path, file); !ok) return std::unexpected(ok.error());
  // One byte past the bound tells "too large" without reading the rest.
  auto bytes = read_up_to(path, file.fd, max_bytes + 1);
  if (bytes && bytes->size() > max_bytes) {
    return fail(ErrorKind::malformed, path.string(), "larger than " + std::to_string(max_bytes) + " bytes (refused unread)");
  }
  return bytes;
}

Result<std::string> read_input_head(const std::filesystem::path& path, std::size_t n) {
  Descriptor file;
  if (auto ok = open_regular(path, file); !ok) return std::unexpected(ok.error());
  return read_up_to(path, file.fd, n);
}

Result<void> check_not_writable_by_others(const std::filesystem::path& path, const char* what) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return io_error(path, std::string("cannot read: ") + std::strerror(errno));
  if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
    return fail(ErrorKind::usage, path.string(),
                std::string(what) + " is writable by others (mode " + octal_mode(st.st_mode) +
                    "): anyone could replace it, so it adds no trust; run chmod go-w on it");
  }
  if (st.st_uid != ::getuid() && st.st_uid != 0) {
    return fail(ErrorKind::usage, path.string(),
                std::string(what) + " belongs to another user (uid " + std::to_string(st.st_uid) +
                    "): it adds no trust; keep keys in files you own");
  }
  return {};
}

bool same_file_state(const std::string& path, const struct stat& before) {
  struct stat now {};
  return ::stat(path.c_str(), &now) == 0 && now.st_ino == before.st_ino && now.st_dev == before.st_dev &&
         now.st_size == before.st_size && now.st_mtim.tv_sec == before.st_mtim.tv_sec &&
         now.st_mtim.tv_nsec == before.st_mtim.tv_nsec;
}

}  // namespace pith
