// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// libarchive, loaded when a run first reads or writes a tar (dlopen of
// libarchive.so.13), not linked: only pith-check --tar and pith-stamp
// --arxiv use it, and a linked libarchive made every start of every tool
// load 8 more shared libraries (libarchive, nettle, acl, lz4, bz2, libxml2,
// ICU's two: measured 0.6 ms of a 5 ms start). The functions base/tar_reader
// and base/tar_archive use, by name; its headers give the types and constants.
#include "pith/base/error.hpp"

#include <archive.h>
#include <archive_entry.h>

namespace pith {

struct ArchiveLibrary {
  decltype(&::archive_error_string) error_string;
  decltype(&::archive_set_error) set_error;
  // Reading.
  decltype(&::archive_read_new) read_new;
  decltype(&::archive_read_free) read_free;
  decltype(&::archive_read_support_filter_all) read_support_filter_all;
  decltype(&::archive_read_support_format_tar) read_support_format_tar;
  decltype(&::archive_read_support_format_gnutar) read_support_format_gnutar;
  decltype(&::archive_read_open_fd) read_open_fd;
  decltype(&::archive_read_open_filename) read_open_filename;
  decltype(&::archive_read_next_header) read_next_header;
  decltype(&::archive_read_data) read_data;
  decltype(&::archive_read_data_skip) read_data_skip;
  // Writing.
  decltype(&::archive_write_new) write_new;
  decltype(&::archive_write_free) write_free;
  decltype(&::archive_write_add_filter_gzip) write_add_filter_gzip;
  decltype(&::archive_write_set_format_pax_restricted) write_set_format_pax_restricted;
  decltype(&::archive_write_set_filter_option) write_set_filter_option;
  decltype(&::archive_write_set_bytes_in_last_block) write_set_bytes_in_last_block;
  decltype(&::archive_write_open2) write_open2;
  decltype(&::archive_write_header) write_header;
  decltype(&::archive_write_data) write_data;
  decltype(&::archive_write_close) write_close;
  // Entries.
  decltype(&::archive_entry_new) entry_new;
  decltype(&::archive_entry_free) entry_free;
  decltype(&::archive_entry_pathname) entry_pathname;
  decltype(&::archive_entry_filetype) entry_filetype;
  decltype(&::archive_entry_hardlink) entry_hardlink;
  decltype(&::archive_entry_symlink) entry_symlink;
  decltype(&::archive_entry_mtime) entry_mtime;
  decltype(&::archive_entry_size) entry_size;
  decltype(&::archive_entry_size_is_set) entry_size_is_set;
  decltype(&::archive_entry_set_pathname) entry_set_pathname;
  decltype(&::archive_entry_set_size) entry_set_size;
  decltype(&::archive_entry_set_filetype) entry_set_filetype;
  decltype(&::archive_entry_set_perm) entry_set_perm;
  decltype(&::archive_entry_set_mtime) entry_set_mtime;
};

// The library, loaded once (thread-safe); when it cannot be, an Error (kind
// io, no location: the caller names the tar) that says what to install.
[[nodiscard]] Result<const ArchiveLibrary*> archive_library();

// The same functions from the library `soname`, loaded anew: archive_library()
// is this with "libarchive.so.13", kept once; tests name one that is not there.
[[nodiscard]] Result<ArchiveLibrary> load_archive_library(const char* soname);

}  // namespace pith
