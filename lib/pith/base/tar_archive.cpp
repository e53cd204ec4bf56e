// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/base/tar_archive.hpp"

#include "pith/base/archive_library.hpp"
#include "pith/base/atomic_file.hpp"
#include "pith/base/fd_io.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <iterator>
#include <memory>
#include <numeric>
#include <string_view>
#include <sys/stat.h>
#include <unistd.h>

namespace pith {
namespace {

namespace fs = std::filesystem;

Result<void> archive_failed(const ArchiveLibrary& l, archive* a, const fs::path& where) {
  const char* why = l.error_string(a);
  return fail(ErrorKind::io, where.string(), why ? why : "libarchive failed");
}

std::optional<std::string> bytes_of(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

Result<void> write_entry(const ArchiveLibrary& l, archive* a, const TarEntry& e, std::int64_t mtime, const fs::path& where) {
  std::string bytes = e.content;
  if (!e.source.empty()) {
    auto read = bytes_of(e.source);
    if (!read) return fail(ErrorKind::io, e.source.string(), "cannot read");
    bytes = std::move(*read);
  }
  std::unique_ptr<archive_entry, void (*)(archive_entry*)> entry(l.entry_new(), l.entry_free);
  l.entry_set_pathname(entry.get(), e.name.c_str());
  l.entry_set_size(entry.get(), static_cast<la_int64_t>(bytes.size()));
  l.entry_set_filetype(entry.get(), AE_IFREG);
  l.entry_set_perm(entry.get(), 0644);
  l.entry_set_mtime(entry.get(), mtime, 0);
  if (l.write_header(a, entry.get()) != ARCHIVE_OK) return archive_failed(l, a, where);
  if (!bytes.empty() && l.write_data(a, bytes.data(), bytes.size()) < 0) return archive_failed(l, a, where);
  return {};
}

std::int64_t mtime_of(const fs::path& file) {
  struct stat st {};
  return ::stat(file.c_str(), &st) == 0 ? static_cast<std::int64_t>(st.st_mtime) : 0;
}

// libarchive's output goes into the staged file beside the archive's name
// (base/atomic_file): the one atomic writer, so a crash leaves the old
// archive or the new one, never a torn one.
struct StagedOutput {
  const ArchiveLibrary* library;
  StagedFile* file;
};

la_ssize_t append_to_staged(archive* a, void* output, const void* buffer, size_t length) {
  const auto& out = *static_cast<StagedOutput*>(output);
  auto ok = out.file->append(std::string_view(static_cast<const char*>(buffer), length));
  if (!ok) {
    out.library->set_error(a, EIO, "%s", ok.error().message.c_str());
    return -1;
  }
  return static_cast<la_ssize_t>(length);
}

// A member name that stays inside the directory it is unpacked into.
bool is_safe_member_name(std::string_view name) {
  if (name.empty() || name.starts_with('/')) return false;
  const fs::path p(name);
  return std::none_of(p.begin(), p.end(), [](const fs::path& part) { return part == ".."; });
}

Result<void> unpacked_badly(const fs::path& archive_path, const std::string& name, const std::string& problem) {
  return fail(ErrorKind::malformed, archive_path.string(), "member '" + name + "' " + problem);
}

// A file written new (never over one already there, never through a link),
// with the time the archive gives it.
Result<void> write_new_file(const fs::path& file, const TarMember& member) {
  const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) return fail(ErrorKind::io, file.string(), std::string("cannot create: ") + std::strerror(errno));
  const timespec times[2] = {{member.mtime, 0}, {member.mtime, 0}};
  const bool written = write_all(fd, member.bytes) && ::futimens(fd, times) == 0;
  const int saved = errno;
  if (::close(fd) != 0 || !written) return fail(ErrorKind::io, file.string(), std::string("cannot write: ") + std::strerror(saved));
  return {};
}

// One member of the upload into `dir`: files and directories only, each
// inside `dir`, each once.
Result<void> unpack(const TarMember& member, const fs::path& dir, const fs::path& archive_path) {
  if (member.error) return unpacked_badly(archive_path, member.name, *member.error);
  if (!is_safe_member_name(member.name)) return unpacked_badly(archive_path, member.name, "leaves the upload");
  const fs::path target = dir / member.name;
  std::error_code ec;
  switch (member.type) {
    case TarEntryType::directory:
      fs::create_directories(target, ec);
      if (ec) return fail(ErrorKind::io, target.string(), "cannot make: " + ec.message());
      return {};
    case TarEntryType::file:
      fs::create_directories(target.parent_path(), ec);
      if (ec) return fail(ErrorKind::io, target.parent_path().string(), "cannot make: " + ec.message());
      if (fs::symlink_status(target, ec).type() != fs::file_type::not_found)
        return unpacked_badly(archive_path, member.name, "stands twice in the upload");
      return write_new_file(target, member);
    case TarEntryType::symlink:
    case TarEntryType::hard_link:
    case TarEntryType::character_device:
    case TarEntryType::block_device:
    case TarEntryType::fifo:
    case TarEntryType::socket:
    case TarEntryType::other:
      break;
  }
  return unpacked_badly(archive_path, member.name, "is not a file or a directory: an upload holds files only");
}

}  // namespace

// Written beside its final name, flushed, then renamed over it (write
// beside, fsync, rename, fsync the directory).
Result<void> write_tar_gz(const fs::path& path, const std::vector<TarEntry>& entries, std::optional<std::int64_t> epoch) {
  const auto library = archive_library();
  if (!library) return std::unexpected(library.error().within(path.string()));
  const ArchiveLibrary& l = **library;
  remove_stale_temporaries(path);
  auto staged = StagedFile::beside(path);
  if (!staged) return std::unexpected(staged.error());
  StagedOutput output{&l, &*staged};  // outlives the archive, whose freeing may still write
  std::unique_ptr<archive, int (*)(archive*)> a(l.write_new(), l.write_free);
  if (l.write_add_filter_gzip(a.get()) != ARCHIVE_OK || l.write_set_format_pax_restricted(a.get()) != ARCHIVE_OK)
    return archive_failed(l, a.get(), path);
  // No time in the gzip header: the same files give the same archive.
  (void)l.write_set_filter_option(a.get(), "gzip", "timestamp", nullptr);
  // The last block unpadded, as libarchive writes a regular file it opens itself.
  (void)l.write_set_bytes_in_last_block(a.get(), 1);
  if (l.write_open2(a.get(), &output, nullptr, append_to_staged, nullptr, nullptr) != ARCHIVE_OK)
    return archive_failed(l, a.get(), path);
  const std::int64_t newest = std::accumulate(entries.begin(), entries.end(), std::int64_t{0}, [](std::int64_t t, const TarEntry& e) {
    return e.source.empty() ? t : std::max(t, mtime_of(e.source));
  });
  for (const auto& e : entries) {
    // A written entry (00README.json) gets the newest source's time.
    const std::int64_t mtime = epoch ? *epoch : (e.source.empty() ? newest : mtime_of(e.source));
    if (auto ok = write_entry(l, a.get(), e, mtime, path); !ok) return ok;  // the staged file is removed
  }
  if (l.write_close(a.get()) != ARCHIVE_OK) return archive_failed(l, a.get(), path);
  if (auto ok = staged->set_attributes(FileAttributes{0644}); !ok) return ok;
  if (auto ok = staged->flush(); !ok) return ok;
  if (auto ok = staged->commit(); !ok) return ok;
  return sync_directory(path.has_parent_path() ? path.parent_path() : fs::path("."));
}

Result<void> extract_tar(const fs::path& path, const fs::path& dir, const TarLimits& limits) {
  auto reader = TarReader::open(path.string(), limits);
  if (!reader) return std::unexpected(reader.error());
  for (;;) {
    auto member = reader->next();
    if (!member) return std::unexpected(member.error());
    if (!*member) return {};
    if (auto ok = unpack(**member, dir, path); !ok) return ok;
  }
}

}  // namespace pith
