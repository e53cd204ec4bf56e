// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Whole reads and writes on the pipes and sockets between pith's processes
// (a check child, a long-lived worker, pith-serve's broker), and whole
// messages in the one framing they share, base/wire's (append_framed: a
// little-endian u64 length, then the bytes).
#include "pith/base/error.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace pith {

enum class PeerKind {
  pipe,    // write(2): a closed reader raises SIGPIPE (the children keep its default)
  socket,  // send(2) with MSG_NOSIGNAL: a peer that went away is an error, not a signal
};

// All of `bytes`, retrying after EINTR; false when the peer is gone or on error.
[[nodiscard]] bool write_all(int fd, std::string_view bytes, PeerKind peer = PeerKind::pipe);
// Exactly `size` bytes into `into`; false at end of file first, or on error.
[[nodiscard]] bool read_exact(int fd, char* into, std::size_t size);

// `message` framed (base/wire.hpp: append_framed), written whole.
[[nodiscard]] bool write_framed(int fd, std::string_view message, PeerKind peer = PeerKind::pipe);
// The next framed message: its bytes, or an Error of kind io (end of file or
// a read error before the message is whole) or malformed (it announces more
// than `max_bytes`: refused before its bytes are read).
[[nodiscard]] Result<std::string> read_framed(int fd, std::size_t max_bytes);

}  // namespace pith
