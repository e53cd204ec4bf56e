// SPDX-License-Identifier: GPL-3.0-or-later
// The resolver with the real verifier and bundles signed by the test key,
// served by real HTTP(S) servers on 127.0.0.1: every fault gives a clear
// error or a fallback, and never an accepted bad record.
#include "pith/resolver/resolver.hpp"
#include "pith/registry/trust_store.hpp"
#include "support/loopback_server.hpp"
#include "support/test_data.hpp"
#include "support/test_signer.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <thread>

using namespace std::chrono_literals;
using pith::resolver::Resolver;
using pith::resolver::ResolverOptions;
using pith::resolver::ResolutionOrigin;
using pith::test::LoopbackServer;

namespace {

struct Paper {
  nlohmann::json bundle;
  std::string bytes;
  std::string number;
  std::string body;
};

Paper make_paper(int n, int version = 1) {
  pith::test::RecordSpec spec;
  spec.title = "Resolver Test Paper " + std::to_string(n);
  spec.arxiv_id = "2401." + std::to_string(10000 + n);
  spec.version = version;
  Paper p;
  p.bundle = pith::test::make_signed_bundle(spec);
  p.bytes = pith::test::to_bytes(p.bundle);
  p.number = p.bundle["pith_number"].get<std::string>();
  p.body = p.number.substr(10);
  return p;
}

ResolverOptions options_for(const std::string& base, const std::filesystem::path& cache) {
  ResolverOptions o;
  o.resolver_url = base;
  o.cache_dir = cache;
  o.timeout_seconds = 0.3;
  return o;
}

std::string bundle_path(const Paper& p) { return "/pith/" + p.body + "/bundle.json"; }

bool contains(const std::string& haystack, const std::string& needle) { return haystack.find(needle) != std::string::npos; }

std::string all_text(const pith::resolver::Resolution& r) {
  std::string s;
  for (const auto& c : r.report.checks()) s += c.code + ": " + c.detail + "\n";
  return s;
}

}  // namespace

TEST_CASE("a signed bundle only on the server resolves, verified, and is cached", "[resolver][verified]") {
  const auto cache = pith::test::fresh_temp_dir("rv-basic");
  const Paper paper = make_paper(1);
  LoopbackServer server;
  server.serve_bytes(bundle_path(paper), paper.bytes);
  server.start();
  Resolver resolver(options_for(server.base_url(), cache), pith::test::test_trust());
  auto r = resolver.resolve(paper.number);
  REQUIRE(r);
  CHECK(r->record.number().to_string() == paper.number);
  CHECK(r->record.kind == pith::registry::DocumentKind::bundle);
  CHECK(r->record.report.verdict() == pith::Verdict::verified);
  CHECK(r->record.document_bytes == paper.bytes);
  CHECK(pith::test::read_file(cache / (paper.body + ".json")) == paper.bytes);

  SECTION("by short form and by arXiv id, from the cache") {
    auto o = options_for(server.base_url(), cache);
    o.offline = true;
    Resolver offline(o, pith::test::test_trust());
    auto by_short = offline.resolve("pith:" + paper.body.substr(0, 16));
    REQUIRE(by_short);
    CHECK(by_short->record.number().to_string() == paper.number);
    CHECK(contains(all_text(*by_short), "resolved to " + paper.number));
    auto by_arxiv = offline.resolve("arXiv:2401.10001v1");
    REQUIRE(by_arxiv);
    CHECK(by_arxiv->record.number().to_string() == paper.number);
    CHECK(contains(all_text(*by_arxiv), "resolver.offline"));
  }
}

