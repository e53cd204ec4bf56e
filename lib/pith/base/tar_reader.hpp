// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The one reader of tar entries (plain, gzip, bzip2, xz, zstd: whatever
// libarchive detects), one at a time, each file's content read straight into
// memory within bounds on its size, on the number of entries and on the
// length of its name. Two callers: pith-check --tar checks a corpus in
// arXiv's bulk tar files without unpacking it (`next_file`: regular files,
// and hard links read as the file they link to; every other entry is handed
// to the caller to count and name), and pith-stamp --arxiv unpacks the upload it
// wrote (base/tar_archive's extract_tar: every entry, by type). Streams:
// `-` reads stdin, and only the current entry is held. libarchive is loaded
// by the first open (base/archive_library), not linked.
#include "pith/base/error.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <list>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>

struct archive;

namespace pith {

struct ArchiveLibrary;

struct TarLimits {
  std::size_t max_member_bytes = 0;  // a larger file is named with an error, unread
  std::size_t max_members = std::numeric_limits<std::size_t>::max();  // entries of any type; more is an Error
  std::size_t max_name_bytes = 4096;  // a longer name is cut there, and the entry named with an error, unread
  std::string too_large_hint;         // what to do about a file over the size bound, said after its error
  // next_file: the earlier files' contents held, the least recently linked
  // to dropped first, so a hard link is read as the file it links to
  // (`tar cf` stores a second name of a file as a link to the first).
  std::size_t max_linked_bytes = std::size_t{128} << 20;
};

// hard_link: a second name of an earlier entry (its content is that entry's).
enum class TarEntryType { file, directory, symlink, hard_link, character_device, block_device, fifo, socket, other };

// "symbolic link", "hard link", "fifo", ...: what a person calls the type.
[[nodiscard]] const char* describe(TarEntryType type);

struct TarMember {
  std::string name;                   // the entry's path inside the archive, as stored
  TarEntryType type = TarEntryType::file;
  std::string link_target;            // a symbolic link's target, or the entry a hard link names
  std::int64_t mtime = 0;             // seconds since the epoch, as stored
  std::string bytes;                  // a file's content (empty when `error` is set, and for other types)
  std::optional<std::string> error;   // e.g. "larger than 268435456 bytes (300000000): not read"
};

class TarReader {
 public:
  // Opens `path` (`-`: standard input). An unreadable file or an archive
  // libarchive does not recognise is an Error naming it.
  [[nodiscard]] static Result<TarReader> open(const std::string& path, const TarLimits& limits);
  TarReader(TarReader&&) noexcept;
  TarReader& operator=(TarReader&&) noexcept;
  ~TarReader();

  // The next entry of any type; std::nullopt at the end. A damaged archive
  // (a truncated gzip stream, a bad header) or more entries than the bound
  // is an Error: nothing after it can be trusted to be where the header says.
  [[nodiscard]] Result<std::optional<TarMember>> next();
  // The next regular file or hard link (type hard_link, with the content of
  // the file it links to, or an error when that file is not among the
  // earlier ones held). Every other entry read on the way (directories,
  // symbolic links, devices, FIFOs) goes to `passed_over`, when given.
  [[nodiscard]] Result<std::optional<TarMember>> next_file(
      const std::function<void(const TarMember&)>& passed_over = nullptr);
  [[nodiscard]] const std::string& path() const { return path_; }

 private:
  TarReader(std::string path, const TarLimits& limits, const ArchiveLibrary& library, archive* a);
  [[nodiscard]] Result<void> read_content(TarMember& member, std::int64_t stored_size);
  std::string path_;
  TarLimits limits_;
  std::size_t entries_ = 0;
  // next_file's earlier files, for hard links: least recently used first.
  void hold_for_links(const TarMember& file);
  [[nodiscard]] const std::string* held_for_link(const std::string& name);
  std::list<std::pair<std::string, std::string>> held_;  // name, content
  std::unordered_map<std::string, std::list<std::pair<std::string, std::string>>::iterator> held_by_name_;
  std::size_t held_bytes_ = 0;
  const ArchiveLibrary* library_;
  struct Closer {
    const ArchiveLibrary* library;
    void operator()(archive* a) const;
  };
  std::unique_ptr<archive, Closer> archive_;
};

}  // namespace pith
