// SPDX-License-Identifier: GPL-3.0-or-later
// Corpus runs (runner/corpus_input.hpp): --shard splits stably and completely,
// a request to a worker carries the input back intact, and the joblog holds
// what was recorded, across a reopen, ignoring a line cut short.
#include "pith/runner/corpus_input.hpp"
#include "pith/base/tar_reader.hpp"
#include "pith/runner/corpus_summary.hpp"
#include "support/test_data.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace pith;
using namespace pith::runner;

namespace {

CorpusInput path(std::string p) {
  CorpusInput in;
  in.name = std::move(p);
  return in;
}
CorpusInput member(std::string archive, std::string m, std::string bytes) {
  CorpusInput in;
  in.archive = std::move(archive);
  in.member = std::move(m);
  in.name = in.archive + ":" + in.member;
  in.bytes = std::move(bytes);
  return in;
}

std::string temp_path(const std::string& leaf) {
  return (pith::test::process_scratch_dir() / ("corpus-input-" + leaf)).string();
}

}  // namespace

TEST_CASE("--shard K/N: each input in exactly one shard, the same on every run") {
  for (int i = 0; i < 1000; ++i) {
    const auto in = path("dir/paper-" + std::to_string(i) + ".pdf");
    int held = 0;
    for (unsigned k = 1; k <= 3; ++k) held += Shard{k, 3}.holds(in) ? 1 : 0;
    CHECK(held == 1);
  }
  // Members shard by member name, whichever path the archive has on this machine.
  CHECK(Shard{2, 7}.holds(member("/a/x.tar", "m.pdf", "")) == Shard{2, 7}.holds(member("/b/x.tar", "m.pdf", "")));
  CHECK(shard_hash("") == 14695981039346656037ull);  // FNV-1a 64: fixed forever (docs/corpus.md)
  CHECK(shard_hash("a") == 0xaf63dc4c8601ec8cull);
  CHECK(Shard::parse("2/8").value().index == 2);
  for (const char* bad : {"0/3", "4/3", "1", "/3", "1/0", "a/b", "1/3x", ""}) CHECK_FALSE(Shard::parse(bad));
}

TEST_CASE("a worker request carries the input intact") {
  const auto m = member("x.tar", "dir/a b.pdf", std::string("%PDF-\0\xff", 7));
  const std::string request = encode_input_request(request_for(m));
  const auto r = decode_input_request(request);
  REQUIRE(r);
  CHECK(r->name == "x.tar:dir/a b.pdf");
  REQUIRE(r->bytes);
  CHECK(*r->bytes == *m.bytes);
  const auto in_file = path("/some/file.pdf");
  const std::string path_request = encode_input_request(request_for(in_file));
  const auto p = decode_input_request(path_request);
  REQUIRE(p);
  CHECK(p->name == "/some/file.pdf");
  CHECK_FALSE(p->bytes);
  // Cut short, another message, bytes after the last field: refused, named.
  CHECK_FALSE(decode_input_request(request.substr(0, request.size() - 1)));
  CHECK_FALSE(decode_input_request("B0000009short"));
  CHECK_FALSE(decode_input_request("X"));
  CHECK_THAT(decode_input_request(path_request + "z").error().message, Catch::Contains("follow the last field"));
}

TEST_CASE("the joblog holds what was recorded, across a reopen; a cut line is ignored") {
  const std::string file = temp_path("joblog");
  std::filesystem::remove(file);
  {
    auto log = JobLog::open(file, false);
    REQUIRE(log);
    REQUIRE(log->record(path("a.pdf"), Verdict::verified));
    REQUIRE(log->record(member("x.tar", "b.pdf", "bytes"), Verdict::failed));
  }
  std::ofstream(file, std::ios::app) << R"({"file":"c.pd)";  // killed mid-line
  CHECK_FALSE(JobLog::open(file, false));                    // a used log needs --resume
  auto log = JobLog::open(file, true);
  REQUIRE(log);
  CHECK(log->size() == 2);
  CHECK(log->holds(path("a.pdf")));
  CHECK(log->holds(member("x.tar", "b.pdf", "")));
  CHECK_FALSE(log->holds(member("y.tar", "b.pdf", "")));
  CHECK_FALSE(log->holds(path("c.pdf")));
  std::filesystem::remove(file);
}

