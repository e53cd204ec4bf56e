#pragma once
// Writing files without ever leaving one half-written: the one atomic writer
// of pith (PDFs, the generated pith.sty, the resolver's cache).
//
// Every write goes the same way: the new content goes to a temporary file
// `.NAME.pith-XXXXXX` in the target's own directory (same filesystem, so
// rename is atomic), is fsynced, renamed over the target, and the directory
// is fsynced. A crash or kill at any point leaves either the old file or the
// new one, never a mix; at worst a stray temporary file remains. Hard links
// to the target are not updated (rename makes a new inode).
//
// append_in_place() (pith-stamp --append, for huge files): the bytes are
// written straight after the current end of the file, at a cost independent
// of its size, then fsynced; on any error the file is truncated back to its
// original length. What a crash (kill -9, power loss) during the append can
// leave: the original bytes, intact, followed by part of the update. Readers
// then find the original's trailer or a damaged one; `truncate -s
// <original length>` restores the original exactly (the length is printed by
// pith-stamp -v before writing).
#include "pith/base/error.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <sys/types.h>

namespace pith {

struct FileAttributes {
  explicit FileAttributes(mode_t m = 0644) : mode(m) {}
  mode_t mode;
  std::optional<uid_t> owner;  // set: chown the new file (fails if not permitted)
  std::optional<gid_t> group;
};

// What reaches the disk before write_file_atomically returns. Writers of many
// files in one directory flush each file but sync the directory once
// (sync_directory) after the last rename.
enum class Durability {
  file_and_directory,  // fsync the file, rename, fsync the directory
  file,                // fsync the file, rename (the caller syncs the directory)
  none,                // rename only: atomic, not durable (advisory files)
};

// Replaces (or creates) `target` with the first `prefix_length` bytes of the
// file `source` followed by `tail`, with `attributes`; fully durable. `source`
// may be `target` itself. A symbolic link is followed and the file it names
// is replaced (the PDF a user named, wherever it lives).
[[nodiscard]] Result<void> write_atomically(const std::string& target, const std::string& source,
                                            std::uint64_t prefix_length, std::string_view tail,
                                            const FileAttributes& attributes);

// Replaces (or creates) `target` with `bytes`, mode 0644. A symbolic link at
// `target` is itself replaced (pith's own files: never write through a link).
[[nodiscard]] Result<void> write_file_atomically(const std::filesystem::path& target, std::string_view bytes,
                                                 Durability durability = Durability::file_and_directory);

// The temporary file behind every write above, for a caller that stages many
// files before renaming any (the cache's batches): written, optionally
// flushed, then committed (renamed over its target). Removed unless committed.
class StagedFile {
 public:
  [[nodiscard]] static Result<StagedFile> beside(std::filesystem::path target);
  StagedFile(StagedFile&& other) noexcept;
  StagedFile& operator=(StagedFile&& other) noexcept;
  StagedFile(const StagedFile&) = delete;
  StagedFile& operator=(const StagedFile&) = delete;
  ~StagedFile();

  [[nodiscard]] const std::filesystem::path& target() const { return target_; }
  // The first `length` bytes of the file `source`, at the start of this one.
  [[nodiscard]] Result<void> copy_prefix_of(const std::string& source, std::uint64_t length);
  // `bytes` after what is already written.
  [[nodiscard]] Result<void> append(std::string_view bytes);
  [[nodiscard]] Result<void> set_attributes(const FileAttributes& attributes);
  [[nodiscard]] Result<void> flush();   // fsync
  [[nodiscard]] Result<void> close();   // done writing (commit comes later)
  [[nodiscard]] Result<void> commit();  // close if open, rename over the target

 private:
  StagedFile() = default;
  void release();

  std::filesystem::path target_;
  std::string temp_path_;
  int fd_ = -1;
  std::uint64_t written_ = 0;
};

// fsync of a directory, making the renames in it durable.
[[nodiscard]] Result<void> sync_directory(const std::filesystem::path& dir);
// syncfs of the filesystem holding `path`: one flush for many staged files.
void sync_file_system(const std::filesystem::path& path);

// Appends `tail` to `target`, which must still be exactly `expected_length`
// bytes long (else nothing is written). Truncates back on any error.
[[nodiscard]] Result<void> append_in_place(const std::string& target, std::uint64_t expected_length,
                                           std::string_view tail);

}  // namespace pith
