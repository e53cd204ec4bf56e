#pragma once
// Writing a PDF without ever leaving it half-written.
//
// write_atomically(): the new content goes to a temporary file in the target's
// own directory (same filesystem, so rename is atomic), is fsynced, renamed
// over the target, and the directory is fsynced. Mode and ownership are kept.
// A crash or kill at any point leaves either the old file or the new one,
// never a mix; at worst a stray `.NAME.pith-XXXXXX` temporary file remains.
// Hard links to the target are not updated (rename makes a new inode); a
// symbolic link is followed and the file it names is replaced.
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

// Replaces (or creates) `target` with the first `prefix_length` bytes of the
// file `source` followed by `tail`. `source` may be `target` itself.
[[nodiscard]] Result<void> write_atomically(const std::string& target, const std::string& source,
                                            std::uint64_t prefix_length, std::string_view tail,
                                            const FileAttributes& attributes);

// Appends `tail` to `target`, which must still be exactly `expected_length`
// bytes long (else nothing is written). Truncates back on any error.
[[nodiscard]] Result<void> append_in_place(const std::string& target, std::uint64_t expected_length,
                                           std::string_view tail);

}  // namespace pith
