// SPDX-License-Identifier: GPL-3.0-or-later
// The tar reader (base/tar_reader: libarchive, plain or compressed) as
// pith-check --tar reads a corpus archive and pith-stamp --arxiv its upload:
// every entry in turn, bounds on each file's size, on the entries and on the
// names. The input is handed over as a file (a memfd), the way the reader
// opens archives.
#include "broken_promise.hpp"
#include "pith/base/tar_reader.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <sys/mman.h>
#include <unistd.h>

namespace {

const pith::TarLimits limits{.max_member_bytes = 1 << 20, .max_members = 10000, .max_name_bytes = 256, .too_large_hint = ""};

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
  auto reader = pith::TarReader::open("/proc/self/fd/" + std::to_string(fd), limits);
  for (std::size_t entries = 0; reader; ++entries) {
    auto member = reader->next();
    if (!member || !*member) break;
    const pith::TarMember& m = **member;
    const bool within = entries < limits.max_members && m.bytes.size() <= limits.max_member_bytes &&
                        m.name.size() <= limits.max_name_bytes && (m.type == pith::TarEntryType::file || m.bytes.empty());
    if (!within) {
      pith::fuzz::broken_promise("an entry within the bounds");
    }
  }
  ::close(fd);
  return 0;
}
