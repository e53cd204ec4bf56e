// SPDX-License-Identifier: GPL-3.0-or-later
// The HTTP client against real servers on 127.0.0.1: statuses, retries,
// timeouts, slow drip, truncation, size bound, redirects, TLS, conditional
// requests, file:// and connection reuse.
#include "pith/resolver/http_client.hpp"
#include "pith/base/version.hpp"
#include "support/loopback_server.hpp"
#include "support/test_data.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <thread>

using namespace std::chrono_literals;
using pith::resolver::HttpClient;
using pith::resolver::HttpOptions;
using pith::resolver::HttpRequest;
using pith::test::LoopbackServer;

namespace {

HttpOptions fast_options() {
  HttpOptions o;
  o.connect_timeout = 500ms;
  o.total_timeout = 800ms;
  o.retry_backoff = 10ms;
  o.max_retries = 2;
  o.low_speed_time = 1s;
  return o;
}

// fast_options() that give up on a request after 300 ms and one retry.
HttpOptions impatient_options() {
  HttpOptions o = fast_options();
  o.total_timeout = 300ms;
  o.max_retries = 1;
  return o;
}

// fast_options() that trust the CA in `ca` (a PEM file) instead of the system's.
HttpOptions trusting(const std::filesystem::path& ca) {
  HttpOptions o = fast_options();
  o.cacert = ca.string();
  return o;
}

// A handler that answers "late", `delay` after the request.
httplib::Server::Handler answers_late(std::chrono::milliseconds delay) {
  return [delay](const httplib::Request&, httplib::Response& res) {
    std::this_thread::sleep_for(delay);
    res.set_content("late", "text/plain");
  };
}

// A handler that answers 500 to its first request and "ok" to every later one.
httplib::Server::Handler fails_the_first_time() {
  auto calls = std::make_shared<std::atomic<int>>(0);
  return [calls](const httplib::Request&, httplib::Response& res) {
    if ((*calls)++ == 0) {
      res.status = 500;
      return;
    }
    res.set_content("ok", "text/plain");
  };
}

bool contains(const std::string& haystack, const std::string& needle) { return haystack.find(needle) != std::string::npos; }

}  // namespace

TEST_CASE("a 200 answer carries the body, ETag and our User-Agent", "[http]") {
  LoopbackServer server;
  server.serve_bytes("/doc.json", R"({"a":1})");
  server.start();
  HttpClient client(fast_options());
  auto r = client.get({server.base_url() + "/doc.json"});
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(r->body == R"({"a":1})");
  CHECK_FALSE(r->etag.empty());
  CHECK(r->last_modified == "Sun, 05 Jul 2026 02:46:28 GMT");
  const auto reqs = server.requests();
  REQUIRE(reqs.size() == 1);
  CHECK(reqs[0].user_agent == pith::user_agent);
  CHECK(reqs[0].accept == "application/json");
}

TEST_CASE("a 404 is an answer, not retried", "[http]") {
  LoopbackServer server;
  server.start();
  HttpClient client(fast_options());
  auto r = client.get({server.base_url() + "/missing"});
  REQUIRE(r);
  CHECK(r->status == 404);
  CHECK_FALSE(r->ok());
  CHECK(server.hits("/missing") == 1);
}

TEST_CASE("a 500 is retried with backoff and the later success is used", "[http]") {
  LoopbackServer server;
  server.get("/flaky", fails_the_first_time());
  server.start();
  HttpClient client(fast_options());
  auto r = client.get({server.base_url() + "/flaky"});
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(r->body == "ok");
  CHECK(r->attempts == 2);
}

TEST_CASE("a lasting 503 gives up after the bounded retries", "[http]") {
  LoopbackServer server;
  server.get("/down", [](const httplib::Request&, httplib::Response& res) { res.status = 503; });
  server.start();
  HttpClient client(fast_options());
  auto r = client.get({server.base_url() + "/down"});
  REQUIRE(r);
  CHECK(r->status == 503);
  CHECK(r->attempts == 3);
  CHECK(server.hits("/down") == 3);
  CHECK(r->status_text() == "HTTP 503 after 3 attempts");
}

