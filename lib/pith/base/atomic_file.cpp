// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/base/atomic_file.hpp"

#include "pith/base/crypto.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>
#include <vector>
#include <thread>
#include <utility>

namespace pith {
namespace fs = std::filesystem;
namespace {

std::string errno_text(const char* what) { return std::string(what) + ": " + std::strerror(errno); }

// Closes a descriptor on scope exit.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

bool write_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

// Copies `length` bytes from `in` (at offset 0) to `out`: copy_file_range lets
// the kernel (or a reflink-capable filesystem) do it without touching our memory.
bool copy_prefix(int in, int out, std::uint64_t length) {
  off_t in_off = 0;
  std::uint64_t left = length;
  while (left > 0) {
    const ssize_t n = ::copy_file_range(in, &in_off, out, nullptr, static_cast<std::size_t>(std::min<std::uint64_t>(left, 1u << 30)), 0);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EXDEV || errno == ENOSYS || errno == EINVAL || errno == EOPNOTSUPP || errno == EBADF) break;  // fall back below
      return false;
    }
    if (n == 0) return false;  // the source is shorter than expected
    left -= static_cast<std::uint64_t>(n);
  }
  char buf[1 << 16];
  while (left > 0) {
    const ssize_t n = ::pread(in, buf, static_cast<std::size_t>(std::min<std::uint64_t>(left, sizeof buf)), in_off);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    if (!write_all(out, buf, static_cast<std::size_t>(n))) return false;
    in_off += n;
    left -= static_cast<std::uint64_t>(n);
  }
  return true;
}

// The same copy, hashing what passes through: one read of the source
// instead of a copy and then a second read to hash it.
bool copy_prefix_hashing(int in, int out, std::uint64_t length, Sha256Stream& hash) {
  std::vector<char> buf(std::size_t{1} << 20);
  off_t in_off = 0;
  std::uint64_t left = length;
  ::posix_fadvise(in, 0, static_cast<off_t>(length), POSIX_FADV_SEQUENTIAL);
  while (left > 0) {
    const ssize_t n = ::pread(in, buf.data(), static_cast<std::size_t>(std::min<std::uint64_t>(left, buf.size())), in_off);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    hash.update(std::string_view(buf.data(), static_cast<std::size_t>(n)));
    if (!write_all(out, buf.data(), static_cast<std::size_t>(n))) return false;
    in_off += n;
    left -= static_cast<std::uint64_t>(n);
  }
  return true;
}

fs::path directory_of(const fs::path& target) { return target.has_parent_path() ? target.parent_path() : fs::path("."); }

std::string temporary_prefix(const fs::path& target) { return "." + target.filename().string() + ".pith-"; }

// Copies the extended attributes of `from` to `to_fd`. Filesystems without
// them are skipped; a user.* attribute that cannot be set is an error.
Result<void> copy_extended_attributes(const std::string& from, int to_fd, const std::string& where) {
  Fd in;
  in.fd = ::open(from.c_str(), O_RDONLY | O_CLOEXEC);
  if (in.fd < 0) return fail(ErrorKind::io, from, errno_text("cannot open"));
  const ssize_t list_size = ::flistxattr(in.fd, nullptr, 0);
  if (list_size <= 0) return {};  // none, or not supported
  std::vector<char> names(static_cast<std::size_t>(list_size));
  const ssize_t got = ::flistxattr(in.fd, names.data(), names.size());
  if (got < 0) return {};
  for (std::size_t at = 0; at < static_cast<std::size_t>(got);) {
    const std::string name(names.data() + at);
    at += name.size() + 1;
    const ssize_t value_size = ::fgetxattr(in.fd, name.c_str(), nullptr, 0);
    if (value_size < 0) continue;
    std::vector<char> value(static_cast<std::size_t>(value_size));
    const ssize_t n = ::fgetxattr(in.fd, name.c_str(), value.data(), value.size());
    if (n < 0) continue;
    if (::fsetxattr(to_fd, name.c_str(), value.data(), static_cast<std::size_t>(n), 0) != 0 && name.starts_with("user."))
      return fail(ErrorKind::io, where, errno_text(("cannot keep the extended attribute " + name).c_str()));
  }
  return {};
}

