// SPDX-License-Identifier: GPL-3.0-or-later
// pith::Job (base/job.hpp): the one exit path of every tool. What a job's
// run ends with becomes the exit code: its own code, an Error printed as one
// line and mapped by exit_code_for, CLI11's usage errors exit 2, anything
// thrown one line and exit 2; --list-options lists what declare() declared.
#include "pith/base/job.hpp"

#include <CLI/CLI.hpp>
#include <catch2/catch.hpp>
#include <functional>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

class TestJob final : public pith::Job {
 public:
  explicit TestJob(std::function<pith::Result<int>(TestJob&)> body) : Job("pith-test"), body_(std::move(body)) {}
  std::string name;
  bool flag = false;
  [[nodiscard]] std::unexpected<pith::Error> usage_pointing_at_help(std::string m) { return usage_with_help(std::move(m)); }

 private:
  void declare(CLI::App& app) override {
    app.add_option("--name", name, "a name")->type_name("NAME");
    app.add_flag("--flag", flag, "a flag");
  }
  pith::Result<int> run() override { return body_(*this); }
  std::function<pith::Result<int>(TestJob&)> body_;
};

struct Ran {
  int code;
  std::string out;
  std::string err;
};

// Runs `job` on `args`, capturing what it prints.
Ran run(TestJob& job, std::vector<std::string> args) {
  args.insert(args.begin(), "pith-test");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  std::ostringstream out, err;
  auto* old_out = std::cout.rdbuf(out.rdbuf());
  auto* old_err = std::cerr.rdbuf(err.rdbuf());
  const int code = job.main(static_cast<int>(argv.size()), argv.data());
  std::cout.rdbuf(old_out);
  std::cerr.rdbuf(old_err);
  return {code, out.str(), err.str()};
}

}  // namespace

TEST_CASE("a job's own exit code, after its options are parsed", "[job]") {
  TestJob job([](TestJob& j) -> pith::Result<int> { return j.flag && j.name == "x" ? 4 : 9; });
  const Ran ran = run(job, {"--flag", "--name", "x"});
  CHECK(ran.code == 4);
  CHECK(ran.err.empty());
}

TEST_CASE("an Error is one line naming the tool, and its kind's exit code", "[job]") {
  TestJob rejected([](TestJob&) -> pith::Result<int> { return pith::fail(pith::ErrorKind::rejected, "paper.pdf", "forged"); });
  Ran ran = run(rejected, {});
  CHECK(ran.code == 1);
  CHECK(ran.err == "pith-test: paper.pdf: forged\n");

  TestJob not_found([](TestJob&) -> pith::Result<int> { return pith::fail(pith::ErrorKind::not_found, "", "no number"); });
  CHECK(run(not_found, {}).code == 3);

  // Hostile text in a message reaches the terminal made visible.
  TestJob hostile([](TestJob&) -> pith::Result<int> { return pith::fail(pith::ErrorKind::io, "a\x1b[2Jb", "x"); });
  ran = run(hostile, {});
  CHECK(ran.code == 2);
  CHECK(ran.err.find('\x1b') == std::string::npos);
}

TEST_CASE("a usage error can point at --help, as CLI11's own do", "[job]") {
  TestJob job([](TestJob& j) -> pith::Result<int> { return j.usage_pointing_at_help("nothing to do"); });
  const Ran ran = run(job, {});
  CHECK(ran.code == 2);
  CHECK(ran.err == "pith-test: nothing to do\nRun with --help for more information.\n");

  TestJob never_runs([](TestJob&) -> pith::Result<int> { return 0; });
  const Ran unknown = run(never_runs, {"--bogus"});
  CHECK(unknown.code == 2);
  CHECK(unknown.err.find("--bogus") != std::string::npos);
}

TEST_CASE("anything thrown is one line and exit 2", "[job]") {
  TestJob job([](TestJob&) -> pith::Result<int> { throw std::runtime_error("boom"); });
  const Ran ran = run(job, {});
  CHECK(ran.code == 2);
  CHECK(ran.err == "pith-test: internal error: boom\n");
}

TEST_CASE("--list-options and --help read the one declaration", "[job]") {
  TestJob job([](TestJob&) -> pith::Result<int> { return 7; });
  Ran ran = run(job, {"--list-options"});
  CHECK(ran.code == 0);
  CHECK(ran.out.find("--name\tvalue\tNAME\ta name\n") != std::string::npos);
  CHECK(ran.out.find("--flag\tflag\t-\ta flag\n") != std::string::npos);
  TestJob help([](TestJob&) -> pith::Result<int> { return 7; });
  ran = run(help, {"--help"});
  CHECK(ran.code == 0);
  CHECK(ran.out.find("--name") != std::string::npos);
}

TEST_CASE("JobOutcome: no failure is 0, a failure's kind gives the code", "[job]") {
  enum class Status { done, error };
  pith::JobOutcome<Status> outcome;
  CHECK(outcome.status == Status::error);
  outcome.status = Status::done;
  CHECK(outcome.succeeded());
  CHECK(outcome.exit_code() == 0);
  outcome.failure = pith::ErrorKind::unverifiable;
  CHECK(outcome.exit_code() == 4);
}