TEST_CASE("the state alone (state.json) resolves when no bundle is served", "[resolver][verified]") {
  const auto cache = pith::test::fresh_temp_dir("rv-state");
  const Paper paper = make_paper(2);
  LoopbackServer server;
  server.serve_bytes("/pith/" + paper.body + "/state.json", pith::test::to_bytes(paper.bundle["state"]));
  server.start();
  Resolver resolver(options_for(server.base_url(), cache), pith::test::test_trust());
  auto r = resolver.resolve(paper.body);
  REQUIRE(r);
  CHECK(r->record.kind == pith::registry::DocumentKind::state);
  CHECK(r->record.number().to_string() == paper.number);
  CHECK(r->record.report.verdict() == pith::Verdict::verified);
  CHECK(r->failures.size() == 2);  // the two bundle paths: 404
}

TEST_CASE("faults at the server: a clear error alone, a fallback with a mirror", "[resolver][verified][faults]") {
  const Paper paper = make_paper(3);
  const Paper other = make_paper(4);
  nlohmann::json tampered = paper.bundle;
  tampered["canonical_record"]["metadata"]["primary_cat"] = "cs.AI";  // not re-signed
  nlohmann::json untrusted = pith::test::make_signed_bundle(
      [] {
        pith::test::RecordSpec s;
        s.title = "Resolver Test Paper 3";
        s.arxiv_id = "2401.10003";
        return s;
      }(),
      pith::test::other_signer());

  struct Fault {
    const char* name;
    std::function<void(const httplib::Request&, httplib::Response&)> handler;
    const char* expected;  // in the error when there is no mirror
    double timeout_seconds = 0.3;
  };
  const std::string big(pith::resolver::default_max_response_bytes + 10, ' ');
  const std::vector<Fault> faults = {
      {"404", [](const httplib::Request&, httplib::Response& res) { res.status = 404; }, "no record for"},
      {"500", [](const httplib::Request&, httplib::Response& res) { res.status = 500; }, "HTTP 500 after 3 attempts"},
      {"timeout",
       [](const httplib::Request&, httplib::Response& res) {
         std::this_thread::sleep_for(700ms);
         res.status = 404;
       },
       "timed out"},
      {"slow drip",
       [](const httplib::Request&, httplib::Response& res) {
         res.set_chunked_content_provider("application/json", [](size_t offset, httplib::DataSink& sink) {
           if (offset > 6) return false;
           std::this_thread::sleep_for(100ms);
           sink.write("{", 1);
           return true;
         });
       },
       "timed out"},
      {"truncated",
       [&paper](const httplib::Request&, httplib::Response& res) {
         res.set_content_provider(paper.bytes.size(), "application/json",
                                  [&paper](size_t offset, size_t, httplib::DataSink& sink) {
                                    if (offset > 0) return false;
                                    sink.write(paper.bytes.data(), paper.bytes.size() / 2);
                                    return true;
                                  });
       },
       "truncated"},
      {"oversized", [&big](const httplib::Request&, httplib::Response& res) { res.set_content(big, "application/json"); },
       "larger than 8388608 bytes", 5.0},  // the server compresses 8 MiB first: give it time
      {"non-JSON",
       [](const httplib::Request&, httplib::Response& res) { res.set_content("<html>hello</html>", "text/html"); },
       "not a registry document"},
      {"substitution",
       [&other](const httplib::Request&, httplib::Response& res) { res.set_content(other.bytes, "application/json"); },
       "substitution: asked for"},
      {"tampered",
       [&tampered](const httplib::Request&, httplib::Response& res) {
         res.set_content(pith::test::to_bytes(tampered), "application/json");
       },
       "failed verification"},
      {"untrusted signer",
       [&untrusted](const httplib::Request&, httplib::Response& res) {
         res.set_content(pith::test::to_bytes(untrusted), "application/json");
       },
       "failed verification"},
      {"redirect loop", [](const httplib::Request& req, httplib::Response& res) { res.set_redirect(req.path); },
       "too many redirects"},
  };

  for (const auto& fault : faults) {
    DYNAMIC_SECTION("fault: " << fault.name) {
      const auto cache = pith::test::fresh_temp_dir("rv-fault");
      LoopbackServer bad;
      bad.get(R"(/.*)", fault.handler);
      bad.start();
      {
        auto alone_options = options_for(bad.base_url(), cache);
        alone_options.timeout_seconds = fault.timeout_seconds;
        Resolver alone(alone_options, pith::test::test_trust());
        auto r = alone.resolve(paper.number);
        REQUIRE_FALSE(r);
        INFO(r.error().describe());
        CHECK(contains(r.error().message, fault.expected));
        const std::string name = fault.name;
        const bool bad_record = name == "substitution" || name == "tampered" || name == "untrusted signer";
        const pith::ErrorKind kind = r.error().kind;
        CHECK((kind == pith::ErrorKind::rejected || kind == pith::ErrorKind::unverifiable) == bad_record);
        CHECK((kind == pith::ErrorKind::unverifiable) == (name == "untrusted signer"));
        CHECK(contains(r.error().message, bad.base_url()));
        CHECK_FALSE(std::filesystem::exists(cache / (paper.body + ".json")));
      }
      LoopbackServer mirror;
      mirror.serve_bytes(bundle_path(paper), paper.bytes);
      mirror.start();
      auto o = options_for(bad.base_url(), cache);
      o.timeout_seconds = fault.timeout_seconds;
      o.mirrors = {mirror.base_url()};
      Resolver with_mirror(o, pith::test::test_trust());
      auto r = with_mirror.resolve(paper.number);
      REQUIRE(r);
      CHECK(r->origin == ResolutionOrigin::mirror);
      CHECK(r->record.document_bytes == paper.bytes);
      CHECK(r->record.report.verdict() == pith::Verdict::verified);
    }
  }
}