TEST_CASE("a server that does not answer in time is a timeout error naming the URL", "[http]") {
  LoopbackServer server;
  server.get("/hang", answers_late(1200ms));
  server.start();
  HttpClient client(impatient_options());
  const std::string url = server.base_url() + "/hang";
  auto r = client.get({url});
  REQUIRE_FALSE(r);
  CHECK(r.error().where == url);
  CHECK(contains(r.error().message, "timed out"));
  CHECK(server.hits("/hang") == 2);  // timeouts are retried
}

TEST_CASE("a slow drip is cut by the low-speed limit", "[http]") {
  LoopbackServer server;
  server.get("/drip", [](const httplib::Request&, httplib::Response& res) {
    res.set_chunked_content_provider("application/json", [](size_t offset, httplib::DataSink& sink) {
      if (offset >= 40) {
        sink.done();
        return true;
      }
      std::this_thread::sleep_for(100ms);
      sink.write("x", 1);
      return true;
    });
  });
  server.start();
  auto o = fast_options();
  o.total_timeout = 20s;  // only the low-speed limit can stop it early
  o.low_speed_bytes_per_second = 1000;
  o.low_speed_time = 1s;
  o.max_retries = 0;
  HttpClient client(o);
  // The whole drip takes 4 s, well inside the total timeout: only the
  // low-speed limit can make this fail.
  auto r = client.get({server.base_url() + "/drip"});
  REQUIRE_FALSE(r);
  CHECK(contains(r.error().message, "timed out"));
}

TEST_CASE("a body cut short of its Content-Length is an error", "[http]") {
  LoopbackServer server;
  server.get("/short", [](const httplib::Request&, httplib::Response& res) {
    res.set_content_provider(1000, "application/json", [](size_t offset, size_t, httplib::DataSink& sink) {
      if (offset > 0) return false;  // close the connection mid-body
      sink.write("{\"truncated\":", 13);
      return true;
    });
  });
  server.start();
  HttpClient client(fast_options());
  auto r = client.get({server.base_url() + "/short"});
  REQUIRE_FALSE(r);
  INFO(r.error().describe());
  CHECK((contains(r.error().message, "truncated") || contains(r.error().message, "closed") ||
         contains(r.error().message, "Connection")));
}

TEST_CASE("bodies over the size bound are refused, announced or not", "[http]") {
  LoopbackServer server;
  const std::string big(pith::resolver::default_max_response_bytes + 1, 'x');
  server.serve_bytes("/big", big);
  server.get("/big-chunked", [&big](const httplib::Request&, httplib::Response& res) {
    res.set_chunked_content_provider("application/json", [&big](size_t offset, httplib::DataSink& sink) {
      if (offset >= big.size()) {
        sink.done();
        return true;
      }
      const size_t n = std::min<size_t>(65536, big.size() - offset);
      sink.write(big.data() + offset, n);
      return true;
    });
  });
  server.start();
  auto o = fast_options();
  o.total_timeout = 5s;
  HttpClient client(o);
  for (const char* path : {"/big", "/big-chunked"}) {
    auto r = client.get({server.base_url() + path});
    REQUIRE_FALSE(r);
    CHECK(contains(r.error().message, "larger than 8388608 bytes"));
  }
}

TEST_CASE("redirects are followed within the limit, and a loop is an error", "[http]") {
  LoopbackServer server;
  server.serve_bytes("/target", "here");
  server.get("/hop", [](const httplib::Request&, httplib::Response& res) { res.set_redirect("/target"); });
  server.get("/loop", [](const httplib::Request&, httplib::Response& res) { res.set_redirect("/loop"); });
  server.start();
  HttpClient client(fast_options());
  auto ok = client.get({server.base_url() + "/hop"});
  REQUIRE(ok);
  CHECK(ok->body == "here");
  CHECK(ok->effective_url == server.base_url() + "/target");
  auto loop = client.get({server.base_url() + "/loop"});
  REQUIRE_FALSE(loop);
  CHECK(contains(loop.error().message, "too many redirects"));
  CHECK(server.hits("/loop") == 6);  // the first request and 5 redirects
}