// The one write: `prefix_length` bytes of `source`, then `tail`, with
// `attributes`, flushed and renamed over the staged file's target as
// `durability` says.
Result<void> flush_while_checking(StagedFile& file, Durability durability, const WrittenCheck& check);
Result<void> fill_and_commit(StagedFile& file, const std::string& source, std::uint64_t prefix_length,
                             std::string_view tail, const FileAttributes& attributes, Durability durability,
                             const WrittenCheck& check = {}) {
  if (prefix_length > 0) {
    if (auto ok = file.copy_prefix_of(source, prefix_length); !ok) return ok;
  }
  if (auto ok = file.append(tail); !ok) return ok;
  if (auto ok = file.set_attributes(attributes); !ok) return ok;
  if (auto ok = flush_while_checking(file, durability, check); !ok) return ok;
  const fs::path target = file.target();
  if (auto ok = file.commit(); !ok) return ok;
  if (durability != Durability::file_and_directory) return {};
  return sync_directory(directory_of(target));
}

// The file flushed to disk (as `durability` says) and checked, at once: the
// check (pith-stamp's re-reading of what it wrote, in its examining worker)
// reads the same bytes from the page cache either way, and the fsync's wait
// on the disk is then not added to it. Both must pass; the flush's failure
// is named first.
Result<void> flush_while_checking(StagedFile& file, Durability durability, const WrittenCheck& check) {
  if (durability == Durability::none || !check) {
    if (durability != Durability::none) return file.flush();
    return check ? check(file.temporary_path()) : Result<void>{};
  }
  Result<void> flushed;
  Result<void> checked;
  {
    const std::jthread flusher([&] { flushed = file.flush(); });  // joined at the end of this block, even on a throw
    checked = check(file.temporary_path());
  }
  if (!flushed) return flushed;
  return checked;
}

}  // namespace

Result<StagedFile> StagedFile::beside(fs::path target) {
  StagedFile file;
  std::string templ = (directory_of(target) / ("." + target.filename().string() + ".pith-XXXXXX")).string();
  file.fd_ = ::mkostemp(templ.data(), O_CLOEXEC);
  if (file.fd_ < 0) return fail(ErrorKind::io, target.string(), errno_text("cannot create a temporary file beside it"));
  // Held until the rename: a temporary file nobody locks is a killed run's
  // (remove_stale_temporaries).
  ::flock(file.fd_, LOCK_EX | LOCK_NB);
  file.temp_path_ = std::move(templ);
  file.target_ = std::move(target);
  return file;
}

StagedFile::StagedFile(StagedFile&& other) noexcept { *this = std::move(other); }

StagedFile& StagedFile::operator=(StagedFile&& other) noexcept {
  if (this != &other) {
    release();
    target_ = std::move(other.target_);
    temp_path_ = std::exchange(other.temp_path_, {});
    fd_ = std::exchange(other.fd_, -1);
    written_ = std::exchange(other.written_, 0);
  }
  return *this;
}

StagedFile::~StagedFile() { release(); }

void StagedFile::release() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  if (!temp_path_.empty()) ::unlink(temp_path_.c_str());
  temp_path_.clear();
}

Result<void> StagedFile::copy_prefix_of(const std::string& source, std::uint64_t length, std::string* sha256_hex) {
  Fd in;
  in.fd = ::open(source.c_str(), O_RDONLY | O_CLOEXEC);
  if (in.fd < 0) return fail(ErrorKind::io, source, errno_text("cannot open"));
  Sha256Stream hash;
  const bool copied = sha256_hex ? copy_prefix_hashing(in.fd, fd_, length, hash) : copy_prefix(in.fd, fd_, length);
  if (!copied) return fail(ErrorKind::io, target_.string(), errno_text("cannot copy the original bytes"));
  if (sha256_hex) *sha256_hex = to_hex(hash.finish());
  written_ = length;
  return {};
}

Result<void> StagedFile::append(std::string_view bytes) {
  if (::lseek(fd_, static_cast<off_t>(written_), SEEK_SET) < 0) return fail(ErrorKind::io, target_.string(), errno_text("cannot seek"));
  if (!write_all(fd_, bytes.data(), bytes.size())) return fail(ErrorKind::io, target_.string(), errno_text("cannot write"));
  written_ += bytes.size();
  return {};
}

