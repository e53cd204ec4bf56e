// SPDX-License-Identifier: GPL-3.0-or-later
// The child that parses PDFs runs confined (base/sandbox.hpp, entered by
// runner/isolation.hpp): a forbidden system call kills it and is reported,
// descriptors it inherited are closed, and what a check needs still works.
#include "pith/base/sandbox.hpp"
#include "pith/base/report.hpp"
#include "pith/runner/isolation.hpp"
#include "support/isolated.hpp"
#include "support/test_data.hpp"

#include <catch2/catch.hpp>

#include <csignal>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <cerrno>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

using pith::Report;
using pith::Verdict;
using pith::test::isolated;

TEST_CASE("a forbidden system call in the sandbox kills the child and is reported", "[sandbox]") {
  const auto dir = pith::test::fresh_temp_dir("sandbox-forbidden");
  const std::string written = (dir / "written-by-child").string();
  struct Attempt {
    const char* name;
    std::function<void()> act;
  };
  const Attempt attempts[] = {
      {"a socket", [] { (void)::socket(AF_INET, SOCK_STREAM, 0); }},
      {"exec", [] { ::execl("/bin/true", "true", static_cast<char*>(nullptr)); }},
      {"fork", [] { (void)::fork(); }},
      {"a signal to the parent", [] { (void)::kill(::getppid(), SIGTERM); }},
  };
  for (const auto& attempt : attempts) {
    DYNAMIC_SECTION(attempt.name) {
      const Report r = isolated("exploit.pdf", [&]() -> std::string {
        attempt.act();
        return "the forbidden call returned";
      });
      REQUIRE(r.error);
      CHECK(r.error->message.find("stopped by the sandbox") != std::string::npos);
      CHECK(r.error->message.find("exploit") == std::string::npos);  // a user's file is never called an attack
      CHECK(r.verdict() == Verdict::error);
      CHECK_FALSE(std::filesystem::exists(written));
    }
  }
}

TEST_CASE("in the sandbox opening a file to write, or making a directory, fails with EACCES and writes nothing",
          "[sandbox]") {
  // Refused quietly rather than fatally: fontconfig rewrites a stale font
  // cache when it finds one, and that must not make a PDF an "exploit".
  const auto dir = pith::test::fresh_temp_dir("sandbox-write");
  const std::string written = (dir / "written-by-child").string();
  const Report r = isolated("input.pdf", [&]() -> std::string {
    std::string results;
    for (const int flags : {O_WRONLY | O_CREAT, O_RDWR, O_WRONLY | O_APPEND, O_TMPFILE | O_WRONLY}) {
      const int fd = ::open((flags & O_TMPFILE) == O_TMPFILE ? dir.c_str() : written.c_str(), flags, 0600);
      results += fd == -1 && errno == EACCES ? "refused " : "OPENED ";
    }
    results += ::mkdir((dir / "made-by-child").c_str(), 0700) == -1 && errno == EACCES ? "refused" : "MADE";
    return results;
  });
  INFO(r.to_text());
  REQUIRE_FALSE(r.error);
  REQUIRE(r.find("test.ran"));
  CHECK(r.find("test.ran")->detail == "refused refused refused refused refused");
  CHECK_FALSE(std::filesystem::exists(written));
  CHECK_FALSE(std::filesystem::exists(dir / "made-by-child"));
}

TEST_CASE("in the sandbox a check reads files, allocates and reports", "[sandbox]") {
  const auto dir = pith::test::fresh_temp_dir("sandbox-allowed");
  pith::test::write_file(dir / "input.pdf", "%PDF-1.7\nhello\n");
  const std::string path = (dir / "input.pdf").string();
  const Report r = isolated("input.pdf", [&]() -> std::string {
    std::string text = pith::test::read_file(path);
    std::vector<char> big(std::size_t{32} << 20, 'x');  // mmap-sized allocation
    return text.substr(0, 8) + std::to_string(big.size());
  });
  INFO(r.to_text());
  REQUIRE_FALSE(r.error);
  CHECK(r.verdict() == Verdict::verified);
  REQUIRE(r.find("test.ran"));
  CHECK(r.find("test.ran")->detail == "%PDF-1.733554432");
}

TEST_CASE("in the sandbox a directory can be listed (poppler lists its data directories)", "[sandbox]") {
  const auto dir = pith::test::fresh_temp_dir("sandbox-list");
  pith::test::write_file(dir / "entry", "x");
  const Report r = isolated("x.pdf", [&]() -> std::string {
    std::size_t entries = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir)) entries += e.path().filename() == "entry" ? 1 : 0;
    return std::to_string(entries);
  });
  REQUIRE_FALSE(r.error);
  CHECK(r.find("test.ran")->detail == "1");
}

TEST_CASE("in the sandbox fontconfig's look at a font directory works (fstatfs, statfs)", "[sandbox]") {
  // Issue 26: a form PDF whose fields name a font it does not embed made
  // poppler start fontconfig, which checks each font directory's file system
  // (qpdf's button-set-broken.pdf): the child was killed, the file called an exploit.
  const auto dir = pith::test::fresh_temp_dir("sandbox-statfs");
  const Report r = isolated("form.pdf", [&]() -> std::string {
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    struct statfs by_descriptor {};
    struct statfs by_path {};
    const bool ok = fd >= 0 && ::fstatfs(fd, &by_descriptor) == 0 && ::statfs(dir.c_str(), &by_path) == 0;
    if (fd >= 0) ::close(fd);
    return ok ? "both" : "failed";
  });
  INFO(r.to_text());
  REQUIRE_FALSE(r.error);
  CHECK(r.find("test.ran")->detail == "both");
}

TEST_CASE("the child does not keep descriptors it inherited", "[sandbox]") {
  const int inherited = ::open("/dev/null", O_RDONLY);  // no O_CLOEXEC, and fork() keeps it anyway
  REQUIRE(inherited > 2);
  const Report r = isolated("x.pdf", [&]() -> std::string {
    return ::fcntl(inherited, F_GETFD) == -1 ? "closed" : "open";
  });
  ::close(inherited);
  REQUIRE_FALSE(r.error);
  CHECK(r.find("test.ran")->detail == "closed");
}

TEST_CASE("SIGSYS is the sandbox's signal", "[sandbox]") {
  CHECK(pith::killed_by_sandbox(SIGSYS));
  CHECK_FALSE(pith::killed_by_sandbox(SIGSEGV));
}
