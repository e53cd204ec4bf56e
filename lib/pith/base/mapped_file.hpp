// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A read-only memory map of a whole file. Reading a PDF's trailer, cross-
// reference data and a handful of objects touches only those pages, so the
// cost of opening a 50 MB thesis is the cost of its metadata, not its size.
#include "pith/base/error.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <sys/types.h>

namespace pith {

class MappedFile {
 public:
  // Maps `path` read-only. The mapping is private: later writes to the file by
  // others are not our concern, a truncation by others is (SIGBUS), which is
  // why writers in this project never truncate a file someone else reads.
  [[nodiscard]] static Result<MappedFile> open(const std::string& path);

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
  bool mapped_ = false;
  mode_t mode_ = 0;
  uid_t uid_ = 0;
  gid_t gid_ = 0;
  int fd_ = -1;
};

}  // namespace pith
