// SPDX-License-Identifier: GPL-3.0-or-later
// The resolver's decisions (fetch order, mirrors, cache, offline, identity
// checks) against real loopback servers, with the real verifier: paper i is
// a bundle the test signer signs (trusted by the test trust store), or one
// an unrelated key signs (not trusted), so the test still decides which
// answers verify. Faults of the signed data itself are in
// resolver_verified_test.cpp and trust_hardening_test.cpp.
#include "pith/resolver/resolver.hpp"
#include "pith/registry/trust_store.hpp"
#include "support/loopback_server.hpp"
#include "support/test_data.hpp"
#include "support/test_signer.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <mutex>

using namespace std::chrono_literals;
using pith::resolver::Resolver;
using pith::resolver::ResolverOptions;
using pith::resolver::ResolutionOrigin;
using pith::test::LoopbackServer;

namespace {

// Paper i: its own title, on arXiv as `arxiv` version `version`.
pith::test::RecordSpec paper(int i, const std::string& arxiv = "2106.02679", int version = 1) {
  pith::test::RecordSpec spec;
  spec.title = "Resolver Decisions Paper " + std::to_string(i);
  spec.arxiv_id = arxiv;
  spec.version = version;
  return spec;
}

std::string number(int i) { return pith::test::number_of(pith::test::make_canonical_record(paper(i))); }
std::string body(int i) { return number(i).substr(10); }  // after "pith:YYYY:"

// Paper i's signed bundle: by the test signer when `trusted`, else by a key
// no test store trusts. Its mirror_hints are emptied (and the bundle signed
// again): a hint at the public registry must never be asked from a test.
nlohmann::json bundle(int i, bool trusted = true, const std::string& arxiv = "2106.02679", int version = 1) {
  const pith::test::TestSigner& signer = trusted ? pith::test::test_signer() : pith::test::other_signer();
  nlohmann::json b = pith::test::make_signed_bundle(paper(i, arxiv, version), signer);
  b["mirror_hints"] = nlohmann::json::array();
  return pith::test::resign_bundle(signer, std::move(b));
}

std::string document(int i, bool trusted = true, const std::string& arxiv = "2106.02679", int version = 1) {
  return pith::test::to_bytes(bundle(i, trusted, arxiv, version));
}

// Paper i's bundle altered after it was signed (its built_at): it no longer verifies.
std::string tampered_document(int i) {
  nlohmann::json b = bundle(i);
  b["built_at"] = "2099-01-01T00:00:00Z";
  return pith::test::to_bytes(b);
}

// A fresh cache or mirror directory (removed with the test process's scratch).
struct TempDir {
  std::filesystem::path path;
  explicit TempDir(const std::string& name) : path(pith::test::fresh_temp_dir("resolver-" + name)) {}
};

ResolverOptions options_for(const std::string& base, const std::filesystem::path& cache) {
  ResolverOptions o;
  o.resolver_url = base;
  o.cache_dir = cache;
  o.timeout_seconds = 0.5;
  return o;
}

bool contains(const std::string& haystack, const std::string& needle) { return haystack.find(needle) != std::string::npos; }

std::string check_detail(const pith::resolver::Resolution& r, const std::string& code) {
  const auto* c = r.report.find(code);
  return c ? c->detail : std::string("<no check " + code + ">");
}

}  // namespace

TEST_CASE("a full number resolves from the server's bundle.json and is cached", "[resolver]") {
  TempDir cache("full");
  LoopbackServer server;
  server.serve_bytes("/pith/" + body(1) + "/bundle.json", document(1));
  server.start();
  Resolver resolver(options_for(server.base_url(), cache.path), pith::test::test_trust());
  auto r = resolver.resolve(number(1));
  REQUIRE(r);
  CHECK(r->record.number().to_string() == number(1));
  CHECK(r->origin == ResolutionOrigin::server);
  CHECK(r->source == server.base_url() + "/pith/" + body(1) + "/bundle.json");
  CHECK(contains(check_detail(*r, "resolver.source"), "from server"));
  CHECK(std::filesystem::exists(cache.path / (body(1) + ".json")));
  CHECK(std::filesystem::exists(cache.path / "aliases" / "arxiv-2106.02679v1"));
}