Result<void> StagedFile::set_attributes(const FileAttributes& attributes) {
  const std::string where = target_.string();
  if (::fchmod(fd_, attributes.mode) != 0) return fail(ErrorKind::io, where, errno_text("cannot set the file mode"));
  if (attributes.extended_attributes_from) {
    if (auto ok = copy_extended_attributes(*attributes.extended_attributes_from, fd_, where); !ok) return ok;
  }
  if (!attributes.owner && !attributes.group) return {};
  struct stat st {};
  if (::fstat(fd_, &st) != 0) return fail(ErrorKind::io, where, errno_text("cannot stat the temporary file"));
  const uid_t uid = attributes.owner.value_or(st.st_uid);
  const gid_t gid = attributes.group.value_or(st.st_gid);
  if ((uid != st.st_uid || gid != st.st_gid) && ::fchown(fd_, uid, gid) != 0)
    return fail(ErrorKind::io, where, errno_text("cannot keep the file's owner (use -o OUT or --append)"));
  // chown may clear set-id bits: restore the mode.
  if (::fchmod(fd_, attributes.mode) != 0) return fail(ErrorKind::io, where, errno_text("cannot set the file mode"));
  return {};
}

// The copy's writeback begun now, not at the flush: the kernel writes the
// prefix to disk while the caller reads and plans, and the fsync at the end
// waits for the tail and the metadata only (a 43 MB copy's fsync took 22 ms
// on the stamp's critical path). Only a hint: a file system that does
// nothing with it leaves all of it to the fsync, which still decides.
std::jthread StagedFile::start_writeback() const {
  if (written_ == 0) return {};
  // sync_file_range queues the writes, and waits while the disk's queue is
  // full (2-22 ms for 43 MB, measured): in a thread, that wait is not the caller's.
  return std::jthread([fd = fd_] { (void)::sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE); });
}

Result<void> StagedFile::flush() {
  if (::fsync(fd_) != 0) return fail(ErrorKind::io, target_.string(), errno_text("cannot flush to disk"));
  return {};
}

Result<void> StagedFile::close() {
  const int fd = std::exchange(fd_, -1);
  if (fd >= 0 && ::close(fd) != 0) return fail(ErrorKind::io, target_.string(), errno_text("cannot close"));
  return {};
}

Result<void> StagedFile::commit() {
  if (::rename(temp_path_.c_str(), target_.c_str()) != 0) return fail(ErrorKind::io, target_.string(), errno_text("cannot replace the file"));
  temp_path_.clear();  // renamed: nothing left to remove
  const int fd = std::exchange(fd_, -1);
  if (fd >= 0 && ::close(fd) != 0) return fail(ErrorKind::io, target_.string(), errno_text("cannot close"));
  return {};
}

