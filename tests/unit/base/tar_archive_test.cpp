// SPDX-License-Identifier: GPL-3.0-or-later
// The one reader of tar entries (base/tar_reader) and its two uses: entries
// one at a time within bounds on sizes, counts and names, each with its
// type; and base/tar_archive's upload, written reproducibly and unpacked
// through that reader.
#include "pith/base/tar_archive.hpp"
#include "pith/base/tar_reader.hpp"
#include "support/test_data.hpp"

#include <catch2/catch.hpp>

#include <archive.h>
#include <archive_entry.h>

#include <filesystem>
#include <string>
#include <sys/stat.h>
#include <vector>

namespace fs = std::filesystem;
using pith::TarEntryType;
using pith::TarLimits;
using pith::TarMember;
using pith::TarReader;
using pith::test::fresh_temp_dir;
using pith::test::read_file;

namespace {

TarLimits bounded(std::size_t bytes, std::size_t members = 100) {
  TarLimits limits;
  limits.max_member_bytes = bytes;
  limits.max_members = members;
  return limits;
}

std::vector<TarMember> all_entries(const fs::path& archive, const TarLimits& limits) {
  auto reader = TarReader::open(archive.string(), limits);
  REQUIRE(reader);
  std::vector<TarMember> out;
  for (;;) {
    auto member = reader->next();
    REQUIRE(member);
    if (!*member) return out;
    out.push_back(std::move(**member));
  }
}

// A plain tar with what the upload never holds: a directory, a symbolic
// link, a name with `..`, written by libarchive as another tool would.
constexpr unsigned hard_link = 1;

struct RawEntry {
  std::string name;
  unsigned type;  // AE_IFREG, AE_IFDIR, AE_IFLNK, AE_IFIFO, or hard_link (content_or_target: the earlier name)
  std::string content_or_target;
};

fs::path raw_tar(const fs::path& dir, const std::vector<RawEntry>& entries) {
  const fs::path path = dir / "raw.tar";
  archive* a = archive_write_new();
  REQUIRE(archive_write_set_format_pax_restricted(a) == ARCHIVE_OK);
  REQUIRE(archive_write_open_filename(a, path.c_str()) == ARCHIVE_OK);
  for (const auto& e : entries) {
    archive_entry* entry = archive_entry_new();
    archive_entry_set_pathname(entry, e.name.c_str());
    archive_entry_set_filetype(entry, e.type);
    archive_entry_set_perm(entry, e.type == AE_IFDIR ? 0755 : 0644);
    if (e.type == AE_IFLNK) archive_entry_set_symlink(entry, e.content_or_target.c_str());
    if (e.type == hard_link) {  // a second name of an earlier file, as `tar cf` writes it
      archive_entry_set_filetype(entry, AE_IFREG);
      archive_entry_set_hardlink(entry, e.content_or_target.c_str());
    }
    archive_entry_set_size(entry, e.type == AE_IFREG ? static_cast<la_int64_t>(e.content_or_target.size()) : 0);
    REQUIRE(archive_write_header(a, entry) == ARCHIVE_OK);
    if (e.type == AE_IFREG) archive_write_data(a, e.content_or_target.data(), e.content_or_target.size());
    archive_entry_free(entry);
  }
  REQUIRE(archive_write_close(a) == ARCHIVE_OK);
  archive_write_free(a);
  return path;
}

}  // namespace

TEST_CASE("tar: the upload written is read back entry by entry and unpacked with its times") {
  const fs::path dir = fresh_temp_dir("tar");
  pith::test::write_file(dir / "main.tex", "\\documentclass{article}\n");
  const std::vector<pith::TarEntry> entries = {{"main.tex", dir / "main.tex", ""},
                                               {"figures/plot.pdf", {}, std::string("%PDF-\0\xff", 7)},
                                               {"00README.json", {}, "{}"}};
  const fs::path archive = dir / "upload.tar.gz";
  REQUIRE(pith::write_tar_gz(archive, entries, 1700000000));

  const auto read = all_entries(archive, bounded(1024, 3));
  REQUIRE(read.size() == 3);
  CHECK(read[0].name == "main.tex");
  CHECK(read[0].bytes == "\\documentclass{article}\n");
  CHECK(read[1].name == "figures/plot.pdf");
  CHECK(read[1].bytes == std::string("%PDF-\0\xff", 7));
  for (const auto& m : read) {
    CHECK(m.type == TarEntryType::file);
    CHECK(m.mtime == 1700000000);
    CHECK_FALSE(m.error);
  }

  const fs::path upload = dir / "upload";
  fs::create_directory(upload);
  REQUIRE(pith::extract_tar(archive, upload, bounded(1024, 3)));
  CHECK(read_file(upload / "figures/plot.pdf") == std::string("%PDF-\0\xff", 7));
  CHECK(read_file(upload / "00README.json") == "{}");
  struct stat st {};
  REQUIRE(::stat((upload / "main.tex").c_str(), &st) == 0);
  CHECK(st.st_mtime == 1700000000);
}

