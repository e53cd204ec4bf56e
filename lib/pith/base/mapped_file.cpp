// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/base/mapped_file.hpp"

#include "pith/base/crypto.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <limits>
#include <memory>
#include <optional>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace pith {

namespace {

std::string errno_text(const char* what, int err) { return std::string(what) + ": " + std::strerror(err); }

// SHA-256 of the first `size` bytes of `fd`, read with pread into a small
// buffer: no page faults per 4 KB page and no growth of the resident size.
// nullopt (errno set) when a read fails or the file is shorter than `size`.
std::optional<std::string> sha256_by_pread(int fd, std::uint64_t size) {
  Sha256Stream hash;
  // No larger than the file, and not zeroed (pread fills what is hashed): a
  // zeroed 1 MiB buffer was 256 page faults of a 10-page paper's stamp (issue 32).
  const auto chunk = static_cast<std::size_t>(std::clamp<std::uint64_t>(size, 1, std::uint64_t{1} << 20));
  const std::unique_ptr<char[]> buffer(new char[chunk]);
  std::uint64_t off = 0;
  while (off < size) {
    const auto want = static_cast<std::size_t>(std::min<std::uint64_t>(chunk, size - off));
    const ssize_t n = ::pread(fd, buffer.get(), want, static_cast<off_t>(off));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return std::nullopt;
    if (n == 0) {
      errno = ENODATA;  // shortened while we read it
      return std::nullopt;
    }
    hash.update(std::string_view(buffer.get(), static_cast<std::size_t>(n)));
    off += static_cast<std::uint64_t>(n);
  }
  return to_hex(hash.finish());
}

std::size_t page_size() {
  static const auto size = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  return size;
}

std::size_t round_up_to_page(std::size_t n) { return (n + page_size() - 1) / page_size() * page_size(); }

}  // namespace

Result<OpenFile> OpenFile::open(const std::string& path) {
  // O_NONBLOCK: a FIFO put in the file's place is refused below, not waited on.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return fail(ErrorKind::io, path, errno_text("cannot open", errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    return fail(ErrorKind::io, path, errno_text("cannot stat", err));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return fail(ErrorKind::io, path, "not a regular file");
  }
  OpenFile file;
  file.path_ = path;
  file.size_ = static_cast<std::uint64_t>(st.st_size);
  file.mode_ = st.st_mode & 07777;
  file.uid_ = st.st_uid;
  file.gid_ = st.st_gid;
  file.fd_ = fd;
  return file;
}

OpenFile::OpenFile(OpenFile&& other) noexcept { *this = std::move(other); }

OpenFile& OpenFile::operator=(OpenFile&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    path_ = std::move(other.path_);
    size_ = std::exchange(other.size_, 0);
    mode_ = other.mode_;
    uid_ = other.uid_;
    gid_ = other.gid_;
    fd_ = std::exchange(other.fd_, -1);
  }
  return *this;
}

OpenFile::~OpenFile() {
  if (fd_ >= 0) ::close(fd_);
}

Result<std::string> OpenFile::sha256_hex() const {
  auto hex = sha256_by_pread(fd_, size_);
  if (!hex) return fail(ErrorKind::io, path_, errno_text("cannot read", errno));
  return std::move(*hex);
}

Result<MappedFile> MappedFile::open(const std::string& path) {
  auto file = OpenFile::open(path);
  if (!file) return std::unexpected(file.error());
  return map(*file);
}

Result<MappedFile> MappedFile::map(const OpenFile& file, std::string_view tail) {
  if (file.size() > std::numeric_limits<std::size_t>::max() - tail.size())
    return fail(ErrorKind::io, file.path(), "too large to map");
  const auto size = static_cast<std::size_t>(file.size());
  MappedFile out;
  out.path_ = file.path();
  out.mode_ = file.mode();
  out.uid_ = file.owner();
  out.gid_ = file.group();
  out.size_ = size + tail.size();
  out.file_size_ = size;
  out.fd_ = ::fcntl(file.fd(), F_DUPFD_CLOEXEC, 0);  // kept for hashing with pread (see sha256_hex)
  if (out.fd_ < 0) return fail(ErrorKind::io, file.path(), errno_text("cannot open", errno));
  if (out.size_ == 0) {
    out.data_ = "";
    return out;
  }
  if (tail.empty()) {
    void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, out.fd_, 0);
    if (p == MAP_FAILED) return fail(ErrorKind::io, file.path(), errno_text("cannot map", errno));
    out.data_ = static_cast<const char*>(p);
    out.mapped_ = true;
    out.mapped_size_ = size;
    return out;
  }
  // One view of file + tail: anonymous pages for the whole, the file mapped
  // over their start (copy-on-write: its last page takes the tail's first
  // bytes), then the tail copied after it, and the whole made read-only.
  const std::size_t whole = round_up_to_page(out.size_);
  void* base = ::mmap(nullptr, whole, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (base == MAP_FAILED) return fail(ErrorKind::io, file.path(), errno_text("cannot map", errno));
  out.data_ = static_cast<const char*>(base);
  out.mapped_ = true;
  out.mapped_size_ = whole;
  if (size > 0 && ::mmap(base, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED, out.fd_, 0) == MAP_FAILED)
    return fail(ErrorKind::io, file.path(), errno_text("cannot map", errno));
  std::memcpy(static_cast<char*>(base) + size, tail.data(), tail.size());
  if (::mprotect(base, whole, PROT_READ) != 0) return fail(ErrorKind::io, file.path(), errno_text("cannot map", errno));
  return out;
}

MappedFile::MappedFile(MappedFile&& other) noexcept { *this = std::move(other); }

MappedFile& MappedFile::operator=(MappedFile&& other) noexcept {
  if (this != &other) {
    release();
    path_ = std::move(other.path_);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    mapped_size_ = std::exchange(other.mapped_size_, 0);
    file_size_ = std::exchange(other.file_size_, 0);
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
  // pread rather than the mapping (no page faults, no resident growth); the
  // mapping only if a read fails. A view with a tail hashes the whole view.
  if (fd_ >= 0 && size_ == file_size_) {
    if (auto hex = sha256_by_pread(fd_, size_)) return std::move(*hex);
  }
  return pith::sha256_hex(bytes());
}

void MappedFile::release() noexcept {
  if (mapped_) ::munmap(const_cast<char*>(data_), mapped_size_);
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  mapped_ = false;
  data_ = nullptr;
  size_ = 0;
  mapped_size_ = 0;
  file_size_ = 0;
}

}  // namespace pith
