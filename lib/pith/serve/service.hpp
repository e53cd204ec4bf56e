// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// pith-serve's HTTP service on cpp-httplib (docs/serve.md): the routes, the
// limits and the logs. The checks themselves run in the check broker
// (broker.hpp), exactly as pith-check runs them; this side reads uploads,
// admits at most jobs + queue checks at once (503 beyond), resolves numbers
// (resolver.hpp: registry, mirrors, cache; offline as pith-check --offline)
// and answers JSON in pith-check's schema (docs/pith-check-json.md).
#include "pith/registry/trust_store.hpp"
#include "pith/resolver/options.hpp"
#include "pith/serve/broker.hpp"
#include "pith/serve/metrics.hpp"

#include <atomic>
#include <chrono>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>

namespace httplib {
class Server;
struct Request;
struct Response;
class ContentReader;
}  // namespace httplib

namespace pith::serve {

struct ServiceOptions {
  resolver::ResolverOptions resolver;  // registry, mirrors, cache, offline: as the CLI's
  std::size_t max_upload_bytes = std::size_t{64} << 20;
  unsigned jobs = 1;       // checks at once (the broker's children)
  std::size_t queue = 16;  // checks admitted beyond `jobs`, waiting
  unsigned threads = 16;   // HTTP worker threads (connections served at once)
  std::chrono::seconds io_timeout{10};       // per read / write on a connection
  std::chrono::seconds upload_deadline{120};  // a whole upload, however it trickles in
  std::optional<std::filesystem::path> keep_dir;  // --keep: uploads and answers written here
  std::string cors_origin;                        // empty: no CORS headers
};

class Service {
 public:
  Service(const registry::TrustStore& trust, const Broker& broker, ServiceOptions options);

  // Routes, limits, thread pool, default headers and the access log on `server`.
  void install(httplib::Server& server);

  [[nodiscard]] const Metrics& metrics() const { return metrics_; }

 private:
  void handle_check(const httplib::Request& request, httplib::Response& response,
                    const httplib::ContentReader& reader);
  void handle_lookup(const httplib::Request& request, httplib::Response& response);
  void handle_badge(const httplib::Request& request, httplib::Response& response);
  void handle_health(httplib::Response& response) const;
  void look_up_online(check::FileCheck& checked) const;
  void keep(const std::string& name, std::string_view bytes, const std::string& answer) const;

  const registry::TrustStore& trust_;
  const Broker& broker_;
  ServiceOptions options_;
  std::vector<std::string> resolver_bases_;
  Metrics metrics_;
  std::atomic<std::size_t> admitted_ = 0;
};

}  // namespace pith::serve
