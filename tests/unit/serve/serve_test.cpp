// SPDX-License-Identifier: GPL-3.0-or-later
// pith::serve below HTTP: the check broker (a forked process answering
// checks sent over its control socket, from several threads at once), the
// badge's escaping, the Prometheus text, what counts as a child failure,
// multipart framing, the memory budget and percent-decoding.
#include "pith/base/markup.hpp"
#include "pith/registry/trust_store.hpp"
#include "pith/serve/badge.hpp"
#include "pith/serve/broker.hpp"
#include "pith/serve/listener.hpp"
#include "pith/serve/memory_budget.hpp"
#include "pith/serve/metrics.hpp"
#include "pith/serve/multipart.hpp"
#include "support/pdf_samples.hpp"
#include "support/test_data.hpp"

#include <catch2/catch.hpp>
#include <future>
#include <vector>

using namespace pith;

TEST_CASE("the broker checks uploads as pith-check does, from several threads at once") {
  const auto trust = registry::TrustStore::with_pinned_key();
  serve::BrokerOptions options;
  options.jobs = 2;
  auto broker = serve::Broker::start(trust, options);
  REQUIRE(broker);
  REQUIRE((*broker)->alive());
  const std::string bundle = pith::test::read_data("JFLLIOJUI2M3KX3FLLGP4N2V65.bundle.json");

  std::vector<std::future<Result<serve::BrokerAnswer>>> answers;
  for (int i = 0; i < 6; ++i) {
    answers.push_back(std::async(std::launch::async, [&, i] {
      return (*broker)->check("upload-" + std::to_string(i), i % 2 == 0 ? std::string_view(bundle) : "%PDF-1.7\nbroken");
    }));
  }
  for (int i = 0; i < 6; ++i) {
    auto answer = answers[i].get();
    REQUIRE(answer);
    CHECK(answer->checked.report.input == "upload-" + std::to_string(i));
    CHECK(answer->checked.report.verdict() == (i % 2 == 0 ? Verdict::verified : Verdict::error));
    CHECK_FALSE(answer->child_failed);
  }
  CHECK((*broker)->alive());
}

TEST_CASE("a child over a limit is an unverifiable verdict and a child failure; the broker goes on") {
  const auto trust = registry::TrustStore::with_pinned_key();
  serve::BrokerOptions options;
  options.limits.max_report_bytes = 16;  // no PDF's facts fit: the child is stopped
  const auto pdf = pith::test::sample_pdf(pith::test::SamplePdf::classic);
  REQUIRE(pdf.has_value());  // make test installs TeX Live and qpdf
  auto broker = serve::Broker::start(trust, options);
  REQUIRE(broker);
  auto answer = (*broker)->check("big.pdf", pith::test::read_file(*pdf));
  REQUIRE(answer);
  CHECK(answer->checked.report.verdict() == Verdict::unverifiable);
  CHECK(answer->checked.report.stopped_by_budget());
  CHECK(answer->child_failed);
  CHECK((*broker)->alive());
}

TEST_CASE("badge text is XML-escaped") {
  CHECK(pith::markup_escape("<a href=\"x\">&'</a>\x01") == "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;");
  const std::string svg = serve::badge_svg("<script>", serve::RecordStatus::corrected);
  CHECK(svg.find("<script>") == std::string::npos);
  CHECK(svg.find("&lt;script&gt;") != std::string::npos);
  CHECK(svg.find(">corrected<") != std::string::npos);
}

TEST_CASE("metrics: cumulative histogram, verdict counters, queue depth") {
  serve::Metrics metrics;
  metrics.check_done(Verdict::verified, 0.02, false);
  metrics.check_done(Verdict::error, 3.0, true);
  metrics.set_in_flight(5, 2);
  const std::string text = metrics.text();
  CHECK(text.find("pith_checks_total{verdict=\"verified\"} 1\n") != std::string::npos);
  CHECK(text.find("pith_checks_total{verdict=\"error\"} 1\n") != std::string::npos);
  CHECK(text.find("pith_check_duration_seconds_bucket{le=\"0.025\"} 1\n") != std::string::npos);
  CHECK(text.find("pith_check_duration_seconds_bucket{le=\"5\"} 2\n") != std::string::npos);
  CHECK(text.find("pith_check_duration_seconds_bucket{le=\"+Inf\"} 2\n") != std::string::npos);
  CHECK(text.find("pith_check_queue_depth 3\n") != std::string::npos);
  CHECK(text.find("pith_checks_running 2\n") != std::string::npos);
  CHECK(text.find("pith_child_failures_total 1\n") != std::string::npos);
}

TEST_CASE("a child failure is a crash or a limit, not an unreadable input, told by the error's kind") {
  Report report;
  CHECK_FALSE(serve::is_child_failure(report));
  report.error = pith::Error{pith::ErrorKind::malformed, {}, "no startxref in the last 19 bytes (truncated or not a PDF)"};
  CHECK_FALSE(serve::is_child_failure(report));
  report.error = pith::Error{pith::ErrorKind::crashed, {}, "the check of x.pdf crashed (signal 11 (Segmentation fault))"};
  CHECK(serve::is_child_failure(report));
  report.error = pith::Error{pith::ErrorKind::limit, {}, "x.pdf took longer than 60 s and was stopped (wall-clock limit)"};
  CHECK(serve::is_child_failure(report));
  // The words are never read: a PDF's own error that quotes them is the input's.
  report.error = pith::Error{pith::ErrorKind::malformed, {}, "object 7: '(crashed (signal 11) and was stopped)'"};
  CHECK_FALSE(serve::is_child_failure(report));
  report.error = pith::Error{pith::ErrorKind::crashed, {}, "reading the PDF sent back no complete result"};
  CHECK(serve::is_child_failure(report));
}

