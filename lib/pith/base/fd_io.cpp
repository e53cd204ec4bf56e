// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/base/fd_io.hpp"

#include "pith/base/wire.hpp"

#include <cerrno>
#include <sys/socket.h>
#include <unistd.h>

namespace pith {

bool write_all(int fd, std::string_view bytes, PeerKind peer) {
  while (!bytes.empty()) {
    const ssize_t n = peer == PeerKind::socket ? ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL)
                                               : ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

bool read_exact(int fd, char* into, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::read(fd, into, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    into += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

bool write_framed(int fd, std::string_view message, PeerKind peer) {
  // The length, then the message where it is: a child near its memory limit
  // sends its answer without a copy.
  return write_all(fd, frame_header(message.size()), peer) && write_all(fd, message, peer);
}

Result<std::string> read_framed(int fd, std::size_t max_bytes) {
  std::string header(frame_header_bytes, '\0');
  if (!read_exact(fd, header.data(), header.size())) return fail(ErrorKind::io, "", "the stream ended before a message");
  const std::uint64_t length = *framed_length(header);
  if (length > max_bytes) {
    return fail(ErrorKind::malformed, "",
                "a message of " + std::to_string(length) + " bytes, past its bound of " + std::to_string(max_bytes));
  }
  std::string message(static_cast<std::size_t>(length), '\0');
  if (!read_exact(fd, message.data(), message.size())) return fail(ErrorKind::io, "", "the stream ended within a message");
  return message;
}

}  // namespace pith
