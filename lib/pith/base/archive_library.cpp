// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/base/archive_library.hpp"

#include "pith/base/shared_library.hpp"

#include <string>

namespace pith {
namespace {

// Debian 12's libarchive13 (3.6); the soname has not changed since 3.0.
constexpr const char* soname = "libarchive.so.13";

bool take_reading(void* handle, ArchiveLibrary& l) {
  return take_function(handle, "archive_read_new", l.read_new) && take_function(handle, "archive_read_free", l.read_free) &&
         take_function(handle, "archive_read_support_filter_all", l.read_support_filter_all) &&
         take_function(handle, "archive_read_support_format_tar", l.read_support_format_tar) &&
         take_function(handle, "archive_read_support_format_gnutar", l.read_support_format_gnutar) &&
         take_function(handle, "archive_read_open_fd", l.read_open_fd) &&
         take_function(handle, "archive_read_open_filename", l.read_open_filename) &&
         take_function(handle, "archive_read_next_header", l.read_next_header) &&
         take_function(handle, "archive_read_data", l.read_data) &&
         take_function(handle, "archive_read_data_skip", l.read_data_skip);
}

bool take_writing(void* handle, ArchiveLibrary& l) {
  return take_function(handle, "archive_write_new", l.write_new) && take_function(handle, "archive_write_free", l.write_free) &&
         take_function(handle, "archive_write_add_filter_gzip", l.write_add_filter_gzip) &&
         take_function(handle, "archive_write_set_format_pax_restricted", l.write_set_format_pax_restricted) &&
         take_function(handle, "archive_write_set_filter_option", l.write_set_filter_option) &&
         take_function(handle, "archive_write_set_bytes_in_last_block", l.write_set_bytes_in_last_block) &&
         take_function(handle, "archive_write_open2", l.write_open2) &&
         take_function(handle, "archive_write_header", l.write_header) &&
         take_function(handle, "archive_write_data", l.write_data) && take_function(handle, "archive_write_close", l.write_close);
}

bool take_entries(void* handle, ArchiveLibrary& l) {
  return take_function(handle, "archive_entry_new", l.entry_new) && take_function(handle, "archive_entry_free", l.entry_free) &&
         take_function(handle, "archive_entry_pathname", l.entry_pathname) &&
         take_function(handle, "archive_entry_filetype", l.entry_filetype) &&
         take_function(handle, "archive_entry_hardlink", l.entry_hardlink) &&
         take_function(handle, "archive_entry_symlink", l.entry_symlink) &&
         take_function(handle, "archive_entry_mtime", l.entry_mtime) && take_function(handle, "archive_entry_size", l.entry_size) &&
         take_function(handle, "archive_entry_size_is_set", l.entry_size_is_set) &&
         take_function(handle, "archive_entry_set_pathname", l.entry_set_pathname) &&
         take_function(handle, "archive_entry_set_size", l.entry_set_size) &&
         take_function(handle, "archive_entry_set_filetype", l.entry_set_filetype) &&
         take_function(handle, "archive_entry_set_perm", l.entry_set_perm) &&
         take_function(handle, "archive_entry_set_mtime", l.entry_set_mtime);
}

}  // namespace

Result<ArchiveLibrary> load_archive_library(const char* name) {
  const auto cannot = [](const std::string& why) {
    return fail(ErrorKind::io, "",
                "cannot load libarchive, which reading or writing a tar needs (" + why +
                    "): install it (Debian: apt install libarchive13)");
  };
  // Never unloaded: the archives a process opens are freed before it exits, or with it.
  const auto take_all = [](void* handle, ArchiveLibrary& l) {
    return take_function(handle, "archive_error_string", l.error_string) &&
           take_function(handle, "archive_set_error", l.set_error) && take_reading(handle, l) && take_writing(handle, l) &&
           take_entries(handle, l);
  };
  return load_library<ArchiveLibrary>(name, "libarchive 3", take_all, cannot);
}

Result<const ArchiveLibrary*> archive_library() {
  static const Result<ArchiveLibrary> loaded = load_archive_library(soname);  // once, thread-safe (C++11 statics)
  if (!loaded) return std::unexpected(loaded.error());
  return &*loaded;
}

}  // namespace pith
