// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// HTTP(S) GET for the resolver, done the way curl users expect: TLS
// verification always on (there is deliberately no switch to turn it off),
// connection reuse (one shared connection cache, HTTP/2 where offered),
// bounded redirects that never leave HTTPS nor go to a host that is not a
// configured base, no connection to a loopback, link-local or private
// address that is not a configured base's (issue 23), connect/total/low-speed timeouts,
// bounded retries with backoff on 5xx and timeouts only, a response size
// bound enforced while receiving, conditional requests, and `file://` bases
// for local mirrors. Every failure is an Error whose `where` is the URL.
#include "pith/base/error.hpp"

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pith::resolver {

inline constexpr std::size_t default_max_response_bytes = 8u * 1024u * 1024u;  // 8 MiB

struct HttpOptions {
  std::chrono::milliseconds connect_timeout{10'000};
  std::chrono::milliseconds total_timeout{30'000};
  // Abort a transfer slower than this many bytes/s for low_speed_time (slow drip).
  long low_speed_bytes_per_second = 512;
  std::chrono::seconds low_speed_time{10};
  int max_retries = 2;                                 // extra attempts after the first
  std::chrono::milliseconds retry_backoff{250};        // doubled after each retry
  std::size_t max_response_bytes = default_max_response_bytes;
  long max_redirects = 5;
  std::string cacert;  // CA bundle file (PEM) used instead of the system store; verification stays on
  // The bases the operator configured (the resolver, --mirror): their hosts
  // are the only ones a redirect may move to (besides staying on its own
  // host), and the only ones that may be loopback, link-local or private
  // addresses, unless one of them is itself at such an address (an IP
  // literal, or localhost): then any host may. So a mirror hint a signed
  // bundle names reaches public addresses only, as a public name that
  // resolves inside does. Empty: each request's own URL is the one
  // configured base (a client used alone).
  std::vector<std::string> configured_bases;
};

struct HttpRequest {
  HttpRequest() = default;
  HttpRequest(std::string url_, std::string accept_ = "application/json")  // NOLINT: implicit from a URL on purpose
      : url(std::move(url_)), accept(std::move(accept_)) {}

  std::string url;
  std::string accept = "application/json";
  std::optional<std::string> if_none_match;      // ETag of a cached copy
  std::optional<std::string> if_modified_since;  // Last-Modified of a cached copy
};

struct HttpResponse {
  std::string url;            // the URL asked for
  std::string effective_url;  // after redirects
  long status = 0;            // HTTP status (200 for a file:// that was read, 404 for a missing one)
  bool not_modified = false;  // 304 to a conditional request: use the cached copy
  std::string body;
  std::string content_type;
  std::string etag;
  std::string last_modified;
  int attempts = 1;

  [[nodiscard]] bool ok() const { return status >= 200 && status <= 299; }
  // "HTTP 404" (with the attempt count after retries), for error messages.
  [[nodiscard]] std::string status_text() const;
};

// Whether an IP address (a literal, IPv4 or IPv6, without brackets) is a
// global unicast one: false for loopback, link-local, private (RFC 1918,
// unique local), carrier-grade NAT, unspecified, multicast, reserved and
// documentation ranges, and for IPv4-mapped forms of those; nullopt when
// `text` is not an address.
[[nodiscard]] std::optional<bool> is_global_address(std::string_view text);

// One client = one connection cache (shared by sequential and batch
// transfers). Not thread-safe: use one client per thread.
class HttpClient {
 public:
  explicit HttpClient(HttpOptions options = {});
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;
  HttpClient(HttpClient&&) noexcept;
  HttpClient& operator=(HttpClient&&) noexcept;

  // A completed HTTP exchange, whatever its status (check ok()/not_modified),
  // else an Error naming the URL for a transport failure ("timed out ...",
  // "response larger than 8388608 bytes", "TLS certificate not valid ...").
  [[nodiscard]] Result<HttpResponse> get(const HttpRequest& request);

  // Many GETs at once over reused connections (curl multi), at most
  // `max_concurrency` in flight. Results are in request order.
  [[nodiscard]] std::vector<Result<HttpResponse>> get_many(const std::vector<HttpRequest>& requests,
                                                           std::size_t max_concurrency = 16);

  [[nodiscard]] const HttpOptions& options() const { return options_; }

 private:
  struct Impl;
  Impl& impl();  // made by the first request
  HttpOptions options_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace pith::resolver