TEST_CASE("a redirect to another host or port is refused with the reason unless it is a configured base", "[http]") {
  LoopbackServer internal;  // a listener the registry must not be able to point us at
  internal.serve_bytes("/internal/secret", "secret");
  internal.start();
  LoopbackServer registry;
  const std::string target = internal.base_url() + "/internal/secret";
  registry.get("/away", [target](const httplib::Request&, httplib::Response& res) { res.set_redirect(target, 302); });
  registry.start();

  auto o = fast_options();
  o.configured_bases = {registry.base_url()};
  HttpClient client(o);
  auto r = client.get({registry.base_url() + "/away"});
  REQUIRE_FALSE(r);
  CHECK(r.error().where == registry.base_url() + "/away");
  CHECK(contains(r.error().message, "redirect to 127.0.0.1:" + std::to_string(internal.port()) +
                                        " (a loopback, link-local or private address), which is not a configured base"));
  CHECK(internal.hits("/internal/secret") == 0);

  // The same hop to a base the operator configured is followed.
  o.configured_bases.push_back(internal.base_url());
  HttpClient trusting(o);
  auto followed = trusting.get({registry.base_url() + "/away"});
  REQUIRE(followed);
  CHECK(followed->body == "secret");
  CHECK(followed->effective_url == target);
}

TEST_CASE("a host that is not a configured base never reaches a loopback address", "[http]") {
  LoopbackServer hinted;  // e.g. a mirror hint pointing at 127.0.0.1
  hinted.serve_bytes("/pith/X/bundle.json", "{}");
  hinted.start();
  auto o = fast_options();
  o.configured_bases = {"https://registry.example"};
  HttpClient client(o);
  auto r = client.get({hinted.base_url() + "/pith/X/bundle.json"});
  REQUIRE_FALSE(r);
  CHECK(contains(r.error().message, "leads to 127.0.0.1, a loopback, link-local or private address"));
  CHECK(hinted.hits("/pith/X/bundle.json") == 0);
  // And in a batch.
  auto many = client.get_many({{hinted.base_url() + "/pith/X/bundle.json"}, {hinted.base_url() + "/pith/X/bundle.json"}});
  for (const auto& one : many) {
    REQUIRE_FALSE(one);
    CHECK(contains(one.error().message, "private address"));
  }
  CHECK(hinted.connections() == 0);
}

TEST_CASE("global addresses are told from internal ones", "[http]") {
  using pith::resolver::is_global_address;
  for (const char* internal : {"127.0.0.1", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254",
                               "100.64.0.1", "0.0.0.0", "224.0.0.1", "255.255.255.255", "::1", "::", "fe80::1", "fd00::1",
                               "::ffff:127.0.0.1", "::ffff:10.0.0.1", "ff02::1", "2001:db8::1"}) {
    INFO(internal);
    CHECK(is_global_address(internal) == false);
  }
  for (const char* global : {"93.184.216.34", "172.32.0.1", "8.8.8.8", "2606:4700::1111", "::ffff:8.8.8.8"}) {
    INFO(global);
    CHECK(is_global_address(global) == true);
  }
  CHECK_FALSE(is_global_address("registry.example").has_value());
}

TEST_CASE("a conditional request gets 304 Not Modified", "[http]") {
  LoopbackServer server;
  server.serve_bytes("/doc.json", "{}");
  server.start();
  HttpClient client(fast_options());
  auto first = client.get({server.base_url() + "/doc.json"});
  REQUIRE(first);
  HttpRequest again{server.base_url() + "/doc.json"};
  again.if_none_match = first->etag;
  again.if_modified_since = first->last_modified;
  auto second = client.get(again);
  REQUIRE(second);
  CHECK(second->not_modified);
  CHECK(second->status == 304);
  CHECK(second->body.empty());
  CHECK(server.requests().back().if_none_match == first->etag);
}

TEST_CASE("file:// reads local mirrors; a missing file reads as 404", "[http]") {
  const auto dir = pith::test::fresh_temp_dir("file");
  std::ofstream(dir / "doc.json") << "{\"local\":true}";
  HttpClient client(fast_options());
  auto r = client.get({"file://" + (dir / "doc.json").string()});
  REQUIRE(r);
  CHECK(r->status == 200);
  CHECK(r->body == "{\"local\":true}");
  auto missing = client.get({"file://" + (dir / "nope.json").string()});
  REQUIRE(missing);
  CHECK(missing->status == 404);
  std::filesystem::remove_all(dir);
}

