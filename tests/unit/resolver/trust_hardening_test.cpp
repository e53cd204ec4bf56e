// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 13, trust hardening: pith vouches only for what a trusted key
// signed. Each attack of the review as a test with test-signed fixtures:
// forged state content, a state's times and mirror hints, rollback.
#include "pith/check/file.hpp"
#include "pith/check/online.hpp"
#include "pith/registry/state_merge.hpp"
#include "pith/registry/trust_store.hpp"
#include "pith/registry/verify.hpp"
#include "pith/resolver/resolver.hpp"
#include "support/loopback_server.hpp"
#include "support/test_data.hpp"
#include "support/test_signer.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <map>

using nlohmann::json;
using pith::CheckStatus;
using pith::Verdict;
using pith::resolver::ResolutionOrigin;
using pith::resolver::Resolver;
using pith::resolver::ResolverOptions;

namespace {

// One paper's bundle with `corrections` signed correction events after its
// record_created and graph_snapshot events (as pith-test-sign --correction).
json bundle_with_corrections(int corrections, const std::string& built_at = pith::test::default_built_at) {
  const auto& signer = pith::test::test_signer();
  const pith::test::RecordSpec spec;
  const json record = pith::test::make_canonical_record(spec);
  const json rc = pith::test::make_record_created_event(signer, record);
  json events = json::array({rc, pith::test::make_graph_snapshot_event(signer, record, spec)});
  for (int i = 0; i < corrections; ++i) {
    events.push_back(pith::test::make_event(
        signer, pith::test::number_of(record),
        {"correction", "record", {{"note", "correction " + std::to_string(i)}},
         "2026-07-2" + std::to_string(i) + "T00:00:00Z", json::array(), i == 0 ? rc["event_id"] : events.back()["event_id"]}));
  }
  pith::test::BundleOptions options;
  options.built_at = built_at;
  return pith::test::assemble_bundle(signer, record, events, options);
}

// A state whose unsigned `current` was edited by a forger, re-hashed so that
// it is internally consistent.
json forged_state() {
  json state = bundle_with_corrections(0)["state"];
  json& current = state["current"];
  current["corrections"] = json::array({{{"payload", {{"note", "RETRACTED"}}}}});
  current["author_attestations"] = json::array({{{"payload", {{"author", "Mallory"}}}}});
  current["timestamp_anchors"] = json::array({{{"payload", {{"btc", "forged"}}}}});
  state["state_sha256"] = pith::registry::state_hash(state);
  return state;
}

pith::registry::DocumentVerification verify(const json& document) {
  auto v = pith::registry::verify_document(pith::test::to_bytes(document), pith::test::test_trust(), "test");
  REQUIRE(v);
  return std::move(*v);
}

std::string body_of(const json& bundle) { return bundle["pith_number"].get<std::string>().substr(10); }

// A cache holding `document` for its number, fetched long ago (stale).
std::filesystem::path stale_cache_with(const std::string& tag, const json& document) {
  const auto dir = pith::test::fresh_temp_dir(tag);
  pith::resolver::RecordCache cache(dir);
  REQUIRE(cache.store(document["pith_number"].get<std::string>(), pith::test::to_bytes(document),
                      pith::resolver::CacheMeta{"https://pith.science/old", "", "", 1}));
  return dir;
}

ResolverOptions offline_registry(const std::filesystem::path& cache) {
  ResolverOptions o;
  o.resolver_url = "http://127.0.0.1:9";  // refused at once
  o.cache_dir = cache;
  o.timeout_seconds = 0.5;
  return o;
}

// A file:// mirror serving `bundle` at /pith/<BODY>/bundle.json.
std::string file_mirror_with(const std::string& tag, const json& bundle) {
  const auto dir = pith::test::fresh_temp_dir(tag);
  pith::test::write_file(dir / "pith" / body_of(bundle) / "bundle.json", pith::test::to_bytes(bundle));
  return "file://" + dir.string();
}

const pith::Check* find(const pith::Report& r, const char* code) { return r.find(code); }

}  // namespace

