// SPDX-License-Identifier: GPL-3.0-or-later
// The online part of pith-check (pdf_online.hpp) on a registry file's
// carried copy, against a registry on 127.0.0.1 (bundles signed by the test
// key): a correction, superseded and equivocating events, a record no longer
// served (with and without a copy cached earlier), an unreachable registry, a
// forged answer, and the completeness panel as text. pdf_online_test covers
// the PDF side.
#include "pith/check/file.hpp"
#include "pith/check/online.hpp"
#include "pith/resolver/resolver.hpp"
#include "support/loopback_server.hpp"
#include "support/test_data.hpp"
#include "support/test_signer.hpp"

#include <catch2/catch.hpp>

using nlohmann::json;
using namespace pith;
using namespace pith::test;

namespace {

struct Paper {
  json record;
  std::string number;
  std::string body;
  json rc;  // record_created
  json gs;  // graph_snapshot
  json carried;  // the bundle a file carries: record_created + graph_snapshot
};

Paper make_paper(const std::string& title) {
  RecordSpec spec;
  spec.title = title;
  Paper p;
  p.record = make_canonical_record(spec);
  p.number = number_of(p.record);
  p.body = p.number.substr(10);
  p.rc = make_record_created_event(test_signer(), p.record);
  p.gs = make_graph_snapshot_event(test_signer(), p.record, spec);
  p.carried = assemble_bundle(test_signer(), p.record, json::array({p.rc, p.gs}));
  return p;
}

// The report pith-check makes for the carried bundle, offline.
check::FileCheck carried_report(const Paper& p) {
  check::FileCheck r = check::check_registry_bytes(to_bytes(p.carried), pith::test::test_trust(), "carried.bundle.json");
  REQUIRE(r.report.verdict() == Verdict::verified);
  REQUIRE(r.carried);
  return r;
}

Result<resolver::Resolution> ask(const std::string& base, const std::string& number, const std::string& cache_name) {
  resolver::ResolverOptions o;
  o.resolver_url = base;
  o.cache_dir = fresh_temp_dir(cache_name);
  o.timeout_seconds = 2;
  resolver::Resolver resolver(o, pith::test::test_trust());
  return resolver.resolve(number);
}

// The carried copy's report with the online checks against a registry on
// 127.0.0.1 that serves `now` as the paper's bundle.
check::FileCheck checked_against(const Paper& p, const json& now, const std::string& cache_name) {
  LoopbackServer server;
  server.serve_bytes("/pith/" + p.body + "/bundle.json", to_bytes(now));
  server.start();
  check::FileCheck r = carried_report(p);
  check::add_online_checks(r, ask(server.base_url(), p.number, cache_name));
  return r;
}

// The paper's bundle as the registry serves it once `later` events follow its own two.
json bundle_with(const Paper& p, const std::vector<json>& later) {
  json events = json::array({p.rc, p.gs});
  for (const json& event : later) events.push_back(event);
  return assemble_bundle(test_signer(), p.record, events);
}

const Check* find_check(const check::FileCheck& r, std::string_view code) { return r.report.find(code); }

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("a registry with a correction: newer event and correction reported, verdict kept", "[online]") {
  const Paper p = make_paper("Online Check Paper One");
  const json correction = make_event(test_signer(), p.number,
                                     {"correction", "record", {{"note", "Table 2 fixed"}}, "2026-07-20T00:00:00Z",
                                      json::array(), p.rc["event_id"]});
  check::FileCheck r = checked_against(p, bundle_with(p, {correction}), "online-correction");
  INFO(r.report.to_text());
  REQUIRE(find_check(r, "online.verified"));
  CHECK(find_check(r, "online.verified")->status == CheckStatus::pass);
  REQUIRE(find_check(r, "online.events.newer"));
  CHECK(find_check(r, "online.events.newer")->detail == "1 event since the PDF's copy: 1 correction");
  REQUIRE(find_check(r, "online.corrections"));
  CHECK(find_check(r, "online.corrections")->status == CheckStatus::warn);
  CHECK(r.report.extra["completeness"]["corrections"] == 1);
  CHECK(r.report.verdict() == Verdict::verified);

  const std::string panel = check::completeness_panel_text(r);
  CHECK(has(panel, "record completeness (registry now)"));
  CHECK(has(panel, "corrections           present (1)"));
  CHECK(has(panel, "author claims         absent"));
}

TEST_CASE("a carried event superseded online is named", "[online]") {
  const Paper p = make_paper("Online Check Paper Three");
  const json gs2 = make_event(test_signer(), p.number,
                              {"graph_snapshot", "graph", {{"graph_snapshot", {{"v", 2}}}}, "2026-07-09T00:00:00Z",
                               json::array({p.gs["event_id"]}), nullptr});
  check::FileCheck r = checked_against(p, bundle_with(p, {gs2}), "online-superseded");
  INFO(r.report.to_text());
  REQUIRE(find_check(r, "online.events.superseded"));
  CHECK(find_check(r, "online.events.superseded")->status == CheckStatus::warn);
  CHECK(has(find_check(r, "online.events.superseded")->detail, "(in the PDF's copy)"));
  CHECK(find_check(r, "online.events.dropped") == nullptr);  // a superseded event stays applied
  CHECK(r.report.extra["online"]["superseded_events"] == json::array({p.gs["event_id"]}));
  CHECK(r.report.verdict() == Verdict::verified);
}

TEST_CASE("equivocating events online are reported", "[online]") {
  const Paper p = make_paper("Online Check Paper Four");
  const std::string rc_id = p.rc["event_id"];
  const json first = make_event(test_signer(), p.number,
                                {"correction", "record", {{"note", "a"}}, "2026-07-06T00:00:00Z", json::array(), rc_id});
  const json second = make_event(test_signer(), p.number,
                                 {"correction", "record", {{"note", "b"}}, "2026-07-07T00:00:00Z", json::array(), rc_id});
  check::FileCheck r = checked_against(p, bundle_with(p, {second, first}), "online-equivocation");
  INFO(r.report.to_text());
  REQUIRE(find_check(r, "online.equivocation"));
  CHECK(find_check(r, "online.equivocation")->status == CheckStatus::warn);
}

TEST_CASE("a record the registry no longer serves is a warning", "[online]") {
  const Paper p = make_paper("Online Check Paper Five");
  LoopbackServer server;  // every path: 404
  server.start();
  check::FileCheck r = carried_report(p);
  check::add_online_checks(r, ask(server.base_url(), p.number, "online-404"));
  INFO(r.report.to_text());
  REQUIRE(find_check(r, "online.record.not_served"));
  CHECK(find_check(r, "online.record.not_served")->status == CheckStatus::warn);
  CHECK(r.report.extra["online"]["not_served"] == true);
  CHECK(r.report.verdict() == Verdict::verified);
}

TEST_CASE("a record no longer served, with a copy cached earlier: still a warning", "[online]") {
  LoopbackServer now_gone;  // 404 everywhere; also the bundle's only mirror hint
  now_gone.start();
  RecordSpec spec;
  spec.title = "Online Check Paper Eight";
  BundleOptions options;
  options.base_url = now_gone.base_url();
  const json bundle = make_signed_bundle(spec, test_signer(), options);
  const std::string number = bundle["pith_number"];
  LoopbackServer before;
  before.serve_bytes("/pith/" + number.substr(10) + "/bundle.json", to_bytes(bundle));
  before.start();

  resolver::ResolverOptions o;
  o.cache_dir = fresh_temp_dir("online-stale");
  o.timeout_seconds = 2;
  o.resolver_url = before.base_url();
  {
    resolver::Resolver first(o, pith::test::test_trust());
    REQUIRE(first.resolve(number));  // cached now
  }
  o.resolver_url = now_gone.base_url();
  o.refresh = true;
  resolver::Resolver later(o, pith::test::test_trust());
  check::FileCheck r = check::check_registry_bytes(to_bytes(bundle), pith::test::test_trust(), "carried.bundle.json");
  check::add_online_checks(r, later.resolve(number));
  INFO(r.report.to_text());
  REQUIRE(find_check(r, "online.record.not_served"));
  CHECK(find_check(r, "online.record.not_served")->status == CheckStatus::warn);
  CHECK(has(find_check(r, "online.record.not_served")->detail, "cached earlier"));
  CHECK(r.report.extra["online"]["origin"] == "stale cache");
  CHECK(r.report.verdict() == Verdict::verified);
}

TEST_CASE("a registry that cannot be reached changes nothing but says so", "[online]") {
  const Paper p = make_paper("Online Check Paper Six");
  std::string base;
  {
    LoopbackServer gone;
    gone.start();
    base = gone.base_url();
  }  // stopped: the port now refuses connections
  check::FileCheck r = carried_report(p);
  check::add_online_checks(r, ask(base, p.number, "online-unreachable"));
  INFO(r.report.to_text());
  REQUIRE(find_check(r, "online.unavailable"));
  CHECK(find_check(r, "online.unavailable")->status == CheckStatus::warn);
  CHECK(find_check(r, "online.record.not_served") == nullptr);
  CHECK(r.report.verdict() == Verdict::verified);
  // Offline, the panel is the carried copy's.
  CHECK(has(check::completeness_panel_text(r), "record completeness (carried copy)"));
}

TEST_CASE("a forged answer from the registry is refused and a failure", "[online]") {
  const Paper p = make_paper("Online Check Paper Seven");
  json forged = p.carried;
  forged["canonical_record"]["metadata"]["primary_cat"] = "cs.AI";  // not re-signed
  check::FileCheck r = checked_against(p, forged, "online-forged");
  INFO(r.report.to_text());
  CHECK(find_check(r, "online.verified") == nullptr);
  REQUIRE(find_check(r, "online.rejected"));
  CHECK(find_check(r, "online.rejected")->status == CheckStatus::fail);
}