TEST_CASE("sequential requests reuse one keep-alive connection", "[http]") {
  LoopbackServer server;
  server.serve_bytes("/a", "a");
  server.start();
  HttpClient client(fast_options());
  for (int i = 0; i < 12; ++i) REQUIRE(client.get({server.base_url() + "/a"}));
  CHECK(server.hits("/a") == 12);
  CHECK(server.connections() == 1);
}

TEST_CASE("a batch runs concurrently over few reused connections, results in order", "[http]") {
  LoopbackServer server;
  for (int i = 0; i < 40; ++i) server.serve_bytes("/n" + std::to_string(i), std::to_string(i));
  server.start();
  HttpClient client(fast_options());
  std::vector<HttpRequest> reqs;
  for (int i = 0; i < 40; ++i) reqs.push_back({server.base_url() + "/n" + std::to_string(i)});
  reqs.push_back({server.base_url() + "/missing"});
  auto results = client.get_many(reqs, 4);
  REQUIRE(results.size() == 41);
  for (int i = 0; i < 40; ++i) {
    REQUIRE(results[i]);
    CHECK(results[i]->body == std::to_string(i));
  }
  REQUIRE(results[40]);
  CHECK(results[40]->status == 404);
  CHECK(server.connections() <= 8);  // reuse: 41 requests over a handful of connections
}

TEST_CASE("a batch retries a 500 and reports a timeout per request", "[http]") {
  LoopbackServer server;
  server.get("/flaky", fails_the_first_time());
  server.get("/hang", answers_late(900ms));
  server.serve_bytes("/fine", "fine");
  server.start();
  HttpClient client(impatient_options());
  auto results = client.get_many({{server.base_url() + "/flaky"}, {server.base_url() + "/hang"},
                                  {server.base_url() + "/fine"}},
                                 8);
  REQUIRE(results[0]);
  CHECK(results[0]->body == "ok");
  CHECK(results[0]->attempts == 2);
  REQUIRE_FALSE(results[1]);
  CHECK(contains(results[1].error().message, "timed out"));
  REQUIRE(results[2]);
  CHECK(results[2]->body == "fine");
}

TEST_CASE("HTTPS: verified with --cacert, refused without it or for another host", "[http][tls]") {
  const auto dir = pith::test::fresh_temp_dir("tls");
  const auto good = pith::test::make_test_pki(dir / "good");
  const auto other = pith::test::make_test_pki(dir / "other", "DNS:other.example");

  LoopbackServer tls(good);
  tls.serve_bytes("/doc.json", "secure");
  tls.start();
  {
    HttpClient client(trusting(good.ca_cert));
    auto r = client.get({tls.base_url() + "/doc.json"});
    REQUIRE(r);
    CHECK(r->body == "secure");
  }
  {
    HttpClient client(fast_options());  // system CAs do not know our test CA
    auto r = client.get({tls.base_url() + "/doc.json"});
    REQUIRE_FALSE(r);
    CHECK(contains(r.error().message, "certificate"));
  }
  LoopbackServer wrong_host(other);
  wrong_host.serve_bytes("/doc.json", "secure?");
  wrong_host.start();
  {
    HttpClient client(trusting(other.ca_cert));  // trusted CA, but the certificate names another host
    auto r = client.get({wrong_host.base_url() + "/doc.json"});
    REQUIRE_FALSE(r);
    CHECK(contains(r.error().message, "certificate"));
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("HTTPS never redirects down to plain HTTP", "[http][tls]") {
  const auto dir = pith::test::fresh_temp_dir("downgrade");
  const auto pki = pith::test::make_test_pki(dir);
  LoopbackServer plain;
  plain.serve_bytes("/doc.json", "plain");
  plain.start();
  LoopbackServer tls(pki);
  const std::string target = plain.base_url() + "/doc.json";
  tls.get("/doc.json", [target](const httplib::Request&, httplib::Response& res) { res.set_redirect(target); });
  tls.start();
  HttpClient client(trusting(pki.ca_cert));
  auto r = client.get({tls.base_url() + "/doc.json"});
  REQUIRE_FALSE(r);
  CHECK(contains(r.error().message, "HTTPS never redirects to HTTP"));
  CHECK(plain.hits("/doc.json") == 0);
  std::filesystem::remove_all(dir);
}
