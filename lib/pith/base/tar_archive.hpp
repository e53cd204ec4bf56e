// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A gzip'd POSIX tar of files, written so that the same files give the same
// bytes (entries in the caller's order, no owner, mode 0644, no time in the
// gzip header) and atomically (base/atomic_file: beside its name, fsync,
// rename, fsync the directory); and the unpacking of one into a directory
// through the one reader of tar entries (base/tar_reader), within its
// bounds, refusing absolute names, `..`, links and devices. pith-stamp
// --arxiv's upload (stamp/arxiv.cpp) is written and rebuilt with these.
#include "pith/base/error.hpp"
#include "pith/base/tar_reader.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace pith {

struct TarEntry {
  std::string name;               // relative, '/'-separated
  std::filesystem::path source;   // the file's bytes, or empty when `content` is the content
  std::string content;
};

// Writes `entries` to `path`. Each entry's time is `epoch` when given
// (SOURCE_DATE_EPOCH), else its source file's; an entry without a source
// gets the newest source's time.
[[nodiscard]] Result<void> write_tar_gz(const std::filesystem::path& path, const std::vector<TarEntry>& entries,
                                        std::optional<std::int64_t> epoch);

// Unpacks the tar archive `path` (any filter libarchive reads) into `dir`:
// its files (with their times) and directories. A member that would land
// outside `dir`, a link, a device, a member twice, or one beyond `limits`
// is an Error (malformed).
[[nodiscard]] Result<void> extract_tar(const std::filesystem::path& path, const std::filesystem::path& dir,
                                       const TarLimits& limits);

}  // namespace pith
