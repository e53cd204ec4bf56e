#include "pith/base/atomic_file.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

namespace pith {
namespace {

std::string errno_text(const char* what) { return std::string(what) + ": " + std::strerror(errno); }

// Closes a descriptor on scope exit; removes the temporary file unless released.
struct TempFile {
  int fd = -1;
  std::string path;
  bool keep = false;
  ~TempFile() {
    if (fd >= 0) ::close(fd);
    if (!keep && !path.empty()) ::unlink(path.c_str());
  }
};

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
      if (errno == EXDEV || errno == ENOSYS || errno == EINVAL || errno == EOPNOTSUPP) break;  // fall back below
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

}  // namespace

Result<void> write_atomically(const std::string& target_path, const std::string& source, std::uint64_t prefix_length,
                              std::string_view tail, const FileAttributes& attributes) {
  namespace fs = std::filesystem;
  std::error_code ec;
  // Follow a symbolic link: replace the file it names, not the link.
  fs::path target = fs::path(target_path);
  if (fs::is_symlink(target, ec)) target = fs::canonical(target, ec);
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  const std::string where = target_path;

  Fd in;
  if (prefix_length > 0) {
    in.fd = ::open(source.c_str(), O_RDONLY | O_CLOEXEC);
    if (in.fd < 0) return fail(ErrorKind::io, source, errno_text("cannot open"));
  }
  TempFile tmp;
  std::string templ = (dir / ("." + target.filename().string() + ".pith-XXXXXX")).string();
  tmp.fd = ::mkostemp(templ.data(), O_CLOEXEC);
  if (tmp.fd < 0) return fail(ErrorKind::io, where, errno_text("cannot create a temporary file beside it (for a directory you cannot write: -o OUT elsewhere, or --append)"));
  tmp.path = templ;

  if (prefix_length > 0 && !copy_prefix(in.fd, tmp.fd, prefix_length))
    return fail(ErrorKind::io, where, errno_text("cannot copy the original bytes"));
  if (::lseek(tmp.fd, static_cast<off_t>(prefix_length), SEEK_SET) < 0) return fail(ErrorKind::io, where, errno_text("cannot seek"));
  if (!write_all(tmp.fd, tail.data(), tail.size())) return fail(ErrorKind::io, where, errno_text("cannot write"));
  if (::fchmod(tmp.fd, attributes.mode) != 0) return fail(ErrorKind::io, where, errno_text("cannot set the file mode"));
  if (attributes.owner || attributes.group) {
    struct stat st {};
    if (::fstat(tmp.fd, &st) != 0) return fail(ErrorKind::io, where, errno_text("cannot stat the temporary file"));
    const uid_t uid = attributes.owner.value_or(st.st_uid);
    const gid_t gid = attributes.group.value_or(st.st_gid);
    if ((uid != st.st_uid || gid != st.st_gid) && ::fchown(tmp.fd, uid, gid) != 0)
      return fail(ErrorKind::io, where, errno_text("cannot keep the file's owner (use -o OUT or --append)"));
    // chown may clear set-id bits: restore the mode.
    if (::fchmod(tmp.fd, attributes.mode) != 0) return fail(ErrorKind::io, where, errno_text("cannot set the file mode"));
  }
  if (::fsync(tmp.fd) != 0) return fail(ErrorKind::io, where, errno_text("cannot flush to disk"));
  if (::close(tmp.fd) != 0) {
    tmp.fd = -1;
    return fail(ErrorKind::io, where, errno_text("cannot close"));
  }
  tmp.fd = -1;
  if (::rename(tmp.path.c_str(), target.c_str()) != 0) return fail(ErrorKind::io, where, errno_text("cannot replace the file"));
  tmp.keep = true;  // renamed: nothing left to remove
  Fd d;
  d.fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (d.fd < 0 || ::fsync(d.fd) != 0) return fail(ErrorKind::io, where, errno_text("written, but cannot flush the directory"));
  return {};
}

Result<void> append_in_place(const std::string& target, std::uint64_t expected_length, std::string_view tail) {
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
  return {};
}

}  // namespace pith