TEST_CASE("a 500 then success is retried and resolved from the server", "[resolver][verified][faults]") {
  const auto cache = pith::test::fresh_temp_dir("rv-retry");
  const Paper paper = make_paper(5);
  LoopbackServer server;
  std::atomic<int> calls{0};
  server.get(bundle_path(paper), [&](const httplib::Request&, httplib::Response& res) {
    if (calls++ == 0) {
      res.status = 500;
      return;
    }
    res.set_content(paper.bytes, "application/json");
  });
  server.start();
  Resolver resolver(options_for(server.base_url(), cache), pith::test::test_trust());
  auto r = resolver.resolve(paper.number);
  REQUIRE(r);
  CHECK(r->origin == ResolutionOrigin::server);
  CHECK(server.hits(bundle_path(paper)) == 2);
}

TEST_CASE("HTTPS: verified end to end; another host's certificate and a downgrade redirect fail over",
          "[resolver][verified][tls]") {
  const auto dir = pith::test::fresh_temp_dir("rv-tls");
  const auto good_pki = pith::test::make_test_pki(dir / "good");
  const auto other_pki = pith::test::make_test_pki(dir / "other", "DNS:other.example");
  const Paper paper = make_paper(6);

  LoopbackServer tls(good_pki);
  tls.serve_bytes(bundle_path(paper), paper.bytes);
  tls.start();
  auto o = options_for(tls.base_url(), dir / "cache1");
  o.cacert = good_pki.ca_cert.string();
  auto ok = Resolver(o, pith::test::test_trust()).resolve(paper.number);
  REQUIRE(ok);
  CHECK(ok->source == tls.base_url() + bundle_path(paper));

  LoopbackServer plain_mirror;
  plain_mirror.serve_bytes(bundle_path(paper), paper.bytes);
  plain_mirror.start();

  LoopbackServer wrong_host(other_pki);
  wrong_host.serve_bytes(bundle_path(paper), paper.bytes);
  wrong_host.start();
  auto wrong = options_for(wrong_host.base_url(), dir / "cache2");
  wrong.cacert = other_pki.ca_cert.string();
  wrong.mirrors = {plain_mirror.base_url()};
  auto via_mirror = Resolver(wrong, pith::test::test_trust()).resolve(paper.number);
  REQUIRE(via_mirror);
  CHECK(via_mirror->origin == ResolutionOrigin::mirror);
  REQUIRE_FALSE(via_mirror->failures.empty());
  CHECK(contains(via_mirror->failures.front(), "certificate"));
  CHECK(wrong_host.hits(bundle_path(paper)) == 0);  // TLS failed before any request

  LoopbackServer downgrade(good_pki);
  const std::string target = plain_mirror.base_url();
  downgrade.get(R"(/.*)", [target](const httplib::Request& req, httplib::Response& res) {
    res.set_redirect(target + req.path);
  });
  downgrade.start();
  auto down = options_for(downgrade.base_url(), dir / "cache3");
  down.cacert = good_pki.ca_cert.string();
  const std::size_t before = plain_mirror.hits(bundle_path(paper));
  auto refused = Resolver(down, pith::test::test_trust()).resolve(paper.number);
  REQUIRE_FALSE(refused);
  CHECK(contains(refused.error().message, "HTTPS never redirects to HTTP"));
  CHECK(plain_mirror.hits(bundle_path(paper)) == before);
}