TEST_CASE("fetch order: bundle, well-known bundle, state, then resolver JSON-LD", "[resolver]") {
  TempDir cache("order");
  LoopbackServer server;
  server.serve_bytes("/pith/" + body(2), document(2), "application/ld+json");
  server.start();
  Resolver resolver(options_for(server.base_url(), cache.path), pith::test::test_trust());
  auto r = resolver.resolve(body(2));
  REQUIRE(r);
  CHECK(r->source == server.base_url() + "/pith/" + body(2));
  const auto reqs = server.requests();
  REQUIRE(reqs.size() == 4);
  CHECK(reqs[0].path == "/pith/" + body(2) + "/bundle.json");
  CHECK(reqs[1].path == "/.well-known/pith/" + body(2) + "/bundle.json");
  CHECK(reqs[2].path == "/pith/" + body(2) + "/state.json");
  CHECK(reqs[3].path == "/pith/" + body(2));
  CHECK(reqs[3].accept == "application/ld+json");
  CHECK(r->failures.size() == 3);
}

TEST_CASE("a short form reports the full number it resolved to", "[resolver]") {
  TempDir cache("short");
  LoopbackServer server;
  const std::string prefix = body(3).substr(0, 8);
  server.serve_bytes("/pith/" + prefix + "/bundle.json", document(3));
  server.start();
  Resolver resolver(options_for(server.base_url(), cache.path), pith::test::test_trust());
  auto r = resolver.resolve("pith:" + prefix);
  REQUIRE(r);
  CHECK(r->record.number().to_string() == number(3));
  CHECK(check_detail(*r, "resolver.short_form") == "pith:" + prefix + " resolved to " + number(3));
}

TEST_CASE("a short form answered with a record outside the prefix is rejected", "[resolver]") {
  TempDir cache("short-bad");
  LoopbackServer server;
  server.serve_bytes("/pith/AAAAAAAA/bundle.json", document(4));
  server.start();
  Resolver resolver(options_for(server.base_url(), cache.path), pith::test::test_trust());
  auto r = resolver.resolve("pith:AAAAAAAA");
  REQUIRE_FALSE(r);
  CHECK(contains(r.error().message, "substitution: asked for pith:AAAAAAAA, got " + number(4)));
}

TEST_CASE("arXiv ids must match the signed record's source and version", "[resolver]") {
  TempDir cache("arxiv");
  LoopbackServer server;
  server.serve_bytes("/pith/2106.02679/bundle.json", document(5));
  server.serve_bytes("/pith/2106.02679v2/bundle.json", document(5));  // v1 record under a v2 alias
  server.serve_bytes("/pith/2106.99999/bundle.json", document(5));
  server.start();
  Resolver resolver(options_for(server.base_url(), cache.path), pith::test::test_trust());
  auto ok = resolver.resolve("arXiv:2106.02679");
  REQUIRE(ok);
  CHECK(contains(check_detail(*ok, "resolver.arxiv"), "resolved to " + number(5)));
  auto wrong_version = resolver.resolve("2106.02679v2");
  REQUIRE_FALSE(wrong_version);
  CHECK(contains(wrong_version.error().message, "whose source is arxiv 2106.02679v1"));
  auto wrong_paper = resolver.resolve("2106.99999");
  REQUIRE_FALSE(wrong_paper);
  CHECK(contains(wrong_paper.error().message, "substitution"));
}

TEST_CASE("a verified record of another paper is a substitution, never accepted", "[resolver]") {
  TempDir cache("substitution");
  LoopbackServer server;
  for (const std::string prefix : {"/pith/", "/.well-known/pith/"}) {
    server.serve_bytes(prefix + body(6) + "/bundle.json", document(7));
  }
  server.start();
  Resolver resolver(options_for(server.base_url(), cache.path), pith::test::test_trust());
  auto r = resolver.resolve(number(6));
  REQUIRE_FALSE(r);
  CHECK(contains(r.error().message, "substitution: asked for " + number(6) + ", got " + number(7)));
  CHECK(r.error().kind == pith::ErrorKind::rejected);
  CHECK_FALSE(std::filesystem::exists(cache.path / (body(7) + ".json")));
}

