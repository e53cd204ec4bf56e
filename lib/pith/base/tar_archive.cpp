// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/base/tar_archive.hpp"

#include "pith/base/atomic_file.hpp"

#include <archive.h>
#include <archive_entry.h>

#include <algorithm>
#include <cerrno>
#include <fstream>
#include <iterator>
#include <memory>
#include <numeric>
#include <string_view>
#include <sys/stat.h>

namespace pith {
namespace {

namespace fs = std::filesystem;

Result<void> archive_failed(archive* a, const fs::path& where) {
  return fail(ErrorKind::io, where.string(), archive_error_string(a) ? archive_error_string(a) : "libarchive failed");
}

using ArchivePtr = std::unique_ptr<archive, int (*)(archive*)>;

std::optional<std::string> bytes_of(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

Result<void> write_entry(archive* a, const TarEntry& e, std::int64_t mtime, const fs::path& where) {
  std::string bytes = e.content;
  if (!e.source.empty()) {
    auto read = bytes_of(e.source);
    if (!read) return fail(ErrorKind::io, e.source.string(), "cannot read");
    bytes = std::move(*read);
  }
  std::unique_ptr<archive_entry, void (*)(archive_entry*)> entry(archive_entry_new(), archive_entry_free);
  archive_entry_set_pathname(entry.get(), e.name.c_str());
  archive_entry_set_size(entry.get(), static_cast<la_int64_t>(bytes.size()));
  archive_entry_set_filetype(entry.get(), AE_IFREG);
  archive_entry_set_perm(entry.get(), 0644);
  archive_entry_set_mtime(entry.get(), mtime, 0);
  if (archive_write_header(a, entry.get()) != ARCHIVE_OK) return archive_failed(a, where);
  if (!bytes.empty() && archive_write_data(a, bytes.data(), bytes.size()) < 0) return archive_failed(a, where);
  return {};
}

std::int64_t mtime_of(const fs::path& file) {
  struct stat st {};
  return ::stat(file.c_str(), &st) == 0 ? static_cast<std::int64_t>(st.st_mtime) : 0;
}

// libarchive's output goes into the staged file beside the archive's name
// (base/atomic_file): the one atomic writer, so a crash leaves the old
// archive or the new one, never a torn one.
la_ssize_t append_to_staged(archive* a, void* staged, const void* buffer, size_t length) {
  auto ok = static_cast<StagedFile*>(staged)->append(std::string_view(static_cast<const char*>(buffer), length));
  if (!ok) {
    archive_set_error(a, EIO, "%s", ok.error().message.c_str());
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

}  // namespace

// Written beside its final name, flushed, then renamed over it (write
// beside, fsync, rename, fsync the directory).
Result<void> write_tar_gz(const fs::path& path, const std::vector<TarEntry>& entries, std::optional<std::int64_t> epoch) {
  remove_stale_temporaries(path);
  auto staged = StagedFile::beside(path);
  if (!staged) return std::unexpected(staged.error());
  ArchivePtr a(archive_write_new(), archive_write_free);
  if (archive_write_add_filter_gzip(a.get()) != ARCHIVE_OK || archive_write_set_format_pax_restricted(a.get()) != ARCHIVE_OK)
    return archive_failed(a.get(), path);
  // No time in the gzip header: the same files give the same archive.
  (void)archive_write_set_filter_option(a.get(), "gzip", "timestamp", nullptr);
  // The last block unpadded, as libarchive writes a regular file it opens itself.
  (void)archive_write_set_bytes_in_last_block(a.get(), 1);
  if (archive_write_open2(a.get(), &*staged, nullptr, append_to_staged, nullptr, nullptr) != ARCHIVE_OK)
    return archive_failed(a.get(), path);
  const std::int64_t newest = std::accumulate(entries.begin(), entries.end(), std::int64_t{0}, [](std::int64_t t, const TarEntry& e) {
    return e.source.empty() ? t : std::max(t, mtime_of(e.source));
  });
  for (const auto& e : entries) {
    // A written entry (00README.json) gets the newest source's time.
    const std::int64_t mtime = epoch ? *epoch : (e.source.empty() ? newest : mtime_of(e.source));
    if (auto ok = write_entry(a.get(), e, mtime, path); !ok) return ok;  // the staged file is removed
  }
  if (archive_write_close(a.get()) != ARCHIVE_OK) return archive_failed(a.get(), path);
  if (auto ok = staged->set_attributes(FileAttributes{0644}); !ok) return ok;
  if (auto ok = staged->flush(); !ok) return ok;
  if (auto ok = staged->commit(); !ok) return ok;
  return sync_directory(path.has_parent_path() ? path.parent_path() : fs::path("."));
}

Result<void> extract_tar(const fs::path& path, const fs::path& dir) {
  ArchivePtr in(archive_read_new(), archive_read_free);
  archive_read_support_filter_all(in.get());
  archive_read_support_format_all(in.get());
  if (archive_read_open_filename(in.get(), path.c_str(), 64 * 1024) != ARCHIVE_OK) return archive_failed(in.get(), path);
  ArchivePtr out(archive_write_disk_new(), archive_write_free);
  archive_write_disk_set_options(out.get(), ARCHIVE_EXTRACT_SECURE_NODOTDOT | ARCHIVE_EXTRACT_SECURE_SYMLINKS |
                                                ARCHIVE_EXTRACT_TIME);
  archive_entry* entry = nullptr;
  for (;;) {
    const int r = archive_read_next_header(in.get(), &entry);
    if (r == ARCHIVE_EOF) break;
    if (r != ARCHIVE_OK) return archive_failed(in.get(), path);
    const char* stored = archive_entry_pathname(entry);
    const std::string name = stored ? stored : "";
    if (!is_safe_member_name(name)) return fail(ErrorKind::malformed, path.string(), "member '" + name + "' leaves the upload");
    archive_entry_set_pathname(entry, (dir / name).c_str());
    if (archive_write_header(out.get(), entry) != ARCHIVE_OK) return archive_failed(out.get(), path);
    const void* buf = nullptr;
    std::size_t size = 0;
    la_int64_t offset = 0;
    int d = ARCHIVE_OK;
    while ((d = archive_read_data_block(in.get(), &buf, &size, &offset)) == ARCHIVE_OK) {
      if (archive_write_data_block(out.get(), buf, size, offset) != ARCHIVE_OK) return archive_failed(out.get(), path);
    }
    if (d != ARCHIVE_EOF) return archive_failed(in.get(), path);
    if (archive_write_finish_entry(out.get()) != ARCHIVE_OK) return archive_failed(out.get(), path);
  }
  return {};
}

}  // namespace pith
