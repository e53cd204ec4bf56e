// SPDX-License-Identifier: GPL-3.0-or-later
// A check run in a child process: the child only reads and the parent
// judges what it sent; a crash, a runaway loop, a hang or a memory blow-up
// becomes an `error` verdict. And the FileCheck's wire form (pith-serve's
// broker to its HTTP side) keeps everything the verdict is made of.
#include "pith/check/file.hpp"
#include "pith/runner/isolation.hpp"
#include "support/isolated.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <csignal>
#include <thread>
#include <vector>

using namespace pith;
using pith::test::isolated;

namespace {

Report sample_report() {
  Report r;
  r.input = "paper.pdf";
  r.input_kind = "pdf";
  r.pith_number = "pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65";
  r.extra["pith_sources"] = nlohmann::json::array({{{"source", "info_number"}}});
  r.pass("pdf.number.found", "found");
  r.trust_anchor("bundle.signature.valid", "trusted");
  r.warn("pdf.bytes.later_revisions", "1 later revision");
  r.skip("pdf.title.undetermined", "bad \xff utf-8");
  return r;
}

// Small limits for the failure cases. Each case lets only the limit it is
// about bite: a loaded machine may take long to burn 1 s of CPU, so the other
// limits stay generous.
runner::IsolationLimits only_cpu_limit() {
  runner::IsolationLimits l;
  l.cpu_seconds = 1;
  l.wall_seconds = 600;
  return l;
}
runner::IsolationLimits only_wall_limit() {
  runner::IsolationLimits l;
  l.wall_seconds = 2;
  return l;
}
runner::IsolationLimits only_memory_limit() {
  runner::IsolationLimits l;
  l.memory_bytes = std::uint64_t{512} << 20;
  l.wall_seconds = 600;
  return l;
}

// Through the broker's reply: the wire form, as text and back.
check::FileCheck through_wire(const check::FileCheck& sent) {
  const std::string text =
      check::file_check_to_wire(sent).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  auto back = check::file_check_from_wire(nlohmann::json::parse(text));
  REQUIRE(back);
  return std::move(*back);
}

}  // namespace

TEST_CASE("a FileCheck comes back whole through its wire form, verdict included", "[isolation]") {
  const Report expected = sample_report();
  const Report got = through_wire(expected).report;
  CHECK_FALSE(got.error);
  CHECK(got.input == expected.input);
  CHECK(got.input_kind == "pdf");
  CHECK(got.pith_number == expected.pith_number);
  CHECK(got.extra == expected.extra);
  REQUIRE(got.checks().size() == expected.checks().size());
  CHECK(got.checks()[1].anchors_trust);
  CHECK(got.checks()[2].status == CheckStatus::warn);
  CHECK(got.verdict() == Verdict::verified);

  Report not_found;
  not_found.number_found = false;
  not_found.skip("pdf.number.found", "none");
  CHECK(through_wire(not_found).report.verdict() == Verdict::not_found);

  Report errored;
  errored.error = pith::Error{pith::ErrorKind::malformed, {}, "damaged"};
  const auto e = through_wire(errored);
  CHECK(e.report.error->message == "damaged");
  CHECK(e.report.error->kind == pith::ErrorKind::malformed);  // the kind crosses the wire by name
  CHECK_FALSE(e.carried);
}

TEST_CASE("the carried copy comes back typed beside the report", "[isolation]") {
  check::CarriedCopy carried;
  carried.kind = pith::registry::DocumentKind::bundle;
  carried.event_ids = {"sha256:aa", "sha256:bb"};
  carried.built_at = "2026-01-02T03:04:05Z";
  carried.completeness = nlohmann::json{{"corrections", 1}, {"timestamp_proofs", 0}};
  const auto got = through_wire(check::FileCheck{sample_report(), carried});
  REQUIRE(got.carried);
  CHECK(*got.carried == carried);
  CHECK(got.report.verdict() == Verdict::verified);
  // pith-check --json prints it as details.carried, beside the report's own details.
  const auto json = got.to_json();
  CHECK(json["details"]["carried"]["kind"] == "bundle");
  CHECK(json["details"]["carried"]["event_ids"].size() == 2);
  CHECK(json["details"]["carried"]["built_at"] == "2026-01-02T03:04:05Z");
  CHECK(json["details"]["carried"]["completeness"]["corrections"] == 1);
}

TEST_CASE("what the child sends comes back to the judge unchanged", "[isolation]") {
  const std::string bytes("facts\0\xff\n", 8);
  const Report r = isolated("paper.pdf", [&] { return bytes; });
  CHECK_FALSE(r.error);
  REQUIRE(r.find("test.ran"));
  CHECK(r.find("test.ran")->detail == bytes);
  CHECK(r.input == "paper.pdf");
}

TEST_CASE("the wire form is checked on the way back", "[isolation]") {
  check::CarriedCopy carried;
  carried.event_ids = {"sha256:aa"};
  auto whole = check::file_check_to_wire(check::FileCheck{sample_report(), carried});
  CHECK(check::file_check_from_wire(whole));
  whole["carried"]["event_ids"] = nlohmann::json::array({1});
  CHECK_FALSE(check::file_check_from_wire(whole));
  whole["carried"] = nlohmann::json{{"kind", "pamphlet"}, {"event_ids", nlohmann::json::array()}};
  CHECK_FALSE(check::file_check_from_wire(whole));
  whole.erase("carried");
  CHECK_FALSE(check::file_check_from_wire(whole));

  CHECK(check::report_from_wire(check::report_to_wire(sample_report())));
  auto wire = check::report_to_wire(sample_report());
  wire["checks"][0]["status"] = "maybe";
  CHECK_FALSE(check::report_from_wire(wire));
  CHECK_FALSE(check::report_from_wire(nlohmann::json::array()));
  auto no_flag = check::report_to_wire(sample_report());
  no_flag.erase("number_found");
  CHECK_FALSE(check::report_from_wire(no_flag));
}

