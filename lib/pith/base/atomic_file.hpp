// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Writing files without ever leaving one half-written: the one atomic writer
// of pith (PDFs, the generated pith.sty, the resolver's cache).
//
// Every write goes the same way: the new content goes to a temporary file
// `.NAME.pith-XXXXXX` in the target's own directory (same filesystem, so
// rename is atomic), is fsynced, renamed over the target, and the directory
// is fsynced. A crash or kill at any point leaves either the old file or the
// new one, never a mix; at worst a stray temporary file remains, which the
// next write_atomically / AtomicRewrite of the same target (the PDFs, large
// copies) removes: a live writer holds a lock on its temporary file; one
// nobody locks is a killed run's. Hard links to the
// target are not updated (rename makes a new inode): pith-stamp refuses an
// in-place stamp of a file with several names for that reason (stamp/run.cpp).
//
// A caller's check (WrittenCheck) runs on the written file before it is
// renamed or, for an append, kept: pith-stamp re-reads the PDF it wrote.
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
#include <functional>
#include <optional>
#include <string>
#include <thread>
#include <string_view>
#include <sys/types.h>

namespace pith {

struct FileAttributes {
  explicit FileAttributes(mode_t m = 0644) : mode(m) {}
  mode_t mode;
  std::optional<uid_t> owner;  // set: chown the new file (fails if not permitted)
  std::optional<gid_t> group;
  // Set: copy this file's extended attributes (user.*, ACLs, ...) where the
  // filesystem has them. A user.* attribute that cannot be copied is an
  // error; others (security.*, needing privileges) are skipped.
  std::optional<std::string> extended_attributes_from;
};

// What the caller checks on the written file (its path) before it replaces
// the target or, for an append, is kept; an error undoes the write.
using WrittenCheck = std::function<Result<void>(const std::string& written_path)>;

// What a symbolic link at the target means.
enum class AtTargetLink {
  follow,   // replace the file the link names (the PDF a user named, wherever it lives)
  replace,  // replace the link itself (an output path: never write through a link
            // someone else may have planted, e.g. in a sticky /tmp)
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
// may be `target` itself. `check` (when set) runs on the flushed temporary
// file before the rename. `link` says what a symbolic link at `target` means.
[[nodiscard]] Result<void> write_atomically(const std::string& target, const std::string& source,
                                            std::uint64_t prefix_length, std::string_view tail,
                                            const FileAttributes& attributes, const WrittenCheck& check = {},
                                            AtTargetLink link = AtTargetLink::follow);

// The first `prefix_length` bytes of `source`, then `tail`, to the descriptor
// `fd` (pith-stamp -o -: standard output).
[[nodiscard]] Result<void> write_to_descriptor(int fd, const std::string& source, std::uint64_t prefix_length,
                                               std::string_view tail);

// Removes the temporary files `.NAME.pith-XXXXXX` beside `target` that a
// killed run left: ours (same owner), regular, and locked by no live writer.
void remove_stale_temporaries(const std::filesystem::path& target);

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
  // The first `length` bytes of the file `source`, at the start of this one;
  // with `sha256_hex`, also their SHA-256 (lower-case hex), in the same pass.
  [[nodiscard]] Result<void> copy_prefix_of(const std::string& source, std::uint64_t length,
                                            std::string* sha256_hex = nullptr);
  // `bytes` after what is already written.
  [[nodiscard]] Result<void> append(std::string_view bytes);
  [[nodiscard]] Result<void> set_attributes(const FileAttributes& attributes);
  [[nodiscard]] Result<void> flush();   // fsync
  // Begins writing the bytes so far to disk, in a thread of its own (joined
  // when the result goes): a hint, the flush still decides.
  [[nodiscard]] std::jthread start_writeback() const;
  // The temporary file's path (for a check of what was written).
  [[nodiscard]] const std::string& temporary_path() const { return temp_path_; }
  // Done writing (commit comes later). Releases the lock that marks the
  // file as a live writer's: commit soon after.
  [[nodiscard]] Result<void> close();
  [[nodiscard]] Result<void> commit();  // rename over the target, then close (the lock is held until renamed)

 private:
  StagedFile() = default;
  void release();

  std::filesystem::path target_;
  std::string temp_path_;
  int fd_ = -1;
  std::uint64_t written_ = 0;
};

// write_atomically in two steps, for a caller that needs the prefix's
// SHA-256 before it knows the tail (pith-stamp writes the original's hash
// into the update): begin() copies the prefix beside the target and hashes
// it in the same pass over the source; finish() appends the tail, sets the
// attributes, flushes, runs the check and renames. Abandoned (destroyed
// unfinished), the temporary file is removed and the target is untouched.
//
// PrefixHash::none copies in the kernel (copy_file_range) and hashes
// nothing: for a caller that hashes the source elsewhere at the same time
// (pith-stamp: in the child that plans the update, on the other core).
enum class PrefixHash { in_the_same_pass, none };

class AtomicRewrite {
 public:
  [[nodiscard]] static Result<AtomicRewrite> begin(const std::string& target, const std::string& source,
                                                   std::uint64_t prefix_length, AtTargetLink link = AtTargetLink::follow,
                                                   PrefixHash hash = PrefixHash::in_the_same_pass);
  // Empty with PrefixHash::none.
  [[nodiscard]] const std::string& prefix_sha256_hex() const { return prefix_sha256_; }
  [[nodiscard]] Result<void> finish(std::string_view tail, const FileAttributes& attributes,
                                    const WrittenCheck& check = {});

 private:
  AtomicRewrite(StagedFile staged, std::string prefix_sha256)
      : staged_(std::move(staged)), prefix_sha256_(std::move(prefix_sha256)) {}
  StagedFile staged_;
  std::string prefix_sha256_;
  // The copy's writeback, begun at once beside the caller (pith-stamp hashes
  // and reads meanwhile): joined before the tail is written, and before
  // the file closes (declared last: destroyed first).
  std::jthread writeback_;
};

// fsync of a directory, making the renames in it durable.
[[nodiscard]] Result<void> sync_directory(const std::filesystem::path& dir);
// syncfs of the filesystem holding `path`: one flush for many staged files.
void sync_file_system(const std::filesystem::path& path);

// Appends `tail` to `target`, which must still be exactly `expected_length`
// bytes long (else nothing is written). Truncates back on any error,
// including `check` (when set) failing on the appended file.
[[nodiscard]] Result<void> append_in_place(const std::string& target, std::uint64_t expected_length,
                                           std::string_view tail, const WrittenCheck& check = {});

}  // namespace pith