TEST_CASE("the joblog tells apart names that differ only in bytes that are not UTF-8") {
  const std::string file = temp_path("joblog-bytes");
  std::filesystem::remove(file);
  // \xff and \xfe both read as U+FFFD; U+FFFD itself is a third name.
  const std::string ff = "dir/paper-\xff.pdf", fe = "dir/paper-\xfe.pdf", replaced = "dir/paper-\xef\xbf\xbd.pdf";
  {
    auto log = JobLog::open(file, false);
    REQUIRE(log);
    REQUIRE(log->record(path(ff), Verdict::not_found));
    REQUIRE(log->record(member("x-\xff.tar", "m-\xff.pdf", ""), Verdict::verified));
  }
  auto log = JobLog::open(file, true);
  REQUIRE(log);
  CHECK(log->holds(path(ff)));
  CHECK_FALSE(log->holds(path(fe)));
  CHECK_FALSE(log->holds(path(replaced)));
  CHECK(log->holds(member("x-\xff.tar", "m-\xff.pdf", "")));
  CHECK_FALSE(log->holds(member("x-\xff.tar", "m-\xfe.pdf", "")));
  CHECK_FALSE(log->holds(member("x-\xfe.tar", "m-\xff.pdf", "")));
  // An archive and a member are not confused with another split of the same bytes.
  CHECK_FALSE(log->holds(member("x-\xff.tar", "", "")));
  std::filesystem::remove(file);
}

TEST_CASE("a name in JSON: shown with U+FFFD, exact in base64 beside it only when it is not UTF-8") {
  nlohmann::json line = nlohmann::json::object();
  put_exact_name(line, "file", "caf\xc3\xa9.pdf");
  CHECK_FALSE(line.contains("file_base64"));
  CHECK(get_exact_name(line, "file") == "caf\xc3\xa9.pdf");
  put_exact_name(line, "member", std::string("a\xff\0b", 4));
  CHECK(line["member_base64"] == "Yf8AYg==");
  CHECK(get_exact_name(line, "member") == std::string("a\xff\0b", 4));
  line["member_base64"] = "not base64!";
  CHECK_FALSE(get_exact_name(line, "member"));
  CHECK_FALSE(get_exact_name(line, "archive"));
}

TEST_CASE("the HTML report names every input that needs attention first, whatever the size; only quiet ones are capped") {
  CorpusSummary summary(true);
  Report quiet;
  quiet.input_kind = "pdf";
  quiet.number_found = false;
  const std::size_t quiet_count = CorpusSummary::quiet_reports_kept + 50;
  for (std::size_t i = 0; i < quiet_count; ++i) {
    quiet.input = "quiet-" + std::to_string(i) + ".pdf";
    summary.add(quiet.input, quiet, quiet.to_json(), 0.001);
  }
  Report forged;
  forged.input = "forged.pdf";
  forged.input_kind = "pdf";
  forged.pith_number = "pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65";
  forged.fail("record.hash.mismatch", "the record was altered");
  summary.add(forged.input, forged, forged.to_json(), 0.002);
  const std::string html = summary.to_html();
  const auto forged_row = html.find(">forged.pdf</a>");
  REQUIRE(forged_row != std::string::npos);
  CHECK(forged_row < html.find(">quiet-0.pdf</a>"));
  CHECK(html.find("record.hash.mismatch") != std::string::npos);
  CHECK(html.find(">quiet-" + std::to_string(CorpusSummary::quiet_reports_kept - 1) + ".pdf</a>") != std::string::npos);
  CHECK(html.find(">quiet-" + std::to_string(CorpusSummary::quiet_reports_kept) + ".pdf</a>") == std::string::npos);
  CHECK(html.find("1 need attention") != std::string::npos);
  CHECK(html.find(std::to_string(quiet_count) + " have no Pith Number (not_found): the first " +
                  std::to_string(CorpusSummary::quiet_reports_kept) + " listed after them, 50 left out") !=
        std::string::npos);
}

