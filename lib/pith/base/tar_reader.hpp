// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The one reader of tar entries (plain, gzip, bzip2, xz, zstd: whatever
// libarchive detects), one at a time, each file's content read straight into
// memory within bounds on its size, on the number of entries and on the
// length of its name. Two callers: pith-check --tar checks a corpus in
// arXiv's bulk tar files without unpacking it (`next_file`: directories,
// links and devices skipped), and pith-stamp --arxiv unpacks the upload it
// wrote (base/tar_archive's extract_tar: every entry, by type). Streams:
// `-` reads stdin, and only the current entry is held.
#include "pith/base/error.hpp"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>

struct archive;

namespace pith {

struct TarLimits {
  std::size_t max_member_bytes = 0;  // a larger file is named with an error, unread
  std::size_t max_members = std::numeric_limits<std::size_t>::max();  // entries of any type; more is an Error
  std::size_t max_name_bytes = 4096;  // a longer name is cut there, and the entry named with an error, unread
  std::string too_large_hint;         // what to do about a file over the size bound, said after its error
};

enum class TarEntryType { file, directory, link, other };  // link: symbolic or hard; other: devices, FIFOs

struct TarMember {
  std::string name;                   // the entry's path inside the archive, as stored
  TarEntryType type = TarEntryType::file;
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
  // The next regular file, the other entries skipped.
  [[nodiscard]] Result<std::optional<TarMember>> next_file();
  [[nodiscard]] const std::string& path() const { return path_; }

 private:
  TarReader(std::string path, const TarLimits& limits, archive* a);
  [[nodiscard]] Result<void> read_content(TarMember& member, std::int64_t stored_size);
  std::string path_;
  TarLimits limits_;
  std::size_t entries_ = 0;
  struct Closer {
    void operator()(archive* a) const;
  };
  std::unique_ptr<archive, Closer> archive_;
};

}  // namespace pith