TEST_CASE("a state alone: the record verifies, its unsigned current lists are not facts", "[trust][state]") {
  const auto v = verify(forged_state());
  REQUIRE(v.report.verdict() == Verdict::verified);  // the record and its receipt are genuine
  REQUIRE(find(v.report, "state.current.unsigned"));
  CHECK(find(v.report, "state.current.unsigned")->status == CheckStatus::skip);
  CHECK_FALSE(v.report.extra.contains("completeness"));  // no panel of forged attestations
  CHECK(pith::registry::merged_state(*v.record()).is_null());
  CHECK(pith::registry::applied_event_ids(*v.record()).empty());

  const auto checked = pith::check::check_registry_bytes(pith::test::to_bytes(forged_state()), pith::test::test_trust(), "state.json");
  CHECK(pith::check::completeness_panel_text(checked).empty());
  CHECK(checked.report.to_text().find("present") == std::string::npos);
  REQUIRE(checked.carried);
  CHECK(checked.carried->event_ids.empty());
  CHECK_FALSE(checked.carried->completeness);
}

TEST_CASE("a state's unsigned created_at never decides a key's validity window", "[trust][state]") {
  pith::registry::TrustStore windowed = pith::registry::TrustStore::with_pinned_key();
  pith::registry::TrustedKey key = pith::test::test_signer().trusted_key();
  key.not_before = "2026-01-01T00:00:00Z";
  key.not_after = "2026-12-31T23:59:59Z";
  REQUIRE(windowed.add(key));
  const json bundle = bundle_with_corrections(0);
  const auto signed_time = pith::registry::verify_document(pith::test::to_bytes(bundle), windowed, "bundle");
  REQUIRE(signed_time);
  CHECK(signed_time->report.verdict() == Verdict::verified);  // signed created_at inside the window
  const auto unsigned_time = pith::registry::verify_document(pith::test::to_bytes(bundle["state"]), windowed, "state");
  REQUIRE(unsigned_time);
  CHECK(unsigned_time->report.verdict() != Verdict::verified);
}

TEST_CASE("mirror_hints of a state alone are never asked (SSRF); a signed bundle's are", "[trust][state][resolver]") {
  pith::test::LoopbackServer hinted;
  hinted.get(".*", [](const httplib::Request&, httplib::Response& res) { res.status = 404; });
  hinted.start();
  const json hint = json::array({{{"base_url", hinted.base_url()}}});

  SECTION("a cached state") {
    json state = bundle_with_corrections(0)["state"];
    state["mirror_hints"] = hint;
    state["current"]["mirror_hints"] = hint;
    state["state_sha256"] = pith::registry::state_hash(state);
    REQUIRE(verify(state).report.verdict() == Verdict::verified);
    Resolver resolver(offline_registry(stale_cache_with("trust-ssrf-state", state)), pith::test::test_trust());
    (void)resolver.resolve(state["pith_number"].get<std::string>());
    CHECK(hinted.requests().empty());
  }
  SECTION("a cached signed bundle (control)") {
    pith::test::BundleOptions options;
    options.base_url = hinted.base_url();
    const json bundle = pith::test::make_signed_bundle({}, pith::test::test_signer(), options);
    Resolver resolver(offline_registry(stale_cache_with("trust-ssrf-bundle", bundle)), pith::test::test_trust());
    (void)resolver.resolve(bundle["pith_number"].get<std::string>());
    CHECK_FALSE(hinted.requests().empty());
  }
}

