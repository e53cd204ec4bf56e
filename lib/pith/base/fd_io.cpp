// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/base/fd_io.hpp"

#include <cerrno>
#include <cstring>
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

std::string length_framed(std::string_view bytes) {
  const std::uint64_t length = bytes.size();
  std::string out(frame_header_bytes, '\0');
  std::memcpy(out.data(), &length, frame_header_bytes);
  out += bytes;
  return out;
}

std::uint64_t frame_length(std::string_view framed) {
  std::uint64_t length = 0;
  std::memcpy(&length, framed.data(), frame_header_bytes);
  return length;
}

}  // namespace pith
