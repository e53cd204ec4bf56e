// SPDX-License-Identifier: GPL-3.0-or-later
// libarchive loaded when a tar is first read or written (base/archive_library),
// not linked: this program links no libarchive (unlike tar_archive_test, which
// writes hostile tars with it), so the tar below is written and read through
// the library dlopen brings in, and only once a tar is asked for.
#include "pith/base/archive_library.hpp"
#include "pith/base/tar_archive.hpp"
#include "pith/base/tar_reader.hpp"
#include "support/test_data.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

namespace fs = std::filesystem;

namespace {

// Whether a libarchive is mapped into this process now.
bool libarchive_mapped() {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line))
    if (line.find("/libarchive.so") != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("archive library: not in the process until a tar is written, then a tar round-trips through it") {
  CHECK_FALSE(libarchive_mapped());
  const fs::path dir = pith::test::fresh_temp_dir("archive-library");
  const fs::path archive = dir / "upload.tar.gz";
  REQUIRE(pith::write_tar_gz(archive, {{"main.tex", {}, "\\documentclass{article}\n"}}, 1700000000));
  CHECK(libarchive_mapped());

  pith::TarLimits limits;
  limits.max_member_bytes = 1024;
  auto reader = pith::TarReader::open(archive.string(), limits);
  REQUIRE(reader);
  auto member = reader->next();
  REQUIRE(member);
  REQUIRE(*member);
  CHECK((*member)->name == "main.tex");
  CHECK((*member)->bytes == "\\documentclass{article}\n");
  CHECK((*member)->mtime == 1700000000);
  auto end = reader->next();
  REQUIRE(end);
  CHECK_FALSE(*end);

  const auto library = pith::archive_library();
  REQUIRE(library);
  CHECK(*library == *pith::archive_library());  // loaded once
}

TEST_CASE("archive library: one that cannot be loaded is an io error saying what to install") {
  const auto missing = pith::load_archive_library("libarchive-not-installed.so.13");
  REQUIRE_FALSE(missing);
  CHECK(missing.error().kind == pith::ErrorKind::io);
  CHECK(missing.error().where.empty());  // the caller names the tar
  CHECK(missing.error().message.starts_with("cannot load libarchive, which reading or writing a tar needs ("));
  CHECK(missing.error().message.find("libarchive-not-installed.so.13") != std::string::npos);
  CHECK(missing.error().message.ends_with("): install it (Debian: apt install libarchive13)"));
  CHECK(missing.error().within("corpus.tar").describe().starts_with("corpus.tar: cannot load libarchive"));
}

TEST_CASE("archive library: a library without libarchive's functions is refused by name") {
  const auto other = pith::load_archive_library("libz.so.1");  // loads, but is not libarchive
  REQUIRE_FALSE(other);
  CHECK(other.error().kind == pith::ErrorKind::io);
  CHECK(other.error().message.find("libz.so.1 lacks a function pith uses: libarchive 3 is needed") != std::string::npos);
}