TEST_CASE("--listen takes HOST:PORT and [IPv6]:PORT, and nothing else") {
  using pith::serve::ListenAddress;
  const auto v4 = ListenAddress::parse("127.0.0.1:8080");
  REQUIRE(v4);
  CHECK(v4->host == "127.0.0.1");
  CHECK(v4->port == 8080);
  CHECK(v4->to_string() == "127.0.0.1:8080");
  const auto v6 = ListenAddress::parse("[::1]:0");
  REQUIRE(v6);
  CHECK(v6->host == "::1");
  CHECK(v6->port == 0);
  CHECK(v6->to_string() == "[::1]:0");
  CHECK(ListenAddress::parse("localhost:65535")->port == 65535);
  for (const char* bad : {"", "8080", ":8080", "127.0.0.1:", "127.0.0.1:65536", "127.0.0.1:-1", "127.0.0.1:80x",
                          "127.0.0.1: 80", "[]:80", "127.0.0.1:99999999999999999999"}) {
    INFO(bad);
    CHECK_FALSE(ListenAddress::parse(bad));
  }
}

TEST_CASE("multipart/form-data: the part named file, else the first with a filename; broken framing is an error") {
  using pith::serve::form_boundary;
  using pith::serve::form_file;
  CHECK(form_boundary("multipart/form-data; boundary=XyZ") == "XyZ");
  CHECK(form_boundary("Multipart/Form-Data; charset=utf-8; boundary=\"a b\"") == "a b");
  CHECK_FALSE(form_boundary("application/pdf"));
  CHECK_FALSE(form_boundary("multipart/form-data"));
  CHECK_FALSE(form_boundary("multipart/form-data; boundary=" + std::string(71, 'x')));

  const std::string body =
      "preamble\r\n--B\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhello\r\n"
      "--B\r\nContent-Disposition: form-data; name=\"file\"; filename=\"p\\\"q.pdf\"\r\nContent-Type: application/pdf\r\n\r\n"
      "%PDF-1.7\r\n--Bx not the end\r\n--B--\r\nepilogue";
  auto file = form_file(body, "B");
  REQUIRE(file);
  CHECK(file->filename == "p\"q.pdf");
  CHECK(file->data == "%PDF-1.7\r\n--Bx not the end");

  const std::string by_filename = "--B\r\nContent-Disposition: form-data; name=\"upload\"; filename=\"a.pdf\"\r\n\r\nA\r\n--B--";
  REQUIRE(form_file(by_filename, "B"));
  CHECK(form_file(by_filename, "B")->data == "A");
  const std::string empty = "--B\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\n\r\n--B--\r\n";
  REQUIRE(form_file(empty, "B"));
  CHECK(form_file(empty, "B")->data.empty());

  const auto no_file = form_file("--B\r\nContent-Disposition: form-data; name=\"other\"\r\n\r\nvalue\r\n--B--", "B");
  REQUIRE_FALSE(no_file);
  CHECK(no_file.error().kind == ErrorKind::not_found);
  for (const std::string bad : {"", "--B", "--B\r\ngarbage without headers", "--B\r\nX: y\r\n\r\nnever closed",
                                "--Bjunk\r\n\r\n", "no boundary at all"}) {
    INFO(bad);
    const auto broken = form_file(bad, "B");
    REQUIRE_FALSE(broken);
    CHECK(broken.error().kind == ErrorKind::malformed);
  }
}

TEST_CASE("the memory budget holds what fits and refuses the rest; a reservation gives back what it held") {
  serve::MemoryBudget budget(1000);
  CHECK(budget.try_reserve(600));
  CHECK_FALSE(budget.try_reserve(401));
  {
    serve::MemoryReservation upload(budget);
    CHECK(upload.hold_at_least(300));
    CHECK(upload.hold_at_least(400));  // grows by 100
    CHECK(budget.reserved() == 1000);
    CHECK_FALSE(upload.hold_at_least(401));
    CHECK(upload.bytes() == 400);
    serve::MemoryReservation moved = std::move(upload);
    CHECK(moved.bytes() == 400);
  }
  CHECK(budget.reserved() == 600);
  CHECK(budget.peak() == 1000);

  serve::BudgetPlan plan{100 << 20, 2u << 30, 130 << 20};
  CHECK_FALSE(plan.shortfall(plan.minimum()));
  const auto short_by = plan.shortfall(plan.minimum() - 1);
  REQUIRE(short_by);
  CHECK(short_by->find("raise --memory-budget, or lower --jobs, --check-memory or --max-upload") != std::string::npos);
  CHECK(serve::byte_size_text(std::size_t{3} << 30) == "3.0 GiB");
  CHECK(serve::byte_size_text(std::size_t{64} << 20) == "64 MiB");
}

TEST_CASE("request paths and query values are percent-decoded; a broken escape is refused") {
  CHECK(serve::percent_decode("pith%3A2021%3AJFLL") == "pith:2021:JFLL");
  CHECK(serve::percent_decode("a+b") == "a+b");
  CHECK(serve::percent_decode("a+b%20c", true) == "a b c");
  CHECK_FALSE(serve::percent_decode("%"));
  CHECK_FALSE(serve::percent_decode("%4"));
  CHECK_FALSE(serve::percent_decode("%zz"));
  serve::Request request;
  request.target = "/api/v1/check?x=1&name=my%20paper.pdf&empty";
  CHECK(request.query("name") == "my paper.pdf");
  CHECK(request.query("empty") == "");
  CHECK_FALSE(request.query("none"));
}