TEST_CASE("a state answer is used but never cached", "[trust][state][resolver]") {
  const json bundle = bundle_with_corrections(0);
  const auto mirror = pith::test::fresh_temp_dir("trust-state-mirror");
  pith::test::write_file(mirror / "pith" / body_of(bundle) / "state.json", pith::test::to_bytes(bundle["state"]));
  const auto cache = pith::test::fresh_temp_dir("trust-state-cache");
  auto options = offline_registry(cache);
  options.mirrors = {"file://" + mirror.string()};
  Resolver resolver(options, pith::test::test_trust());
  auto r = resolver.resolve(bundle["pith_number"].get<std::string>());
  REQUIRE(r);
  CHECK(r->record.kind == pith::registry::DocumentKind::state);
  CHECK_FALSE(std::filesystem::exists(cache / (body_of(bundle) + ".json")));
}

TEST_CASE("monotonic cache: an older verified answer never replaces a newer cached copy", "[trust][rollback]") {
  const json newer = bundle_with_corrections(1);
  const std::string number = newer["pith_number"].get<std::string>();

  struct Case {
    const char* name;
    json older;
    const char* says;
  };
  const Case cases[] = {
      {"fewer applied events (the correction hidden)", bundle_with_corrections(0), "applied event(s) of the copy held are missing"},
      {"same events, built earlier", bundle_with_corrections(1, "2026-08-01T00:00:00Z"), "is older than"},
      {"an unsigned state in place of the bundle", newer["state"], "no signed history"},
  };
  for (const auto& c : cases) {
    DYNAMIC_SECTION(c.name) {
      const auto cache = stale_cache_with("trust-rollback", newer);
      auto options = offline_registry(cache);
      const auto dir = pith::test::fresh_temp_dir("trust-rollback-mirror");
      const bool is_state = c.older.contains("state_type");
      pith::test::write_file(dir / "pith" / body_of(newer) / (is_state ? "state.json" : "bundle.json"),
                             pith::test::to_bytes(c.older));
      options.mirrors = {"file://" + dir.string()};
      options.refresh = true;
      Resolver resolver(options, pith::test::test_trust());
      auto r = resolver.resolve(number);
      REQUIRE(r);
      CHECK(r->origin == ResolutionOrigin::cache);
      CHECK(r->record.document_bytes == pith::test::to_bytes(newer));
      const pith::Check* rollback = find(r->report, "online.rollback");
      REQUIRE(rollback);
      CHECK(rollback->status == CheckStatus::warn);
      CHECK(rollback->detail.find(c.says) != std::string::npos);
      CHECK(pith::test::read_file(cache / (body_of(newer) + ".json")) == pith::test::to_bytes(newer));

      // The PDF's online check says so too.
      pith::check::FileCheck checked{pith::Report{}};
      checked.report.pith_number = number;
      pith::check::add_online_checks(checked, r);
      REQUIRE(find(checked.report, "online.rollback"));
      CHECK(find(checked.report, "online.corrections"));  // the newer copy's correction is not hidden
    }
  }

  SECTION("a newer answer does replace the cached copy") {
    const auto cache = stale_cache_with("trust-forward", bundle_with_corrections(0));
    auto options = offline_registry(cache);
    options.mirrors = {file_mirror_with("trust-forward-mirror", newer)};
    options.refresh = true;
    Resolver resolver(options, pith::test::test_trust());
    auto r = resolver.resolve(number);
    REQUIRE(r);
    CHECK(r->origin == ResolutionOrigin::mirror);
    CHECK_FALSE(find(r->report, "online.rollback"));
    CHECK(pith::test::read_file(cache / (body_of(newer) + ".json")) == pith::test::to_bytes(newer));
  }
}

// Every file of a directory with its bytes: a lookup must leave it as it was.
std::map<std::string, std::string> directory_bytes(const std::filesystem::path& dir) {
  std::map<std::string, std::string> out;
  if (!std::filesystem::exists(dir)) return out;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (entry.is_regular_file()) out[entry.path().lexically_relative(dir).string()] = pith::test::read_file(entry.path());
  }
  return out;
}

