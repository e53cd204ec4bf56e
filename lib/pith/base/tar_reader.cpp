// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/base/tar_reader.hpp"

#include <archive.h>
#include <archive_entry.h>
#include <algorithm>
#include <cstdint>
#include <sys/stat.h>

namespace pith {

namespace {

std::unexpected<Error> archive_error(archive* a, const std::string& path) {
  const char* why = archive_error_string(a);
  return fail(ErrorKind::malformed, path, std::string("not a readable archive: ") + (why ? why : "unknown error"));
}

}  // namespace

void TarReader::Closer::operator()(archive* a) const { archive_read_free(a); }

TarReader::TarReader(std::string path, std::size_t max_member_bytes, archive* a)
    : path_(std::move(path)), max_member_bytes_(max_member_bytes), archive_(a) {}
TarReader::TarReader(TarReader&&) noexcept = default;
TarReader& TarReader::operator=(TarReader&&) noexcept = default;
TarReader::~TarReader() = default;

Result<TarReader> TarReader::open(const std::string& path, std::size_t max_member_bytes) {
  archive* a = archive_read_new();
  if (a == nullptr) return fail(ErrorKind::io, path, "cannot start the archive reader");
  TarReader reader(path, max_member_bytes, a);
  archive_read_support_filter_all(a);
  archive_read_support_format_tar(a);
  archive_read_support_format_gnutar(a);
  constexpr std::size_t block = 256 * 1024;
  const int opened = path == "-" ? archive_read_open_fd(a, 0, block) : archive_read_open_filename(a, path.c_str(), block);
  if (opened != ARCHIVE_OK) return archive_error(a, path);
  return reader;
}

Result<std::optional<TarMember>> TarReader::next() {
  archive* a = archive_.get();
  for (;;) {
    archive_entry* entry = nullptr;
    const int r = archive_read_next_header(a, &entry);
    if (r == ARCHIVE_EOF) return std::optional<TarMember>{};
    if (r != ARCHIVE_OK && r != ARCHIVE_WARN) return archive_error(a, path_);
    if (archive_entry_filetype(entry) != AE_IFREG) continue;  // directories, links, devices: not inputs
    TarMember member;
    const char* name = archive_entry_pathname(entry);
    member.name = name ? name : "";
    const auto size = archive_entry_size(entry);
    if (archive_entry_size_is_set(entry) && size > 0 && static_cast<std::uint64_t>(size) > max_member_bytes_) {
      member.error = "larger than " + std::to_string(max_member_bytes_) + " bytes (" + std::to_string(size) +
                     "): not read; check it unpacked, or raise --max-member-size";
      if (archive_read_data_skip(a) != ARCHIVE_OK) return archive_error(a, path_);
      return std::optional<TarMember>(std::move(member));
    }
    if (size > 0) member.bytes.resize(static_cast<std::size_t>(size));
    std::size_t have = 0;
    for (;;) {
      if (have == member.bytes.size()) {
        // The size the header gave is read (or none was given): one byte
        // more says whether the header told the truth; grow up to the bound.
        char probe = 0;
        const auto more = archive_read_data(a, &probe, 1);
        if (more < 0) return archive_error(a, path_);
        if (more == 0) break;
        if (have >= max_member_bytes_) {
          member.bytes.clear();
          member.error = "larger than " + std::to_string(max_member_bytes_) +
                         " bytes: not read; check it unpacked, or raise --max-member-size";
          if (archive_read_data_skip(a) != ARCHIVE_OK) return archive_error(a, path_);
          return std::optional<TarMember>(std::move(member));
        }
        member.bytes.resize(std::min(max_member_bytes_, std::max<std::size_t>(have * 2, 64 * 1024)));
        member.bytes[have++] = probe;
        continue;
      }
      const auto got = archive_read_data(a, member.bytes.data() + have, member.bytes.size() - have);
      if (got < 0) return archive_error(a, path_);
      if (got == 0) break;
      have += static_cast<std::size_t>(got);
    }
    member.bytes.resize(have);
    return std::optional<TarMember>(std::move(member));
  }
}

}  // namespace pith