TEST_CASE("a document failing verification falls over to a mirror, and says so", "[resolver]") {
  TempDir cache("mirror");
  LoopbackServer bad;
  bad.serve_bytes("/pith/" + body(8) + "/bundle.json", document(8, false));
  bad.serve_bytes("/pith/" + body(8) + "/state.json", "this is not JSON");
  bad.start();
  LoopbackServer mirror;
  mirror.serve_bytes("/pith/" + body(8) + "/bundle.json", document(8));
  mirror.start();
  auto o = options_for(bad.base_url(), cache.path);
  o.mirrors = {mirror.base_url()};
  Resolver resolver(o, pith::test::test_trust());
  auto r = resolver.resolve(number(8));
  REQUIRE(r);
  CHECK(r->origin == ResolutionOrigin::mirror);
  CHECK(contains(check_detail(*r, "resolver.source"), "from mirror " + mirror.base_url()));
  // Signed, but by no key of the trust store: unverifiable.
  CHECK(contains(check_detail(*r, "resolver.rejected"), "failed verification (verdict unverifiable)"));
  bool saw_non_json = false;
  for (const auto& f : r->failures) saw_non_json = saw_non_json || contains(f, "not a registry document");
  CHECK(saw_non_json);
}

TEST_CASE("an unreachable resolver falls over to the next mirror", "[resolver]") {
  TempDir cache("failover");
  std::string dead_base;
  {
    LoopbackServer dead;
    dead.start();
    dead_base = dead.base_url();
  }  // stopped: connections are refused
  LoopbackServer mirror;
  mirror.serve_bytes("/pith/" + body(9) + "/bundle.json", document(9));
  mirror.start();
  auto o = options_for(dead_base, cache.path);
  o.mirrors = {mirror.base_url()};
  Resolver resolver(o, pith::test::test_trust());
  auto r = resolver.resolve(number(9));
  REQUIRE(r);
  CHECK(r->origin == ResolutionOrigin::mirror);
  REQUIRE(r->failures.size() == 1);  // one refused connection skips that base's other paths
  CHECK(contains(r->failures[0], dead_base));
}

TEST_CASE("a number no base has is one line naming the base, not every URL's 404", "[resolver]") {
  TempDir cache("nothing");
  LoopbackServer server;
  server.start();
  Resolver resolver(options_for(server.base_url(), cache.path), pith::test::test_trust());
  auto r = resolver.resolve(number(10));
  REQUIRE_FALSE(r);
  CHECK(r.error().where == number(10));
  CHECK(r.error().message == "no record for " + number(10) + " at " + server.base_url() + "; check the number");
  CHECK(r.error().kind == pith::ErrorKind::not_served);  // every path answered 404
}

TEST_CASE("a public answer names no base, path or status; the operator's log has every attempt", "[resolver]") {
  TempDir cache("public");
  LoopbackServer server;
  server.serve_bytes("/pith/" + body(13) + "/bundle.json", document(13));
  server.start();
  auto o = options_for(server.base_url(), cache.path);
  o.mirrors = {"http://127.0.0.1:9"};  // closed: its failure is the operator's to read
  o.disclosure = pith::resolver::Disclosure::public_answer;
  std::vector<std::string> log;
  o.operator_log = [&log](const std::string& line) { log.push_back(line); };
  Resolver resolver(o, pith::test::test_trust());

  auto missing = resolver.resolve(number(10));
  REQUIRE_FALSE(missing);
  CHECK(missing.error().kind == pith::ErrorKind::not_served);
  CHECK(missing.error().message == "no record for " + number(10) + " at the configured registry; check the number");
  REQUIRE(log.size() == 1);
  CHECK(contains(log[0], server.base_url() + "/pith/" + body(10) + "/bundle.json: HTTP 404"));
  CHECK(contains(log[0], "http://127.0.0.1:9"));

  auto found = resolver.resolve(number(13));
  REQUIRE(found);
  CHECK(found->source == "the registry");
  CHECK(found->failures.empty());
  for (const auto& c : found->report.checks()) {
    CHECK_FALSE(contains(c.detail, server.base_url()));
    CHECK_FALSE(contains(c.detail, cache.path.string()));
  }
  auto cached = resolver.resolve(number(13));  // fresh in the cache now
  REQUIRE(cached);
  CHECK(cached->source == "the cache");
  CHECK(contains(check_detail(*cached, "resolver.source"), "from the cache"));
  CHECK_FALSE(contains(check_detail(*cached, "resolver.source"), cache.path.string()));
}

