// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Reading what a user (or an attacker) names as input, in the tool's own
// process: never blocking (a FIFO or a device is refused, not opened for a
// read that waits forever), never reading more than a bound (a huge file is
// refused after at most bound + 1 bytes, not loaded whole and then checked),
// and, for files pith trusts (keys), never one that others could replace.
#include "pith/base/error.hpp"

#include <cstddef>
#include <filesystem>
#include <string>
#include <sys/stat.h>

namespace pith {

// The whole of the regular file `path`, at most `max_bytes`. Errors (kind
// io, `where` = path): cannot open, is a directory, is not a regular file,
// read error; (kind malformed) larger than max_bytes.
[[nodiscard]] Result<std::string> read_input_file(const std::filesystem::path& path, std::size_t max_bytes);

// The first `n` bytes (fewer for a shorter file) of the regular file `path`.
[[nodiscard]] Result<std::string> read_input_head(const std::filesystem::path& path, std::size_t n);

// Whether the file at `path` is still the one `before` described (device,
// inode, size and modification time): a file rewritten or replaced while a
// tool read it is not judged (or stamped) as if it had stood still.
[[nodiscard]] bool same_file_state(const std::string& path, const struct stat& before);

// Refuses (kind usage, `where` = path) a file or directory that someone other
// than its owner could write — group or other write permission, or an owner
// other than this user or root — as ssh's StrictModes does: a key file anyone
// can replace adds no trust. `what` names it in the message ("key file").
[[nodiscard]] Result<void> check_not_writable_by_others(const std::filesystem::path& path, const char* what);

}  // namespace pith
