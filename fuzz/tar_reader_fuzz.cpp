// SPDX-License-Identifier: GPL-3.0-or-later
// The tar reader (base/tar_reader: libarchive, plain or compressed) as
// pith-check --tar reads a corpus archive: every member in turn, a bound on
// each member's size. The input is handed over as a file (a memfd), the way
// the reader opens archives.
#include "broken_promise.hpp"
#include "pith/base/tar_reader.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <sys/mman.h>
#include <unistd.h>

namespace {
constexpr std::size_t max_member_bytes = 1 << 20;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const int fd = ::memfd_create("tar_reader_fuzz", MFD_CLOEXEC);
  if (fd < 0) return 0;
  std::size_t written = 0;
  while (written < size) {
    const ssize_t n = ::write(fd, data + written, size - written);
    if (n <= 0) break;
    written += static_cast<std::size_t>(n);
  }
  auto reader = pith::TarReader::open("/proc/self/fd/" + std::to_string(fd), max_member_bytes);
  for (int members = 0; reader && members < 10000; ++members) {
    auto member = reader->next();
    if (!member || !*member) break;
    if ((*member)->bytes.size() > max_member_bytes) {
      pith::fuzz::broken_promise("a member within the bound");
    }
  }
  ::close(fd);
  return 0;
}