// The same body under another year: a number whose identity check fails.
std::string with_year(const std::string& number, const std::string& year) { return "pith:" + year + number.substr(9); }

TEST_CASE("a lookup that fails identity never removes or replaces a verified cache entry", "[trust][cache]") {
  const json genuine = bundle_with_corrections(0);
  const std::string number = genuine["pith_number"].get<std::string>();
  const std::string body = body_of(genuine);
  pith::test::RecordSpec other_spec;
  other_spec.title = "Another paper entirely";
  other_spec.arxiv_id = "2401.00002";
  const json other = pith::test::make_signed_bundle(other_spec, pith::test::test_signer());
  const std::string other_number = other["pith_number"].get<std::string>();
  std::string typo = number;
  typo.back() = typo.back() == 'A' ? 'B' : 'A';  // one character of the body mistyped

  const auto cache = pith::test::fresh_temp_dir("trust-identity-cache");
  REQUIRE(pith::resolver::RecordCache(cache).store(number, pith::test::to_bytes(genuine),
                                                   pith::resolver::CacheMeta{"https://pith.science/x", "", "",
                                                                             pith::resolver::unix_now()}));
  const auto before = directory_bytes(cache);
  // A hostile mirror answering every number it is asked with a verified
  // record: the genuine one (for the wrong year and the typo) or another
  // paper's (for the other number, a substituted body).
  const auto hostile = pith::test::fresh_temp_dir("trust-identity-mirror");
  for (const std::string& path_body : {body, typo.substr(10)})
    pith::test::write_file(hostile / "pith" / path_body / "bundle.json", pith::test::to_bytes(genuine));
  pith::test::write_file(hostile / "pith" / body_of(other) / "bundle.json", pith::test::to_bytes(genuine));
  pith::test::write_file(hostile / "pith" / body_of(other).substr(0, 8) / "bundle.json", pith::test::to_bytes(genuine));

  const std::string wrong_year = with_year(number, number.substr(5, 4) == "2020" ? "2021" : "2020");
  for (const std::string& input : {wrong_year, typo, other_number, "pith:" + body_of(other).substr(0, 8)}) {
    for (const bool offline : {true, false}) {
      DYNAMIC_SECTION(input << (offline ? " offline" : " via a hostile mirror")) {
        auto options = offline_registry(cache);
        options.offline = offline;
        options.refresh = !offline;
        options.mirrors = {"file://" + hostile.string()};
        Resolver resolver(options, pith::test::test_trust());
        auto r = resolver.resolve(input);
        REQUIRE_FALSE(r);
        CHECK(directory_bytes(cache) == before);
        if (input == wrong_year) {
          // The asker's typo, not a substitution: it says which record has
          // that body, and exits like a number no registry serves (2).
          CHECK(r.error().message == "no record is " + wrong_year + ": the record with this body is " + number +
                                         "; check the year");
          CHECK(r.error().kind == pith::ErrorKind::not_served);
        } else if (input == other_number) {
          CHECK(r.error().kind == pith::ErrorKind::rejected);  // another body answered: a substitution
        }
      }
    }
  }
  // The genuine number still verifies offline, from the cache.
  auto options = offline_registry(cache);
  options.offline = true;
  auto r = Resolver(options, pith::test::test_trust()).resolve(number);
  REQUIRE(r);
  CHECK(r->origin == ResolutionOrigin::cache);
  CHECK(r->record.document_bytes == pith::test::to_bytes(genuine));
}

