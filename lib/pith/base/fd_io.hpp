// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Whole reads and writes on the pipes and sockets between pith's processes
// (a check child, a worker of the pool, pith-serve's broker), and the one
// framing they share for messages: 8 bytes of length in this machine's order
// (both ends are the same program), then the bytes.
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

inline constexpr std::size_t frame_header_bytes = sizeof(std::uint64_t);
// `bytes` with its length in front.
[[nodiscard]] std::string length_framed(std::string_view bytes);
// The length at the front of `framed` (which holds at least frame_header_bytes).
[[nodiscard]] std::uint64_t frame_length(std::string_view framed);

}  // namespace pith
