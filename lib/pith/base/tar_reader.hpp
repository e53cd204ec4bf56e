// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The regular files of a tar archive (plain, gzip, bzip2, xz, zstd: whatever
// libarchive detects), one at a time, read straight into memory: a corpus in
// arXiv's bulk tar files is checked without unpacking it to disk. Links,
// directories and devices are skipped; a member larger than the bound is
// named with an error rather than read. Streams: `-` reads stdin, and only
// the current member is held.
#include "pith/base/error.hpp"

#include <cstddef>
#include <memory>
#include <optional>
#include <string>

struct archive;

namespace pith {

struct TarMember {
  std::string name;                   // the member's path inside the archive, as stored
  std::string bytes;                  // its content (empty when `error` is set)
  std::optional<std::string> error;   // e.g. "larger than 268435456 bytes: not read"
};

class TarReader {
 public:
  // Opens `path` (`-`: standard input). An unreadable file or an archive
  // libarchive does not recognise is an Error naming it.
  [[nodiscard]] static Result<TarReader> open(const std::string& path, std::size_t max_member_bytes);
  TarReader(TarReader&&) noexcept;
  TarReader& operator=(TarReader&&) noexcept;
  ~TarReader();

  // The next regular member; std::nullopt at the end. A damaged archive (a
  // truncated gzip stream, a bad header) is an Error: nothing after it can
  // be trusted to be where the header says.
  [[nodiscard]] Result<std::optional<TarMember>> next();
  [[nodiscard]] const std::string& path() const { return path_; }

 private:
  TarReader(std::string path, std::size_t max_member_bytes, archive* a);
  std::string path_;
  std::size_t max_member_bytes_ = 0;
  struct Closer {
    void operator()(archive* a) const;
  };
  std::unique_ptr<archive, Closer> archive_;
};

}  // namespace pith
