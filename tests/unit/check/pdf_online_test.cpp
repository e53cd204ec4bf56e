// SPDX-License-Identifier: GPL-3.0-or-later
// The online comparison: the registry's current bundle against the copy a
// PDF carries (documents signed by the test signer; no network: the
// Resolution is built as the resolver returns it).
#include "pith/check/online.hpp"
#include "pith/registry/trust_store.hpp"
#include "support/test_signer.hpp"

#include <catch2/catch.hpp>

using namespace pith;
using nlohmann::json;

namespace {

const test::RecordSpec spec{};

json record() { return test::make_canonical_record(spec); }

json base_events() {
  return json::array({test::make_record_created_event(test::test_signer(), record()),
                      test::make_graph_snapshot_event(test::test_signer(), record(), spec)});
}

registry::VerifiedRecord verified(const json& bundle) {
  const auto trust = test::test_trust_store();
  auto v = registry::verify_document(test::to_bytes(bundle), trust, "bundle");
  REQUIRE(v);
  INFO(v->report.to_text());
  REQUIRE_FALSE(v->report.has_failure());
  REQUIRE(v->record());
  return *v->record();
}

// A later bundle: the same record with one more event of `type`.
json bundle_with(const std::string& type) {
  json events = base_events();
  test::EventSpec e;
  e.event_type = type;
  e.target = "record";
  e.payload = {{"note", "a later " + type}};
  e.created_at = "2026-09-01T00:00:00Z";
  events.push_back(test::make_event(test::test_signer(), test::number_of(record()), e));
  return test::assemble_bundle(test::test_signer(), record(), events);
}

// The check of a PDF that carried `carried`.
check::FileCheck pdf_report_carrying(const registry::VerifiedRecord& carried) {
  Report r;
  r.input = "paper.pdf";
  r.input_kind = "pdf";
  r.pith_number = carried.number().to_string();
  return check::FileCheck{r, check::CarriedCopy::of(carried, carried.report)};
}

Result<resolver::Resolution> served(registry::VerifiedRecord record) {
  std::string input = record.number().to_string();
  return resolver::Resolution{.input = std::move(input),
                              .identifier = {},
                              .record = std::move(record),
                              .origin = resolver::ResolutionOrigin::server,
                              .source = "https://pith.example/pith/X/bundle.json",
                              .failures = {},
                              .not_served = false,
                              .report = {}};
}

const Check* find(const check::FileCheck& r, std::string_view code) { return r.report.find(code); }

}  // namespace

TEST_CASE("the carried summary lists the applied events", "[online]") {
  const auto v = verified(test::assemble_bundle(test::test_signer(), record(), base_events()));
  const auto carried = check::CarriedCopy::of(v, v.report);
  CHECK(carried.kind == registry::DocumentKind::bundle);
  CHECK(carried.event_ids.size() == 2);
  CHECK(carried.built_at);
  const auto summary = carried.to_json();
  CHECK(summary["kind"] == "bundle");
  CHECK(summary["event_ids"].size() == 2);
  CHECK(summary.contains("built_at"));
}

TEST_CASE("the same bundle online: verified, nothing newer", "[online]") {
  const auto v = verified(test::assemble_bundle(test::test_signer(), record(), base_events()));
  check::FileCheck r = pdf_report_carrying(v);
  check::add_online_checks(r, served(v));
  INFO(r.report.to_text());
  REQUIRE(find(r, "online.verified"));
  CHECK(find(r, "online.verified")->status == CheckStatus::pass);
  CHECK(find(r, "online.events.newer")->detail == "no events since the PDF's copy");
  CHECK_FALSE(find(r, "online.corrections"));
  CHECK_FALSE(find(r, "online.events.dropped"));
  CHECK(r.report.extra["online"]["origin"] == "server");
  CHECK(r.report.extra.contains("completeness"));
}

TEST_CASE("a correction since the PDF's copy is reported", "[online]") {
  const auto carried = verified(test::assemble_bundle(test::test_signer(), record(), base_events()));
  const auto now = verified(bundle_with("correction"));
  check::FileCheck r = pdf_report_carrying(carried);
  check::add_online_checks(r, served(now));
  INFO(r.report.to_text());
  CHECK(find(r, "online.events.newer")->detail == "1 event since the PDF's copy: 1 correction");
  REQUIRE(find(r, "online.corrections"));
  CHECK(find(r, "online.corrections")->status == CheckStatus::warn);
  CHECK_FALSE(r.report.has_failure());
}

TEST_CASE("events of the PDF's copy no longer applied are a warning", "[online]") {
  const auto carried = verified(bundle_with("replication_record"));
  const auto now = verified(test::assemble_bundle(test::test_signer(), record(), base_events()));
  check::FileCheck r = pdf_report_carrying(carried);
  check::add_online_checks(r, served(now));
  INFO(r.report.to_text());
  REQUIRE(find(r, "online.events.dropped"));
  CHECK(find(r, "online.events.dropped")->status == CheckStatus::warn);
}

TEST_CASE("unreachable is a warning, a rejected answer a failure", "[online]") {
  const auto v = verified(test::assemble_bundle(test::test_signer(), record(), base_events()));
  check::FileCheck offline = pdf_report_carrying(v);
  check::add_online_checks(offline, std::unexpected(Error{ErrorKind::network, "pith:X", "no answer from https://pith.example (timeout)"}));
  CHECK(find(offline, "online.unavailable")->status == CheckStatus::warn);
  CHECK_FALSE(offline.report.has_failure());

  check::FileCheck rejected = pdf_report_carrying(v);
  check::add_online_checks(rejected,
                    std::unexpected(Error{ErrorKind::rejected, "pith:X", "bad record rejected: bundle signature invalid"}));
  CHECK(find(rejected, "online.rejected")->status == CheckStatus::fail);
  CHECK(rejected.report.verdict() == Verdict::failed);
}

TEST_CASE("an answer for another number is a failure", "[online]") {
  const auto v = verified(test::assemble_bundle(test::test_signer(), record(), base_events()));
  check::FileCheck r = pdf_report_carrying(v);
  r.report.pith_number = "pith:2020:WXNI57C2SJ24QK62DB7DTUREA3";
  check::add_online_checks(r, served(v));
  CHECK(find(r, "online.rejected")->status == CheckStatus::fail);
}