TEST_CASE("offline: served from the cache and reported; without a cache entry an error", "[resolver]") {
  TempDir cache("offline");
  {
    LoopbackServer server;
    server.serve_bytes("/pith/" + body(11) + "/bundle.json", document(11));
    server.start();
    Resolver online(options_for(server.base_url(), cache.path), pith::test::test_trust());
    REQUIRE(online.resolve(number(11)));
  }
  auto o = options_for("http://127.0.0.1:9", cache.path);
  o.offline = true;
  Resolver offline(o, pith::test::test_trust());
  auto r = offline.resolve(number(11));
  REQUIRE(r);
  CHECK(r->origin == ResolutionOrigin::cache);
  CHECK(contains(check_detail(*r, "resolver.offline"), "offline: the registry was not asked"));
  auto by_arxiv = offline.resolve("arXiv:2106.02679v1");
  REQUIRE(by_arxiv);
  CHECK(by_arxiv->record.number().to_string() == number(11));
  auto by_short = offline.resolve("pith:" + body(11).substr(0, 12));
  REQUIRE(by_short);
  CHECK(by_short->record.number().to_string() == number(11));
  auto missing = offline.resolve(number(12));
  REQUIRE_FALSE(missing);
  CHECK(contains(missing.error().message, number(12) + " is not in the cache " + cache.path.string()));
  CHECK(missing.error().kind == pith::ErrorKind::network);
}

TEST_CASE("offline still reads file:// mirrors", "[resolver]") {
  TempDir cache("file-cache");
  TempDir mirror("file-mirror");
  std::filesystem::create_directories(mirror.path / "pith" / body(13));
  std::ofstream(mirror.path / "pith" / body(13) / "bundle.json") << document(13);
  auto o = options_for("file://" + mirror.path.string(), cache.path);
  o.offline = true;
  Resolver resolver(o, pith::test::test_trust());
  auto r = resolver.resolve(number(13));
  REQUIRE(r);
  CHECK(r->origin == ResolutionOrigin::server);
  CHECK(r->source == "file://" + (mirror.path / "pith" / body(13) / "bundle.json").string());
  CHECK_FALSE(std::filesystem::exists(cache.path / (body(13) + ".json")));  // offline: used, not cached
}

namespace {

// Starts `server` serving record n's bundle; its path.
std::string serve_record(LoopbackServer& server, int n) {
  const std::string path = "/pith/" + body(n) + "/bundle.json";
  server.serve_bytes(path, document(n));
  server.start();
  return path;
}

}  // namespace

TEST_CASE("fresh cache entries skip the network; stale ones are revalidated with ETag", "[resolver]") {
  TempDir cache("fresh");
  LoopbackServer server;
  const std::string path = serve_record(server, 14);
  auto o = options_for(server.base_url(), cache.path);
  {
    Resolver resolver(o, pith::test::test_trust());
    REQUIRE(resolver.resolve(number(14)));
    auto again = resolver.resolve(number(14));
    REQUIRE(again);
    CHECK(again->origin == ResolutionOrigin::cache);
    CHECK(server.hits(path) == 1);
  }
  o.freshness = 0s;
  Resolver stale(o, pith::test::test_trust());
  auto revalidated = stale.resolve(number(14));
  REQUIRE(revalidated);
  CHECK(server.hits(path) == 2);
  CHECK_FALSE(server.requests().back().if_none_match.empty());
  CHECK(revalidated->origin == ResolutionOrigin::cache);
  CHECK(contains(check_detail(*revalidated, "resolver.source"), "304 Not Modified"));
}