TEST_CASE("a joblog line carries what the summary needs of an input, and a resumed run reads it back") {
  Report forged;
  forged.input = "forged.pdf";
  forged.pass("pdf.present");
  forged.fail("pdf.bytes.prefix_broken", "the bytes before the stamp changed");
  forged.fail("pdf.bytes.prefix_broken", "twice");
  const auto entry = SummaryEntry::of("forged.pdf", forged, forged.to_json(), 0.25);
  CHECK(entry.verdict == Verdict::failed);
  CHECK(entry.failing_checks == std::vector<std::string>{"pdf.bytes.prefix_broken"});
  CHECK(entry.reason == "pdf.bytes.prefix_broken: the bytes before the stamp changed");

  const std::string file = temp_path("joblog-entries");
  std::filesystem::remove(file);
  {
    auto log = JobLog::open(file, false);
    REQUIRE(log);
    REQUIRE(log->record(path("forged.pdf"), entry.to_joblog()));
    REQUIRE(log->record(member("x.tar", "old.pdf", ""), Verdict::not_found));  // an older joblog's line: verdict only
    REQUIRE(log->record_run_end(12.5, "SIGINT"));
  }
  std::vector<std::pair<std::string, nlohmann::json>> earlier;
  auto log = JobLog::open(file, true, [&](const std::string& name, const nlohmann::json& line) { earlier.emplace_back(name, line); });
  REQUIRE(log);
  CHECK(log->size() == 2);
  CHECK(log->earlier_seconds() == 12.5);
  REQUIRE(earlier.size() == 2);
  CHECK(earlier[1].first == "x.tar:old.pdf");
  const auto back = SummaryEntry::from_joblog(earlier[0].first, earlier[0].second);
  REQUIRE(back);
  CHECK(back->name == "forged.pdf");
  CHECK(back->verdict == Verdict::failed);
  CHECK(back->failing_checks == entry.failing_checks);
  CHECK(back->reason == entry.reason);
  CHECK(back->seconds == 0.25);
  CHECK(back->report == entry.report);  // it needs attention: its report is kept
  const auto old = SummaryEntry::from_joblog(earlier[1].first, earlier[1].second);
  REQUIRE(old);
  CHECK(old->verdict == Verdict::not_found);
  CHECK(old->reason.starts_with("no Pith Number found"));
  CHECK_FALSE(SummaryEntry::from_joblog("x", nlohmann::json{{"verdict", "no such verdict"}}));
  // A quiet one's report is not kept in the joblog (most of a corpus can be not_found); its reason is.
  Report plain;
  plain.input = "plain.pdf";
  plain.number_found = false;
  plain.skip("pdf.number.found", "no Pith Number");
  const auto quiet = SummaryEntry::of("plain.pdf", plain, plain.to_json(), 0.01).to_joblog();
  CHECK(quiet["verdict"] == "not_found");
  CHECK_FALSE(quiet.contains("report"));
  CHECK(quiet.contains("reason"));

  CorpusSummary summary(true);
  summary.add(*back);
  summary.add(*old);
  CHECK(summary.to_json()["failing_checks"]["pdf.bytes.prefix_broken"] == 1);
  const std::string html = summary.to_html();
  CHECK(html.find("<th>inputs failing it</th>") != std::string::npos);
  CHECK(html.find("<td>pdf.bytes.prefix_broken: the bytes before the stamp changed</td>") != std::string::npos);
  std::filesystem::remove(file);
}

TEST_CASE("every verdict has a place in the summary, and a reason when it is not verified") {
  CHECK(every_verdict().size() == pith::verdict_count);
  CHECK(every_verdict().front() == Verdict::verified);
  CHECK(every_verdict().back() == Verdict::not_found);
  for (const Verdict v : every_verdict()) CHECK(verdict_named(to_string(v)) == v);
  Report nothing;
  nothing.input = "plain.pdf";
  nothing.input_kind = "pdf";
  CHECK_FALSE(reason_not_verified(nothing).empty());
}

TEST_CASE("the progress line's time left: by the rate so far, only once it can be known") {
  CHECK(time_left_text(10, 100, 1100) == ", about 1m40s left");
  CHECK(time_left_text(10, 100, std::size_t{100} * 400) == ", about 1h06m left");
  CHECK(time_left_text(10, 100, std::nullopt).empty());  // an archive's total is not known
  CHECK(time_left_text(0.5, 100, 1100).empty());          // too soon to say
  CHECK(time_left_text(10, 1100, 1100).empty());          // done
}