TEST_CASE("a cache entry replaced by a tampered or foreign bundle is refetched, never used",
          "[resolver][verified][cache]") {
  const auto cache = pith::test::fresh_temp_dir("rv-poison");
  const Paper paper = make_paper(7);
  const Paper other = make_paper(8);
  LoopbackServer server;
  server.serve_bytes(bundle_path(paper), paper.bytes);
  server.start();
  const auto o = options_for(server.base_url(), cache);
  REQUIRE(Resolver(o, pith::test::test_trust()).resolve(paper.number));
  const auto entry = cache / (paper.body + ".json");

  std::string poison;
  SECTION("tampered") {
    nlohmann::json t = paper.bundle;
    t["canonical_record"]["metadata"]["license"] = "proprietary";
    poison = pith::test::to_bytes(t);
  }
  SECTION("another paper's valid bundle") { poison = other.bytes; }
  pith::test::write_file(entry, poison);

  auto r = Resolver(o, pith::test::test_trust()).resolve(paper.number);
  REQUIRE(r);
  CHECK(r->origin == ResolutionOrigin::server);
  CHECK(r->record.document_bytes == paper.bytes);
  CHECK(contains(all_text(*r), "resolver.cache.rejected"));
  CHECK(pith::test::read_file(entry) == paper.bytes);

  pith::test::write_file(entry, poison);
  auto off = o;
  off.offline = true;
  auto offline = Resolver(off, pith::test::test_trust()).resolve(paper.number);
  REQUIRE_FALSE(offline);
  CHECK(contains(offline.error().message, "offline"));
}

TEST_CASE("a batch of signed bundles resolves over reused connections", "[resolver][verified][batch]") {
  const auto cache = pith::test::fresh_temp_dir("rv-batch");
  LoopbackServer server;
  std::vector<std::string> numbers;
  for (int i = 20; i < 60; ++i) {
    const Paper p = make_paper(i);
    server.serve_bytes(bundle_path(p), p.bytes);
    numbers.push_back(p.number);
  }
  server.start();
  auto o = options_for(server.base_url(), cache);
  o.max_concurrency = 8;
  auto results = Resolver(o, pith::test::test_trust()).resolve_many(numbers);
  REQUIRE(results.size() == numbers.size());
  for (std::size_t i = 0; i < numbers.size(); ++i) {
    REQUIRE(results[i]);
    CHECK(results[i]->record.number().to_string() == numbers[i]);
  }
  CHECK(server.connections() <= 16);  // reuse: 40 lookups over a handful of connections

  // The batch was cached in one go: all of it verifies again offline.
  o.offline = true;
  auto cached = Resolver(o, pith::test::test_trust()).resolve_many(numbers);
  for (std::size_t i = 0; i < numbers.size(); ++i) {
    REQUIRE(cached[i]);
    CHECK(cached[i]->origin == ResolutionOrigin::cache);
    CHECK(cached[i]->record.number().to_string() == numbers[i]);
  }
  CHECK(std::filesystem::exists(cache / "aliases" / "arxiv-2401.10020v1"));
}