TEST_CASE("--refresh asks the network even for a fresh entry", "[resolver]") {
  TempDir cache("refresh");
  LoopbackServer server;
  const std::string path = serve_record(server, 15);
  auto o = options_for(server.base_url(), cache.path);
  REQUIRE(Resolver(o, pith::test::test_trust()).resolve(number(15)));
  o.refresh = true;
  REQUIRE(Resolver(o, pith::test::test_trust()).resolve(number(15)));
  CHECK(server.hits(path) == 2);
}

TEST_CASE("a stale entry is used, with a warning, when nothing online answers", "[resolver]") {
  TempDir cache("stale");
  std::string base;
  {
    LoopbackServer server;
    server.serve_bytes("/pith/" + body(16) + "/bundle.json", document(16));
    server.start();
    base = server.base_url();
    REQUIRE(Resolver(options_for(base, cache.path), pith::test::test_trust()).resolve(number(16)));
  }
  auto o = options_for(base, cache.path);
  o.freshness = 0s;
  auto r = Resolver(o, pith::test::test_trust()).resolve(number(16));
  REQUIRE(r);
  CHECK(r->origin == ResolutionOrigin::stale_cache);
  CHECK(contains(check_detail(*r, "resolver.cache.stale"), "did not answer"));
}

TEST_CASE("a poisoned cache entry is never used: refetched, and replaced only by the verified copy", "[resolver]") {
  TempDir cache("poison");
  LoopbackServer server;
  const std::string path = serve_record(server, 17);
  auto o = options_for(server.base_url(), cache.path);
  REQUIRE(Resolver(o, pith::test::test_trust()).resolve(number(17)));
  const auto entry = cache.path / (body(17) + ".json");

  SECTION("tampered so it no longer verifies") { std::ofstream(entry) << tampered_document(17); }
  SECTION("swapped for another record that verifies") { std::ofstream(entry) << document(18); }
  SECTION("garbage") { std::ofstream(entry) << "\x00\x01 not json"; }

  auto r = Resolver(o, pith::test::test_trust()).resolve(number(17));
  REQUIRE(r);
  CHECK(r->origin == ResolutionOrigin::server);
  CHECK(server.hits(path) == 2);
  CHECK(contains(check_detail(*r, "resolver.cache.rejected"), "not used"));
  std::ifstream refetched(entry);
  CHECK(std::string(std::istreambuf_iterator<char>(refetched), {}) == document(17));

  // Offline, a poisoned entry leaves nothing to use, and is left as it is
  // (offline never writes the cache; nothing ever removes an entry).
  const std::string poison = tampered_document(17);
  std::ofstream(entry) << poison;
  auto off = o;
  off.offline = true;
  auto offline = Resolver(off, pith::test::test_trust()).resolve(number(17));
  REQUIRE_FALSE(offline);
  std::ifstream kept(entry);
  CHECK(std::string(std::istreambuf_iterator<char>(kept), {}) == poison);
}

TEST_CASE("a batch resolves many numbers concurrently over few connections", "[resolver][batch]") {
  TempDir cache("batch");
  LoopbackServer server;
  std::vector<std::string> inputs;
  for (int i = 100; i < 160; ++i) {
    server.serve_bytes("/pith/" + body(i) + "/bundle.json", document(i));
    inputs.push_back(number(i));
  }
  inputs.push_back("pith:2021:QQQQQQQQQQQQQQQQQQQQQQ0000");  // not a number: its own error
  inputs.push_back(number(999));                            // not on the server
  server.start();
  auto o = options_for(server.base_url(), cache.path);
  o.max_concurrency = 6;
  Resolver resolver(o, pith::test::test_trust());
  auto results = resolver.resolve_many(inputs);
  REQUIRE(results.size() == inputs.size());
  for (std::size_t i = 0; i < 60; ++i) {
    REQUIRE(results[i]);
    CHECK(results[i]->record.number().to_string() == inputs[i]);
  }
  REQUIRE_FALSE(results[60]);
  CHECK(contains(results[60].error().message, "position"));
  REQUIRE_FALSE(results[61]);
  // Reuse: 60+ requests over a handful of connections (a connection the
  // server or curl drops under load may be replaced, hence not exactly 6).
  CHECK(server.connections() <= 12);
}