TEST_CASE("--offline never writes the cache", "[trust][cache]") {
  const json genuine = bundle_with_corrections(0);
  const std::string number = genuine["pith_number"].get<std::string>();
  const auto root = pith::test::fresh_temp_dir("trust-offline-write");
  const auto cache = root / "cache";
  auto options = offline_registry(cache);
  options.offline = true;
  options.mirrors = {file_mirror_with("trust-offline-mirror", genuine)};

  SECTION("a record read from a file:// base is used, not kept") {
    auto r = Resolver(options, pith::test::test_trust()).resolve(number);
    REQUIRE(r);
    CHECK(r->origin != ResolutionOrigin::cache);  // the file:// base (the only one offline)
    CHECK_FALSE(std::filesystem::exists(cache));
  }
  SECTION("a stale entry and a tampered one stay byte for byte") {
    REQUIRE(pith::resolver::RecordCache(cache).store(number, pith::test::to_bytes(genuine),
                                                     pith::resolver::CacheMeta{"https://pith.science/x", "", "", 1}));
    const json second = bundle_with_corrections(1);
    json tampered = pith::test::make_signed_bundle({.title = "A third paper", .arxiv_id = "2401.00003"},
                                                   pith::test::test_signer());
    const std::string tampered_number = tampered["pith_number"].get<std::string>();
    tampered["canonical_record"]["metadata"]["license"] = "proprietary";
    pith::test::write_file(cache / (body_of(tampered) + ".json"), pith::test::to_bytes(tampered));
    const auto before = directory_bytes(cache);
    Resolver resolver(options, pith::test::test_trust());
    CHECK(resolver.resolve(number));
    auto refused = resolver.resolve(tampered_number);
    REQUIRE_FALSE(refused);
    CHECK(directory_bytes(cache) == before);
  }
}

TEST_CASE("an answer to an arXiv lookup never replaces a newer verified copy", "[trust][cache][rollback]") {
  const json newer = bundle_with_corrections(1);
  const json older = bundle_with_corrections(0);
  const auto cache = pith::test::fresh_temp_dir("trust-arxiv-rollback");
  // Filed without its arXiv alias: the lookup by arXiv id does not start from it.
  REQUIRE(pith::resolver::RecordCache(cache).store(newer["pith_number"].get<std::string>(), pith::test::to_bytes(newer),
                                                   pith::resolver::CacheMeta{"https://pith.science/x", "", "", 1}));
  const auto mirror = pith::test::fresh_temp_dir("trust-arxiv-rollback-mirror");
  pith::test::write_file(mirror / "pith" / "2401.00001" / "bundle.json", pith::test::to_bytes(older));
  auto options = offline_registry(cache);
  options.mirrors = {"file://" + mirror.string()};
  auto r = Resolver(options, pith::test::test_trust()).resolve("arXiv:2401.00001");
  REQUIRE(r);
  CHECK(r->origin == ResolutionOrigin::cache);
  CHECK(r->record.document_bytes == pith::test::to_bytes(newer));
  CHECK(find(r->report, "online.rollback"));
  CHECK(pith::test::read_file(cache / (body_of(newer) + ".json")) == pith::test::to_bytes(newer));
}

TEST_CASE("with HOME unset the cache is private or absent, never a shared /tmp directory", "[trust][cache]") {
  const char* home = std::getenv("HOME");
  const std::string saved_home = home ? home : "";
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  const std::string saved_xdg = xdg ? xdg : "";
  ::unsetenv("HOME");
  ::unsetenv("XDG_CACHE_HOME");
  const auto dir = pith::resolver::default_cache_dir();
  if (home) ::setenv("HOME", saved_home.c_str(), 1);
  if (xdg) ::setenv("XDG_CACHE_HOME", saved_xdg.c_str(), 1);
  const auto tmp = std::filesystem::temp_directory_path().string();
  CHECK((dir.empty() || !dir.string().starts_with(tmp)));

  // No location: nothing is found, storing says why.
  pith::resolver::RecordCache none{std::filesystem::path()};
  const json bundle = bundle_with_corrections(0);
  const auto stored = none.store(bundle["pith_number"].get<std::string>(), pith::test::to_bytes(bundle), {});
  REQUIRE_FALSE(stored);
  CHECK(stored.error().message.find("--cache-dir") != std::string::npos);
  CHECK_FALSE(none.load_body(body_of(bundle)));
}