TEST_CASE("every verdict-making flag survives the wire: an altered paper stays altered", "[isolation]") {
  Report altered = sample_report();
  altered.requires_content_binding = true;
  altered.content_binding("pdf.title.visible_match", "seen");
  altered.alteration("pdf.bytes.edited_text_changed", "text changed on page 3 since stamping");
  REQUIRE(altered.verdict() == pith::Verdict::altered);
  const auto back = check::report_from_wire(check::report_to_wire(altered));
  REQUIRE(back);
  CHECK(back->verdict() == pith::Verdict::altered);
  CHECK(through_wire(check::FileCheck{altered}).report.verdict() == pith::Verdict::altered);
  // A flag the status cannot carry is dropped: a "pass" never alters.
  auto wire = check::report_to_wire(altered);
  wire["checks"].back()["status"] = "pass";
  const auto passed = check::report_from_wire(wire);
  REQUIRE(passed);
  CHECK(passed->verdict() == pith::Verdict::verified);
}

TEST_CASE("a crash in the child is an error naming the signal", "[isolation]") {
  const Report r = isolated("crash.pdf", []() -> std::string {
    std::raise(SIGSEGV);
    return {};
  });
  REQUIRE(r.error);
  CHECK(r.error->message.find("crashed (signal 11") != std::string::npos);
  CHECK(r.input == "crash.pdf");
  CHECK(r.verdict() == Verdict::error);
}

TEST_CASE("a runaway loop hits the CPU-time limit", "[isolation]") {
  const Report r = isolated("loop.pdf", []() -> std::string {
    volatile unsigned long spin = 0;
    for (;;) spin = spin + 1;
  }, only_cpu_limit());
  REQUIRE(r.error);
  CHECK(r.error->message.find("CPU-time limit") != std::string::npos);
}

TEST_CASE("a hang that uses no CPU hits the wall-clock limit", "[isolation]") {
  const Report r = isolated("hang.pdf", []() -> std::string {
    for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
  }, only_wall_limit());
  REQUIRE(r.error);
  CHECK(r.error->message.find("wall-clock limit") != std::string::npos);
}

TEST_CASE("a memory blow-up hits the memory limit", "[isolation]") {
  const Report r = isolated("big.pdf", []() -> std::string {
    std::vector<std::vector<char>> hog;
    for (;;) hog.emplace_back(std::size_t{64} << 20, 'x');
  }, only_memory_limit());
  REQUIRE(r.error);
  CHECK(r.error->message.find("memory limit") != std::string::npos);
}

TEST_CASE("the caller's buffered output is not duplicated by the child", "[isolation]") {
  // Buffered text in the parent would be written twice if the child flushed it.
  std::string captured;
  {
    int fds[2];
    REQUIRE(::pipe(fds) == 0);
    FILE* out = ::fdopen(fds[1], "w");
    REQUIRE(out != nullptr);
    std::fputs("once\n", out);  // buffered, not yet written
    (void)isolated("x.pdf", [] { return std::string(); });
    std::fclose(out);
    char buffer[64];
    ssize_t n = 0;
    while ((n = ::read(fds[0], buffer, sizeof buffer)) > 0) captured.append(buffer, static_cast<std::size_t>(n));
    ::close(fds[0]);
  }
  CHECK(captured == "once\n");
}

TEST_CASE("the generic child runner: bytes back, or the crash and limits as errors", "[isolation]") {
  // Any bytes, NUL and invalid UTF-8 included, come back unchanged.
  const std::string bytes("a\0b\xff\n", 5);
  auto back = pith::runner::run_isolated("the work", [&] { return bytes; }, pith::ChildLimits{});
  REQUIRE(back);
  CHECK(*back == bytes);

  auto crashed = pith::runner::run_isolated("reading the PDF", []() -> std::string {
    std::raise(SIGSEGV);
    return {};
  }, pith::ChildLimits{});
  REQUIRE_FALSE(crashed);
  CHECK(crashed.error().message.find("reading the PDF crashed (signal 11") == 0);
  CHECK(crashed.error().kind == pith::ErrorKind::crashed);  // the child failing, not the input: pith-serve counts it

  pith::ChildLimits small;
  small.memory_bytes = std::uint64_t{256} << 20;
  auto blown = pith::runner::run_isolated(
      "the work", [] { return std::string(std::size_t{512} << 20, 'x'); }, small);
  REQUIRE_FALSE(blown);
  CHECK(blown.error().message.find("memory limit") != std::string::npos);

  pith::ChildLimits quick;
  quick.wall_seconds = 1;
  auto hung = pith::runner::run_isolated("the work", [] {
    std::this_thread::sleep_for(std::chrono::seconds(10));
    return std::string();
  }, quick);
  REQUIRE_FALSE(hung);
  CHECK(hung.error().message.find("wall-clock limit") != std::string::npos);
}