TEST_CASE("options come from the environment, flags override", "[resolver][options]") {
  ::setenv("PITH_RESOLVER", "http://127.0.0.1:1234", 1);
  ::setenv("PITH_MIRRORS", "https://a.example, https://b.example;file:///srv/mirror", 1);
  auto o = ResolverOptions::from_environment();
  CHECK(o.resolver_url == "http://127.0.0.1:1234");
  CHECK(o.mirrors == std::vector<std::string>{"https://a.example", "https://b.example", "file:///srv/mirror"});
  ::unsetenv("PITH_RESOLVER");
  ::unsetenv("PITH_MIRRORS");
  CHECK(ResolverOptions::from_environment().resolver_url == "https://pith.science");
  ::setenv("XDG_CACHE_HOME", "/tmp/xdg-test", 1);
  CHECK(pith::resolver::default_cache_dir() == std::filesystem::path("/tmp/xdg-test/pith"));
  ::unsetenv("XDG_CACHE_HOME");
  o.timeout_seconds = 0.5;
  CHECK(o.http_options().total_timeout == 500ms);
}

TEST_CASE("a cached bundle's mirror_hints are tried when the resolver is down", "[resolver][mirror]") {
  TempDir cache("hints");
  // The mirror's URL is inside the document it serves: known only after start.
  std::mutex mutex;
  std::string served;
  LoopbackServer mirror;
  mirror.get("/pith/" + body(20) + "/bundle.json", [&](const httplib::Request&, httplib::Response& res) {
    std::lock_guard lock(mutex);
    res.set_content(served, "application/json");
  });
  mirror.start();
  nlohmann::json doc = bundle(20);
  doc["mirror_hints"] = {{{"base_url", mirror.base_url()}, {"status", "mirror"}}};
  doc = pith::test::resign_bundle(pith::test::test_signer(), std::move(doc));  // the hint is signed, as the registry's are
  {
    std::lock_guard lock(mutex);
    served = doc.dump();
  }
  std::string primary_base;
  {
    LoopbackServer primary;
    primary.serve_bytes("/pith/" + body(20) + "/bundle.json", doc.dump());
    primary.start();
    primary_base = primary.base_url();
    REQUIRE(Resolver(options_for(primary_base, cache.path), pith::test::test_trust()).resolve(number(20)));
  }
  auto o = options_for(primary_base, cache.path);
  o.freshness = 0s;  // stale: go online; the resolver is gone, the hinted mirror answers
  auto r = Resolver(o, pith::test::test_trust()).resolve(number(20));
  REQUIRE(r);
  CHECK(r->origin == ResolutionOrigin::mirror);
  CHECK(r->source == mirror.base_url() + "/pith/" + body(20) + "/bundle.json");

  // --no-mirror-hints: the hinted mirror is never asked.
  const auto asked = mirror.hits("/pith/" + body(20) + "/bundle.json");
  o.mirror_hints = false;
  CHECK_FALSE(Resolver(o, pith::test::test_trust()).resolve(number(20))->origin == ResolutionOrigin::mirror);
  CHECK(mirror.hits("/pith/" + body(20) + "/bundle.json") == asked);

  // A hint at a loopback address while no configured base is at one: never
  // connected to (the registry's signature does not make 127.0.0.1 public).
  o.mirror_hints = true;
  o.resolver_url = "http://registry.invalid";
  o.timeout_seconds = 2;
  auto refused = Resolver(o, pith::test::test_trust()).resolve(number(20));
  REQUIRE(refused);  // the stale cached copy
  CHECK(refused->origin == ResolutionOrigin::stale_cache);
  CHECK(mirror.hits("/pith/" + body(20) + "/bundle.json") == asked);
  bool said_why = false;
  for (const auto& f : refused->failures) said_why = said_why || contains(f, "a loopback, link-local or private address");
  CHECK(said_why);
}
