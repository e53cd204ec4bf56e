// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/base/atomic_file.hpp"
#include "pith/base/crypto.hpp"
#include "pith/base/mapped_file.hpp"
#include "support/pdf_samples.hpp"

#include <catch2/catch.hpp>

#include <csignal>
#include <filesystem>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;
using pith::test::read_file;
using pith::test::write_file;

namespace {

mode_t mode_of(const fs::path& p) {
  struct stat st {};
  REQUIRE(::stat(p.c_str(), &st) == 0);
  return st.st_mode & 07777;
}

// Runs `body` in a child whose file size limit is `limit` bytes (writes past it
// fail with EFBIG, like a full disk); returns the child's exit status.
template <class F>
int with_file_size_limit(rlim_t limit, F body) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    std::signal(SIGXFSZ, SIG_IGN);
    rlimit rl{limit, limit};
    ::setrlimit(RLIMIT_FSIZE, &rl);
    ::_exit(body() ? 0 : 1);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

bool temp_files_left(const fs::path& dir) {
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().filename().string().find(".pith-") != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("atomic write: prefix of the source plus the tail, mode kept") {
  const fs::path dir = pith::test::fresh_temp_dir("atomic");
  const fs::path f = dir / "paper.pdf";
  write_file(f, "ORIGINAL-BYTES");
  ::chmod(f.c_str(), 0640);
  REQUIRE(pith::write_atomically(f.string(), f.string(), 8, "+TAIL", pith::FileAttributes{0640}));
  CHECK(read_file(f) == "ORIGINAL+TAIL");
  CHECK(mode_of(f) == 0640);
  CHECK_FALSE(temp_files_left(dir));

  SECTION("a copy elsewhere leaves the source alone") {
    const fs::path out = dir / "copy.pdf";
    REQUIRE(pith::write_atomically(out.string(), f.string(), 13, "!", pith::FileAttributes{0644}));
    CHECK(read_file(out) == "ORIGINAL+TAIL!");
    CHECK(read_file(f) == "ORIGINAL+TAIL");
  }
  SECTION("a symbolic link: the file it names is replaced, the link stays") {
    const fs::path link = dir / "link.pdf";
    fs::create_symlink(f, link);
    REQUIRE(pith::write_atomically(link.string(), link.string(), 13, "?", pith::FileAttributes{0640}));
    CHECK(fs::is_symlink(link));
    CHECK(read_file(f) == "ORIGINAL+TAIL?");
  }
}

TEST_CASE("atomic write: a failure leaves the original byte-identical and no temporary file") {
  const fs::path dir = pith::test::fresh_temp_dir("atomic-fail");
  const fs::path f = dir / "paper.pdf";
  const std::string original(100'000, 'x');
  write_file(f, original);

  SECTION("disk full while writing") {
    const int rc = with_file_size_limit(50'000, [&] {
      return !pith::write_atomically(f.string(), f.string(), original.size(), "tail", pith::FileAttributes{0644});
    });
    CHECK(rc == 0);  // the write reported failure
    CHECK(read_file(f) == original);
    CHECK_FALSE(temp_files_left(dir));
  }
  SECTION("missing directory") {
    auto r = pith::write_atomically((dir / "nope" / "x.pdf").string(), f.string(), 10, "t", pith::FileAttributes{0644});
    REQUIRE_FALSE(r);
    CHECK(r.error().message.find("temporary") != std::string::npos);
  }
  SECTION("source shorter than the prefix asked for") {
    auto r = pith::write_atomically(f.string(), f.string(), original.size() + 10, "t", pith::FileAttributes{0644});
    REQUIRE_FALSE(r);
    CHECK(read_file(f) == original);
    CHECK_FALSE(temp_files_left(dir));
  }
}

TEST_CASE("whole-file atomic write: the bytes, mode 0644, a link replaced rather than followed") {
  const fs::path dir = pith::test::fresh_temp_dir("atomic-whole");
  const fs::path f = dir / "pith.sty";
  REQUIRE(pith::write_file_atomically(f, "first"));
  CHECK(read_file(f) == "first");
  CHECK(mode_of(f) == 0644);
  REQUIRE(pith::write_file_atomically(f, "second", pith::Durability::none));
  CHECK(read_file(f) == "second");
  CHECK_FALSE(temp_files_left(dir));

  const fs::path link = dir / "link.sty";
  fs::create_symlink(f, link);
  REQUIRE(pith::write_file_atomically(link, "own", pith::Durability::file));
  CHECK_FALSE(fs::is_symlink(link));
  CHECK(read_file(link) == "own");
  CHECK(read_file(f) == "second");

  auto missing = pith::write_file_atomically(dir / "nope" / "x", "t");
  REQUIRE_FALSE(missing);
  CHECK(missing.error().message.find("temporary") != std::string::npos);
}

TEST_CASE("staged files: nothing at the target until committed, nothing left when dropped") {
  const fs::path dir = pith::test::fresh_temp_dir("atomic-staged");
  {
    auto dropped = pith::StagedFile::beside(dir / "a.json");
    REQUIRE(dropped);
    REQUIRE(dropped->append("never"));
  }
  CHECK_FALSE(fs::exists(dir / "a.json"));
  CHECK_FALSE(temp_files_left(dir));

  auto kept = pith::StagedFile::beside(dir / "b.json");
  REQUIRE(kept);
  REQUIRE(kept->append("part one, "));
  REQUIRE(kept->append("part two"));
  REQUIRE(kept->close());
  CHECK_FALSE(fs::exists(dir / "b.json"));
  REQUIRE(kept->commit());
  CHECK(read_file(dir / "b.json") == "part one, part two");
  REQUIRE(pith::sync_directory(dir));
  CHECK_FALSE(temp_files_left(dir));
}

TEST_CASE("append in place: appends, refuses a changed file, truncates back on failure") {
  const fs::path dir = pith::test::fresh_temp_dir("append");
  const fs::path f = dir / "big.pdf";
  const std::string original(100'000, 'y');
  write_file(f, original);

  SECTION("success") {
    REQUIRE(pith::append_in_place(f.string(), original.size(), "UPDATE"));
    CHECK(read_file(f) == original + "UPDATE");
  }
  SECTION("the file changed length since it was read") {
    auto r = pith::append_in_place(f.string(), original.size() - 1, "UPDATE");
    REQUIRE_FALSE(r);
    CHECK(read_file(f) == original);
  }
  SECTION("disk full half-way: truncated back to the original length") {
    const std::string update(10'000, 'u');
    const int rc = with_file_size_limit(original.size() + 4'096, [&] {
      auto r = pith::append_in_place(f.string(), original.size(), update);
      return !r && r.error().message.find("truncated back") != std::string::npos;
    });
    CHECK(rc == 0);
    CHECK(read_file(f) == original);
  }
}

TEST_CASE("mapped file: bytes, mode and empty files") {
  const fs::path dir = pith::test::fresh_temp_dir("map");
  write_file(dir / "a", "hello");
  ::chmod((dir / "a").c_str(), 0604);
  auto m = pith::MappedFile::open((dir / "a").string());
  REQUIRE(m);
  CHECK(m->bytes() == "hello");
  CHECK(m->mode() == 0604);
  write_file(dir / "empty", "");
  auto e = pith::MappedFile::open((dir / "empty").string());
  REQUIRE(e);
  CHECK(e->bytes().empty());
  auto missing = pith::MappedFile::open((dir / "missing").string());
  REQUIRE_FALSE(missing);
  CHECK(missing.error().where == (dir / "missing").string());
  auto d = pith::MappedFile::open(dir.string());
  REQUIRE_FALSE(d);
}

TEST_CASE("atomic rewrite: the prefix copied and hashed in one pass, then the tail; a failed check replaces nothing") {
  const fs::path dir = pith::test::fresh_temp_dir("rewrite");
  const fs::path f = dir / "paper.pdf";
  write_file(f, "ORIGINAL-BYTES");
  {
    auto copy = pith::AtomicRewrite::begin(f.string(), f.string(), 8);
    REQUIRE(copy);
    CHECK(copy->prefix_sha256_hex() == pith::sha256_hex("ORIGINAL"));
    std::string checked;
    auto refuse = [&](const std::string& written) -> pith::Result<void> {
      checked = read_file(written);
      return pith::fail(pith::ErrorKind::internal, written, "the written file is wrong");
    };
    CHECK_FALSE(copy->finish("+TAIL", pith::FileAttributes{0644}, refuse));
    CHECK(checked == "ORIGINAL+TAIL");  // the check saw the written bytes
  }
  CHECK(read_file(f) == "ORIGINAL-BYTES");
  CHECK_FALSE(temp_files_left(dir));

  auto copy = pith::AtomicRewrite::begin(f.string(), f.string(), 8);
  REQUIRE(copy);
  REQUIRE(copy->finish("+TAIL", pith::FileAttributes{0644}, [](const std::string&) -> pith::Result<void> { return {}; }));
  CHECK(read_file(f) == "ORIGINAL+TAIL");
  {
    auto abandoned = pith::AtomicRewrite::begin(f.string(), f.string(), 8);
    REQUIRE(abandoned);
  }
  CHECK_FALSE(temp_files_left(dir));
}

TEST_CASE("atomic rewrite without a hash: the prefix copied as is (the caller hashes elsewhere)") {
  const fs::path dir = pith::test::fresh_temp_dir("rewrite-nohash");
  const fs::path f = dir / "paper.pdf";
  const fs::path out = dir / "out.pdf";
  write_file(f, "ORIGINAL-BYTES");
  auto copy = pith::AtomicRewrite::begin(out.string(), f.string(), 8, pith::AtTargetLink::replace, pith::PrefixHash::none);
  REQUIRE(copy);
  CHECK(copy->prefix_sha256_hex().empty());
  REQUIRE(copy->finish("+TAIL", pith::FileAttributes{0644}));
  CHECK(read_file(out) == "ORIGINAL+TAIL");
  CHECK(read_file(f) == "ORIGINAL-BYTES");
  CHECK_FALSE(temp_files_left(dir));
}

TEST_CASE("atomic write: an output link is replaced, never written through, when asked") {
  const fs::path dir = pith::test::fresh_temp_dir("outlink");
  const fs::path victim = dir / "victim";
  const fs::path src = dir / "src.pdf";
  write_file(victim, "someone else's");
  write_file(src, "SOURCE");
  const fs::path link = dir / "out.pdf";
  fs::create_symlink(victim, link);
  REQUIRE(pith::write_atomically(link.string(), src.string(), 6, "!", pith::FileAttributes{0644}, {},
                                 pith::AtTargetLink::replace));
  CHECK_FALSE(fs::is_symlink(link));
  CHECK(read_file(link) == "SOURCE!");
  CHECK(read_file(victim) == "someone else's");
}

TEST_CASE("atomic write: a killed run's temporary file is removed, a live writer's kept") {
  const fs::path dir = pith::test::fresh_temp_dir("stale");
  const fs::path f = dir / "paper.pdf";
  write_file(f, "ORIGINAL");
  write_file(dir / ".paper.pdf.pith-AbC123", "stale copy");
  auto live = pith::StagedFile::beside(f);  // holds its lock
  REQUIRE(live);
  pith::remove_stale_temporaries(f);
  CHECK_FALSE(fs::exists(dir / ".paper.pdf.pith-AbC123"));
  CHECK(fs::exists(live->temporary_path()));
}