void remove_stale_temporaries(const fs::path& target) {
  const std::string prefix = temporary_prefix(target);
  const fs::path dir = directory_of(target);
  DIR* d = ::opendir(dir.c_str());
  if (!d) return;
  Fd dir_fd;
  dir_fd.fd = ::dup(::dirfd(d));
  std::vector<std::string> stale;
  while (const dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    if (name.size() == prefix.size() + 6 && name.starts_with(prefix)) stale.push_back(name);
  }
  ::closedir(d);
  for (const auto& name : stale) {
    Fd f;
    f.fd = ::openat(dir_fd.fd, name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    struct stat st {};
    if (f.fd < 0 || ::fstat(f.fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != ::geteuid()) continue;
    if (::flock(f.fd, LOCK_EX | LOCK_NB) != 0) continue;  // a live writer's
    ::unlinkat(dir_fd.fd, name.c_str(), 0);
  }
}

Result<void> sync_directory(const fs::path& dir) {
  Fd d;
  d.fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (d.fd < 0 || ::fsync(d.fd) != 0) return fail(ErrorKind::io, dir.string(), errno_text("written, but cannot flush the directory"));
  return {};
}

void sync_file_system(const fs::path& path) {
  Fd d;
  d.fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (d.fd >= 0) ::syncfs(d.fd);
}

namespace {

// The temporary file beside the target a write replaces (a link followed or not).
Result<StagedFile> stage_beside(const std::string& target_path, AtTargetLink link) {
  fs::path target(target_path);
  std::error_code ec;
  if (link == AtTargetLink::follow && fs::is_symlink(target, ec)) target = fs::canonical(target, ec);
  remove_stale_temporaries(target);
  auto staged = StagedFile::beside(target);
  if (!staged) {
    return fail(ErrorKind::io, target_path, staged.error().message +
                                 " (for a directory you cannot write: -o OUT elsewhere, or --append)");
  }
  return staged;
}

}  // namespace

Result<void> write_atomically(const std::string& target_path, const std::string& source, std::uint64_t prefix_length,
                              std::string_view tail, const FileAttributes& attributes, const WrittenCheck& check,
                              AtTargetLink link) {
  auto staged = stage_beside(target_path, link);
  if (!staged) return std::unexpected(staged.error());
  return fill_and_commit(*staged, source, prefix_length, tail, attributes, Durability::file_and_directory, check);
}

Result<AtomicRewrite> AtomicRewrite::begin(const std::string& target, const std::string& source,
                                           std::uint64_t prefix_length, AtTargetLink link, PrefixHash hash) {
  auto staged = stage_beside(target, link);
  if (!staged) return std::unexpected(staged.error());
  std::string sha256;
  std::string* hashed = hash == PrefixHash::in_the_same_pass ? &sha256 : nullptr;
  if (auto ok = staged->copy_prefix_of(source, prefix_length, hashed); !ok) return std::unexpected(ok.error());
  AtomicRewrite rewrite(std::move(*staged), std::move(sha256));
  rewrite.writeback_ = rewrite.staged_.start_writeback();
  return rewrite;
}

Result<void> AtomicRewrite::finish(std::string_view tail, const FileAttributes& attributes, const WrittenCheck& check) {
  if (writeback_.joinable()) writeback_.join();
  // The prefix is in place: fill_and_commit appends the tail after it.
  return fill_and_commit(staged_, {}, 0, tail, attributes, Durability::file_and_directory, check);
}

Result<void> write_to_descriptor(int fd, const std::string& source, std::uint64_t prefix_length, std::string_view tail) {
  Fd in;
  in.fd = ::open(source.c_str(), O_RDONLY | O_CLOEXEC);
  if (in.fd < 0) return fail(ErrorKind::io, source, errno_text("cannot open"));
  if (!copy_prefix(in.fd, fd, prefix_length) || !write_all(fd, tail.data(), tail.size()))
    return fail(ErrorKind::io, "standard output", errno_text("cannot write"));
  return {};
}

Result<void> write_file_atomically(const fs::path& target, std::string_view bytes, Durability durability) {
  // No sweep for stale temporaries here: the cache writes thousands of small
  // files into one directory, and a sweep reads the whole directory.
  auto staged = StagedFile::beside(target);
  if (!staged) return std::unexpected(staged.error());
  return fill_and_commit(*staged, {}, 0, bytes, FileAttributes{0644}, durability);
}

Result<void> append_in_place(const std::string& target, std::uint64_t expected_length, std::string_view tail,
                             const WrittenCheck& check) {
  Fd f;
  f.fd = ::open(target.c_str(), O_WRONLY | O_CLOEXEC);
  if (f.fd < 0) return fail(ErrorKind::io, target, errno_text("cannot open for writing"));
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) return fail(ErrorKind::io, target, errno_text("cannot stat"));
  if (static_cast<std::uint64_t>(st.st_size) != expected_length)
    return fail(ErrorKind::io, target, "the file changed while pith was reading it; nothing written");
  auto undo = [&](const std::string& message) {
    const int err = errno;
    const bool restored = ::ftruncate(f.fd, static_cast<off_t>(expected_length)) == 0 && ::fsync(f.fd) == 0;
    errno = err;
    return fail(ErrorKind::io, target, message + (restored ? " (the file was truncated back to its original length)"
                                            : " and could not be truncated back to " +
                                                  std::to_string(expected_length) + " bytes: truncate it by hand"));
  };
  const char* data = tail.data();
  std::size_t left = tail.size();
  off_t off = static_cast<off_t>(expected_length);
  while (left > 0) {
    const ssize_t n = ::pwrite(f.fd, data, left, off);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return undo(errno_text("cannot append"));
    data += n;
    left -= static_cast<std::size_t>(n);
    off += n;
  }
  if (::fsync(f.fd) != 0) return undo(errno_text("cannot flush to disk"));
  if (check) {
    if (auto ok = check(target); !ok) {
      errno = 0;
      return undo(ok.error().message);
    }
  }
  return {};
}

}  // namespace pith