TEST_CASE("tar: sizes and counts beyond the bounds are not read") {
  const fs::path dir = fresh_temp_dir("tar");
  const fs::path archive = dir / "upload.tar.gz";
  REQUIRE(pith::write_tar_gz(archive, {{"a.tex", {}, "aaaa"}, {"b.tex", {}, std::string(5000, 'b')}, {"c.tex", {}, "c"}},
                             1700000000));

  SECTION("a file larger than the bound is named with an error, unread, and the next one read") {
    TarLimits limits = bounded(4096);
    limits.too_large_hint = "raise the bound";
    const auto read = all_entries(archive, limits);
    REQUIRE(read.size() == 3);
    CHECK(read[1].name == "b.tex");
    CHECK(read[1].bytes.empty());
    REQUIRE(read[1].error);
    CHECK(*read[1].error == "larger than 4096 bytes (5000): not read; raise the bound");
    CHECK(read[2].bytes == "c");
    const fs::path upload = dir / "upload";
    fs::create_directory(upload);
    const auto unpacked = pith::extract_tar(archive, upload, bounded(4096));
    REQUIRE_FALSE(unpacked);
    CHECK(unpacked.error().kind == pith::ErrorKind::malformed);
    CHECK(unpacked.error().message == "member 'b.tex' larger than 4096 bytes (5000): not read");
    CHECK_FALSE(fs::exists(upload / "b.tex"));
  }
  SECTION("more entries than the bound stop the reading") {
    auto reader = TarReader::open(archive.string(), bounded(8192, 2));
    REQUIRE(reader);
    REQUIRE(reader->next());
    REQUIRE(reader->next());
    const auto third = reader->next();
    REQUIRE_FALSE(third);
    CHECK(third.error().message == "more than 2 entries: not read further");
    CHECK(third.error().where == archive.string());
  }
}

TEST_CASE("tar: each entry's type; the corpus reads files only, the upload holds nothing else") {
  const fs::path dir = fresh_temp_dir("tar");
  const fs::path archive = raw_tar(dir, {{"papers", AE_IFDIR, ""},
                                         {"papers/link.pdf", AE_IFLNK, "/etc/passwd"},
                                         {"papers/a.pdf", AE_IFREG, "%PDF-1.7"}});
  const auto read = all_entries(archive, bounded(1024));
  REQUIRE(read.size() == 3);
  CHECK(read[0].type == TarEntryType::directory);
  CHECK(read[1].type == TarEntryType::symlink);
  CHECK(read[1].link_target == "/etc/passwd");
  CHECK(read[1].bytes.empty());
  CHECK(read[2].type == TarEntryType::file);

  auto reader = TarReader::open(archive.string(), bounded(1024));
  REQUIRE(reader);
  auto file = reader->next_file();
  REQUIRE(file);
  REQUIRE(*file);
  CHECK((*file)->name == "papers/a.pdf");
  CHECK((*file)->bytes == "%PDF-1.7");
  auto end = reader->next_file();
  REQUIRE(end);
  CHECK_FALSE(*end);

  const fs::path upload = dir / "upload";
  fs::create_directory(upload);
  const auto unpacked = pith::extract_tar(archive, upload, bounded(1024));
  REQUIRE_FALSE(unpacked);
  CHECK(unpacked.error().message == "member 'papers/link.pdf' is not a file or a directory: an upload holds files only");
  CHECK(fs::is_directory(upload / "papers"));
  CHECK_FALSE(fs::exists(fs::symlink_status(upload / "papers/link.pdf")));
}

