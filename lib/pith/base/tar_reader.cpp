// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/base/tar_reader.hpp"

#include "pith/base/archive_library.hpp"

#include <algorithm>
#include <cstdint>
#include <sys/stat.h>

namespace pith {

namespace {

std::unexpected<Error> archive_error(const ArchiveLibrary& l, archive* a, const std::string& path) {
  const char* why = l.error_string(a);
  return fail(ErrorKind::malformed, path, std::string("not a readable archive: ") + (why ? why : "unknown error"));
}

TarEntryType type_of(const ArchiveLibrary& l, archive_entry* entry) {
  if (l.entry_hardlink(entry) != nullptr) return TarEntryType::hard_link;  // its content is another entry's
  switch (l.entry_filetype(entry)) {
    case AE_IFREG: return TarEntryType::file;
    case AE_IFDIR: return TarEntryType::directory;
    case AE_IFLNK: return TarEntryType::symlink;
    case AE_IFCHR: return TarEntryType::character_device;
    case AE_IFBLK: return TarEntryType::block_device;
    case AE_IFIFO: return TarEntryType::fifo;
    case AE_IFSOCK: return TarEntryType::socket;
    default: return TarEntryType::other;
  }
}

std::string link_target_of(const ArchiveLibrary& l, archive_entry* entry) {
  const char* target = l.entry_hardlink(entry);
  if (target == nullptr) target = l.entry_symlink(entry);
  return target ? target : "";
}

std::string too_large(const TarLimits& limits, std::optional<std::int64_t> stored_size) {
  return "larger than " + std::to_string(limits.max_member_bytes) + " bytes" +
         (stored_size ? " (" + std::to_string(*stored_size) + ")" : std::string()) + ": not read" +
         (limits.too_large_hint.empty() ? std::string() : "; " + limits.too_large_hint);
}

}  // namespace

const char* describe(TarEntryType type) {
  switch (type) {
    case TarEntryType::file: return "file";
    case TarEntryType::directory: return "directory";
    case TarEntryType::symlink: return "symbolic link";
    case TarEntryType::hard_link: return "hard link";
    case TarEntryType::character_device: return "character device";
    case TarEntryType::block_device: return "block device";
    case TarEntryType::fifo: return "fifo";
    case TarEntryType::socket: return "socket";
    case TarEntryType::other: return "member of another type";
  }
  return "member of another type";
}

void TarReader::Closer::operator()(archive* a) const { library->read_free(a); }

TarReader::TarReader(std::string path, const TarLimits& limits, const ArchiveLibrary& library, archive* a)
    : path_(std::move(path)), limits_(limits), library_(&library), archive_(a, Closer{&library}) {}
TarReader::TarReader(TarReader&&) noexcept = default;
TarReader& TarReader::operator=(TarReader&&) noexcept = default;
TarReader::~TarReader() = default;

Result<TarReader> TarReader::open(const std::string& path, const TarLimits& limits) {
  const auto library = archive_library();
  if (!library) return std::unexpected(library.error().within(path));
  const ArchiveLibrary& l = **library;
  archive* a = l.read_new();
  if (a == nullptr) return fail(ErrorKind::io, path, "cannot start the archive reader");
  TarReader reader(path, limits, l, a);
  l.read_support_filter_all(a);
  l.read_support_format_tar(a);
  l.read_support_format_gnutar(a);
  constexpr std::size_t block = 256 * 1024;
  const int opened = path == "-" ? l.read_open_fd(a, 0, block) : l.read_open_filename(a, path.c_str(), block);
  if (opened != ARCHIVE_OK) return archive_error(l, a, path);
  return reader;
}

Result<std::optional<TarMember>> TarReader::next() {
  const ArchiveLibrary& l = *library_;
  archive* a = archive_.get();
  archive_entry* entry = nullptr;
  const int r = l.read_next_header(a, &entry);
  if (r == ARCHIVE_EOF) return std::optional<TarMember>{};
  if (r != ARCHIVE_OK && r != ARCHIVE_WARN) return archive_error(l, a, path_);
  if (++entries_ > limits_.max_members)
    return fail(ErrorKind::malformed, path_, "more than " + std::to_string(limits_.max_members) + " entries: not read further");
  TarMember member;
  const char* name = l.entry_pathname(entry);
  member.name = name ? name : "";
  member.type = type_of(l, entry);
  if (member.type == TarEntryType::symlink || member.type == TarEntryType::hard_link) member.link_target = link_target_of(l, entry);
  member.mtime = l.entry_mtime(entry);
  if (member.name.size() > limits_.max_name_bytes) {
    member.name.resize(limits_.max_name_bytes);
    member.error = "a name longer than " + std::to_string(limits_.max_name_bytes) + " bytes: not read";
  } else if (member.type == TarEntryType::file) {
    const auto stored_size = l.entry_size(entry);
    if (auto read = read_content(member, l.entry_size_is_set(entry) ? stored_size : 0); !read)
      return std::unexpected(read.error());
  }
  return std::optional<TarMember>(std::move(member));
}

Result<std::optional<TarMember>> TarReader::next_file(const std::function<void(const TarMember&)>& passed_over) {
  for (;;) {
    auto member = next();
    if (!member || !*member) return member;
    TarMember& m = **member;
    if (m.type == TarEntryType::file) {
      if (!m.error) hold_for_links(m);
      return member;
    }
    if (m.type == TarEntryType::hard_link && !m.error) {
      if (const std::string* content = held_for_link(m.link_target)) {
        m.bytes = *content;
      } else {
        m.error = "a hard link to '" + m.link_target + "', which is not a file read before it" +
                  (held_bytes_ > 0 ? " (or not among the last " + std::to_string(limits_.max_linked_bytes) +
                                         " bytes of files held for links)"
                                   : std::string()) +
                  ": not read; check the archive unpacked";
      }
      return member;
    }
    if (m.type == TarEntryType::hard_link) return member;
    if (passed_over) passed_over(m);
  }
}

void TarReader::hold_for_links(const TarMember& file) {
  if (file.bytes.size() > limits_.max_linked_bytes) return;
  if (const auto it = held_by_name_.find(file.name); it != held_by_name_.end()) {
    held_bytes_ -= it->second->second.size();
    held_.erase(it->second);
    held_by_name_.erase(it);
  }
  while (!held_.empty() && held_bytes_ + file.bytes.size() > limits_.max_linked_bytes) {
    held_bytes_ -= held_.front().second.size();
    held_by_name_.erase(held_.front().first);
    held_.pop_front();
  }
  held_.emplace_back(file.name, file.bytes);
  held_by_name_[file.name] = std::prev(held_.end());
  held_bytes_ += file.bytes.size();
}

const std::string* TarReader::held_for_link(const std::string& name) {
  const auto it = held_by_name_.find(name);
  if (it == held_by_name_.end()) return nullptr;
  held_.splice(held_.end(), held_, it->second);  // the most recently linked to goes last
  return &it->second->second;
}

// Reads the current entry's content into `member.bytes`, or sets its error
// when it is larger than the bound (by the size its header gives, or by
// what it turns out to hold).
Result<void> TarReader::read_content(TarMember& member, std::int64_t stored_size) {
  const ArchiveLibrary& l = *library_;
  archive* a = archive_.get();
  const std::size_t bound = limits_.max_member_bytes;
  if (stored_size > 0 && static_cast<std::uint64_t>(stored_size) > bound) {
    member.error = too_large(limits_, stored_size);
    if (l.read_data_skip(a) != ARCHIVE_OK) return archive_error(l, a, path_);
    return {};
  }
  if (stored_size > 0) member.bytes.resize(static_cast<std::size_t>(stored_size));
  std::size_t have = 0;
  for (;;) {
    if (have == member.bytes.size()) {
      // The size the header gave is read (or none was given): one byte
      // more says whether the header told the truth; grow up to the bound.
      char probe = 0;
      const auto more = l.read_data(a, &probe, 1);
      if (more < 0) return archive_error(l, a, path_);
      if (more == 0) break;
      if (have >= bound) {
        member.bytes.clear();
        member.error = too_large(limits_, std::nullopt);
        if (l.read_data_skip(a) != ARCHIVE_OK) return archive_error(l, a, path_);
        return {};
      }
      member.bytes.resize(std::min(bound, std::max<std::size_t>(have * 2, 64 * 1024)));
      member.bytes[have++] = probe;
      continue;
    }
    const auto got = l.read_data(a, member.bytes.data() + have, member.bytes.size() - have);
    if (got < 0) return archive_error(l, a, path_);
    if (got == 0) break;
    have += static_cast<std::size_t>(got);
  }
  member.bytes.resize(have);
  return {};
}

}  // namespace pith
