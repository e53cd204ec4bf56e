// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Files read without reading them whole. OpenFile is a regular file held
// open: its size and attributes, and its SHA-256 streamed through a small
// buffer. MappedFile is a read-only memory map of one: reading a PDF's
// trailer, cross-reference data and a handful of objects touches only those
// pages, so the cost of opening a 50 MB thesis is the cost of its metadata,
// not its size. A process that only hands a file to children (pith-stamp)
// holds an OpenFile; each child maps it for itself, so no address space is
// spent twice on it in any process, whatever the file's size.
#include "pith/base/error.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <sys/types.h>

namespace pith {

class OpenFile {
 public:
  // Opens `path` read-only. O_NONBLOCK: a FIFO put in the file's place is
  // refused (not a regular file), never waited on.
  [[nodiscard]] static Result<OpenFile> open(const std::string& path);

  OpenFile(OpenFile&& other) noexcept;
  OpenFile& operator=(OpenFile&& other) noexcept;
  OpenFile(const OpenFile&) = delete;
  OpenFile& operator=(const OpenFile&) = delete;
  ~OpenFile();

  [[nodiscard]] const std::string& path() const { return path_; }
  [[nodiscard]] std::uint64_t size() const { return size_; }
  [[nodiscard]] mode_t mode() const { return mode_; }
  [[nodiscard]] uid_t owner() const { return uid_; }
  [[nodiscard]] gid_t group() const { return gid_; }
  [[nodiscard]] int fd() const { return fd_; }

  // SHA-256 of the first size() bytes, lower-case hex (OpenSSL), read with
  // pread through a 1 MiB buffer: neither mapped nor kept resident.
  [[nodiscard]] Result<std::string> sha256_hex() const;

 private:
  OpenFile() = default;
  std::string path_;
  std::uint64_t size_ = 0;
  mode_t mode_ = 0;
  uid_t uid_ = 0;
  gid_t gid_ = 0;
  int fd_ = -1;
};

class MappedFile {
 public:
  // Maps `path` read-only. The mapping is private: later writes to the file by
  // others are not our concern, a truncation by others is (SIGBUS), which is
  // why writers in this project never truncate a file someone else reads.
  [[nodiscard]] static Result<MappedFile> open(const std::string& path);
  // Maps the file `file` holds open (its size() bytes), followed in the same
  // view by `tail`: the bytes a file would have with `tail` appended, without
  // copying the file (only the tail, and the file's last page, take memory).
  [[nodiscard]] static Result<MappedFile> map(const OpenFile& file, std::string_view tail = {});

  MappedFile(MappedFile&& other) noexcept;
  MappedFile& operator=(MappedFile&& other) noexcept;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  [[nodiscard]] std::string_view bytes() const { return {data_, size_}; }
  [[nodiscard]] const std::string& path() const { return path_; }
  [[nodiscard]] mode_t mode() const { return mode_; }
  [[nodiscard]] uid_t owner() const { return uid_; }
  [[nodiscard]] gid_t group() const { return gid_; }

  // SHA-256 of the whole file, lower-case hex (OpenSSL; read with pread, so
  // hashing a 50 MB file neither faults in nor keeps its pages resident).
  [[nodiscard]] std::string sha256_hex() const;

 private:
  MappedFile() = default;
  void release() noexcept;

  std::string path_;
  const char* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t mapped_size_ = 0;  // what munmap releases (page-rounded with a tail)
  std::size_t file_size_ = 0;    // the file's own bytes, before any tail
  bool mapped_ = false;
  mode_t mode_ = 0;
  uid_t uid_ = 0;
  gid_t gid_ = 0;
  int fd_ = -1;
};

}  // namespace pith
