// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// pith-serve's HTTP/1.1 server: one event loop (Boost.Asio) that owns every
// connection, and a pool of worker threads for the work that blocks (a check
// waits for the broker, a lookup for the registry). Issue 23: cpp-httplib's
// thread per connection let 20 clients that send one header line every 5 s
// hold every thread, /healthz included; here a connection costs a socket and
// a buffer, not a thread, and no client can hold one past its deadlines:
//
//   - the whole request head within `head_timeout` (not per read), at most
//     `max_header_bytes` and `max_header_fields`: 408 / 431 and closed;
//   - the whole body within `body_timeout` and `max_body_bytes`: 408 / 413;
//   - an idle keep-alive connection within `keep_alive_timeout`, and at most
//     `max_requests_per_connection` requests on one;
//   - at most `max_connections` open, and `max_connections_per_client` from
//     one address: beyond, 503 and closed at once;
//   - every body byte is reserved in the MemoryBudget as it arrives (twice:
//     the body and its copy for the check); none left: 503 and closed.
//
// /healthz, /metrics and the page are answered on the loop itself, never
// behind a worker or a slow client. Errors that leave a body unread close
// the connection after a short lingering read, so the client reads the answer
// instead of a reset.
#include "pith/base/error.hpp"
#include "pith/serve/memory_budget.hpp"

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace pith::serve {

struct ServerLimits {
  std::size_t max_connections = 1024;
  std::size_t max_connections_per_client = 64;
  std::size_t max_header_bytes = 16 * 1024;
  std::size_t max_header_fields = 64;
  std::size_t max_body_bytes = std::size_t{64} << 20;
  std::size_t max_requests_per_connection = 100;
  std::chrono::milliseconds head_timeout{10'000};
  std::chrono::milliseconds body_timeout{120'000};
  std::chrono::milliseconds keep_alive_timeout{5'000};
  std::chrono::milliseconds write_timeout{10'000};
  unsigned worker_threads = 4;
};

// A request as the handler sees it: the head, and the body once read.
struct Request {
  std::string method;
  std::string target;  // as sent: path and query
  std::string path;    // percent-decoded
  std::string remote_address;
  std::vector<std::pair<std::string, std::string>> headers;  // names lower case
  std::string body;
  MemoryReservation body_memory;  // the budget the body holds, released with it

  [[nodiscard]] std::string header(std::string_view lower_name) const;
  // A query parameter, percent-decoded ("+" as a space); nullopt when absent.
  [[nodiscard]] std::optional<std::string> query(std::string_view name) const;
};

struct Response {
  int status = 200;
  std::string content_type = "text/plain; charset=utf-8";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
  bool close = false;  // close the connection after this answer
};

// On a worker thread: work that may block.
using Job = std::function<Response()>;
// An answer now (cheap: on the loop), or a job for a worker.
using Prepared = std::variant<Response, Job>;

class HttpHandler {
 public:
  virtual ~HttpHandler() = default;
  // On the loop, once the head has arrived: whether this request's body is
  // wanted (an upload); the others' bodies must be empty (else 413).
  [[nodiscard]] virtual bool wants_body(const Request& head) const = 0;
  // On the loop, once the request is complete.
  [[nodiscard]] virtual Prepared prepare(Request request) = 0;
  // An error the server answers itself (400, 408, 413, 431, 503) to a
  // request for `path` (empty when the head was not read).
  [[nodiscard]] virtual Response error(int status, const std::string& why, const std::string& path) const = 0;
  // Headers every answer carries (security headers, Server).
  [[nodiscard]] virtual const std::vector<std::pair<std::string, std::string>>& default_headers() const = 0;
  // One line per answered request (or connection refused), from the loop or a worker.
  virtual void log(const std::string& remote_address, const std::string& method, const std::string& path,
                   int status) const = 0;
};

// What the server counts for /metrics (read from any thread).
struct ServerCounters {
  std::size_t open_connections = 0;
  std::uint64_t refused_connections = 0;      // over max_connections or the per-client cap
  std::uint64_t timed_out_heads = 0;          // head_timeout
  std::uint64_t timed_out_bodies = 0;         // body_timeout
  std::uint64_t refused_for_memory = 0;       // the budget had no room for a body
};

class HttpServer {
 public:
  HttpServer(HttpHandler& handler, ServerLimits limits, MemoryBudget& budget);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Binds host:port (port 0: any free one) with a backlog of 1024; the port
  // bound, or why not.
  [[nodiscard]] Result<int> bind(const std::string& host, int port);
  // Serves until stop(): the loop on this thread, the workers on theirs.
  void run();
  // From any thread: stop accepting, let the requests in progress finish,
  // close idle connections; run() then returns.
  void stop();

  [[nodiscard]] ServerCounters counters() const;

 private:
  friend class Connection;  // http_server.cpp: one connection of Impl's
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// "a%20b" -> "a b"; nullopt for a broken escape.
[[nodiscard]] std::optional<std::string> percent_decode(std::string_view text, bool plus_is_space = false);

}  // namespace pith::serve