TEST_CASE("tar: names that leave the directory, and names beyond the bound") {
  const fs::path dir = fresh_temp_dir("tar");
  SECTION("`..` and absolute names are not unpacked") {
    for (const std::string name : {"../escape.tex", "/tmp/escape.tex", "a/../../escape.tex"}) {
      const fs::path archive = raw_tar(dir, {{name, AE_IFREG, "x"}});
      const fs::path upload = dir / "upload";
      fs::create_directory(upload);
      const auto unpacked = pith::extract_tar(archive, upload, bounded(1024));
      REQUIRE_FALSE(unpacked);
      CHECK(unpacked.error().message == "member '" + name + "' leaves the upload");
      CHECK(fs::is_empty(upload));
      fs::remove_all(upload);
    }
  }
  SECTION("a name longer than the bound is cut there and its entry named with an error, unread") {
    const std::string long_name = std::string(300, 'n') + ".pdf";
    const fs::path archive = raw_tar(dir, {{long_name, AE_IFREG, "%PDF-1.7"}, {"short.pdf", AE_IFREG, "%PDF"}});
    TarLimits limits = bounded(1024);
    limits.max_name_bytes = 256;
    const auto read = all_entries(archive, limits);
    REQUIRE(read.size() == 2);
    CHECK(read[0].name == std::string(256, 'n'));
    CHECK(read[0].bytes.empty());
    REQUIRE(read[0].error);
    CHECK(*read[0].error == "a name longer than 256 bytes: not read");
    CHECK(read[1].bytes == "%PDF");
  }
}

TEST_CASE("tar: next_file reads a hard link as the file it links to, and hands on every other entry") {
  const fs::path dir = fresh_temp_dir("tar-links");
  const fs::path archive = raw_tar(dir, {{"d", AE_IFDIR, ""},
                                         {"d/a.pdf", AE_IFREG, "%PDF-a"},
                                         {"d/b.pdf", AE_IFREG, "%PDF-bb"},
                                         {"d/a2.pdf", hard_link, "d/a.pdf"},
                                         {"d/s.pdf", AE_IFLNK, "a.pdf"},
                                         {"d/fifo", AE_IFIFO, ""},
                                         {"d/lost.pdf", hard_link, "d/missing.pdf"},
                                         {"d/b2.pdf", hard_link, "d/b.pdf"}});
  const auto read_files = [&](TarLimits limits) {
    auto reader = TarReader::open(archive.string(), limits);
    REQUIRE(reader);
    std::vector<TarMember> files;
    std::vector<std::string> passed_over;
    for (;;) {
      auto file = reader->next_file([&](const TarMember& m) { passed_over.push_back(m.name + " " + pith::describe(m.type)); });
      REQUIRE(file);
      if (!*file) break;
      files.push_back(std::move(**file));
    }
    CHECK(passed_over == std::vector<std::string>{"d/ directory", "d/s.pdf symbolic link", "d/fifo fifo"});
    return files;
  };
  SECTION("every file and hard link is a file read, in the archive's order") {
    const auto files = read_files(bounded(1024));
    REQUIRE(files.size() == 5);
    CHECK(files[2].name == "d/a2.pdf");
    CHECK(files[2].type == TarEntryType::hard_link);
    CHECK(files[2].bytes == "%PDF-a");
    CHECK_FALSE(files[2].error);
    CHECK(files[3].name == "d/lost.pdf");
    REQUIRE(files[3].error);
    CHECK(files[3].error->starts_with("a hard link to 'd/missing.pdf', which is not a file read before it"));
    CHECK(files[4].bytes == "%PDF-bb");
  }
  SECTION("a file pushed out of what is held for links: the link is named with an error, never read empty") {
    TarLimits limits = bounded(1024);
    limits.max_linked_bytes = 8;  // holds b.pdf (7 bytes) only once it is read
    const auto files = read_files(limits);
    REQUIRE(files.size() == 5);
    REQUIRE(files[2].error);
    CHECK(files[2].error->find("not among the last 8 bytes of files held for links") != std::string::npos);
    CHECK(files[2].bytes.empty());
    CHECK(files[4].bytes == "%PDF-bb");
  }
}
