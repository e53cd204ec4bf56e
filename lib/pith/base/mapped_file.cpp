// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/base/mapped_file.hpp"

#include "pith/base/crypto.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>
#include <vector>

namespace pith {

Result<MappedFile> MappedFile::open(const std::string& path) {
  // O_NONBLOCK: a FIFO put in the file's place is refused below, not waited on.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return fail(ErrorKind::io, path, std::string("cannot open: ") + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    return fail(ErrorKind::io, path, std::string("cannot stat: ") + std::strerror(err));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return fail(ErrorKind::io, path, "not a regular file");
  }
  MappedFile file;
  file.path_ = path;
  file.mode_ = st.st_mode & 07777;
  file.uid_ = st.st_uid;
  file.gid_ = st.st_gid;
  file.size_ = static_cast<std::size_t>(st.st_size);
  if (file.size_ > 0) {
    void* p = ::mmap(nullptr, file.size_, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
      const int err = errno;
      ::close(fd);
      return fail(ErrorKind::io, path, std::string("cannot map: ") + std::strerror(err));
    }
    file.data_ = static_cast<const char*>(p);
    file.mapped_ = true;
  } else {
    file.data_ = "";
  }
  file.fd_ = fd;  // kept for hashing with pread (see sha256_hex)
  return file;
}

MappedFile::MappedFile(MappedFile&& other) noexcept { *this = std::move(other); }

MappedFile& MappedFile::operator=(MappedFile&& other) noexcept {
  if (this != &other) {
    release();
    path_ = std::move(other.path_);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    mapped_ = std::exchange(other.mapped_, false);
    mode_ = other.mode_;
    uid_ = other.uid_;
    gid_ = other.gid_;
    fd_ = std::exchange(other.fd_, -1);
  }
  return *this;
}

MappedFile::~MappedFile() { release(); }

std::string MappedFile::sha256_hex() const {
  // Read with pread into a small buffer rather than through the mapping: no
  // page faults per 4 KB page and no growth of the resident size.
  Sha256Stream hash;
  std::vector<char> buffer(std::size_t{1} << 20);
  std::size_t off = 0;
  bool via_mapping = fd_ < 0;
  while (!via_mapping && off < size_) {
    const ssize_t n = ::pread(fd_, buffer.data(), std::min(buffer.size(), size_ - off), static_cast<off_t>(off));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      via_mapping = true;  // fall back to the mapping for the rest
      break;
    }
    hash.update(std::string_view(buffer.data(), static_cast<std::size_t>(n)));
    off += static_cast<std::size_t>(n);
  }
  if (via_mapping && off < size_) hash.update(std::string_view(data_ + off, size_ - off));
  return to_hex(hash.finish());
}

void MappedFile::release() noexcept {
  if (mapped_) ::munmap(const_cast<char*>(data_), size_);
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  mapped_ = false;
  data_ = nullptr;
  size_ = 0;
}

}  // namespace pith
