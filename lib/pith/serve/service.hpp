// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// pith-serve's routes (docs/serve.md) on the event-driven server
// (http_server.hpp). The checks themselves run in the check broker
// (broker.hpp), exactly as pith-check runs them; this side takes uploads,
// admits at most jobs + queue checks at once (503 beyond), resolves numbers
// (resolver.hpp: registry, mirrors, cache; offline as pith-check --offline)
// at most `lookups` at once, and answers JSON in pith-check's schema
// (docs/pith-check-json.md). Answers are public: they never name a base, a
// cache path or a per-URL status (the operator's log does).
#include "pith/registry/trust_store.hpp"
#include "pith/resolver/options.hpp"
#include "pith/resolver/resolver.hpp"
#include "pith/serve/broker.hpp"
#include "pith/serve/http_server.hpp"
#include "pith/serve/memory_budget.hpp"
#include "pith/serve/metrics.hpp"

#include <atomic>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <semaphore>
#include <string>
#include <vector>

namespace pith::serve {

struct ServiceOptions {
  resolver::ResolverOptions resolver;  // registry, mirrors, cache, offline: as the CLI's
  std::size_t max_upload_bytes = std::size_t{64} << 20;
  unsigned jobs = 1;         // checks at once (the broker's children)
  std::size_t queue = 16;    // checks admitted beyond `jobs`, waiting
  unsigned lookups = 4;      // registry lookups at once (as many more may wait)
  std::optional<std::filesystem::path> keep_dir;  // --keep: uploads and answers written here
  std::string cors_origin;                        // empty: no CORS headers

  // Worker threads the server needs: every admitted check and lookup waits
  // on one (for the broker, the registry).
  [[nodiscard]] unsigned worker_threads() const { return jobs + static_cast<unsigned>(queue) + 2 * lookups; }
};

// Multipart framing allowed beyond --max-upload.
inline constexpr std::size_t multipart_slack_bytes = 64 * 1024;

class Service final : public HttpHandler {
 public:
  Service(const registry::TrustStore& trust, const Broker& broker, ServiceOptions options);

  // For /metrics: the server's connection counters and the memory budget.
  void attach(const HttpServer& server, const MemoryBudget& budget);

  [[nodiscard]] bool wants_body(const Request& head) const override;
  [[nodiscard]] Prepared prepare(Request request) override;
  [[nodiscard]] Response error(int status, const std::string& why, const std::string& path) const override;
  [[nodiscard]] const std::vector<std::pair<std::string, std::string>>& default_headers() const override {
    return default_headers_;
  }
  void log(const std::string& remote_address, const std::string& method, const std::string& path,
           int status) const override;

  [[nodiscard]] const Metrics& metrics() const { return metrics_; }

 private:
  [[nodiscard]] Prepared prepare_check(Request request);
  [[nodiscard]] Prepared prepare_lookup(const std::string& id, bool badge, const Request& request);
  [[nodiscard]] Response check_upload(const std::string& name, std::string_view bytes, const Request& request);
  [[nodiscard]] Response lookup(const std::string& id, const Request& request);
  [[nodiscard]] Response badge(const std::string& id, const Request& request);
  [[nodiscard]] Response health() const;
  [[nodiscard]] Response metrics_answer() const;
  void look_up_online(check::FileCheck& checked);
  [[nodiscard]] Result<resolver::Resolution> resolve(const std::string& id);
  void keep(const std::string& name, std::string_view bytes, const std::string& answer) const;
  void add_cors(const std::string& path, Response& response) const;

  const registry::TrustStore& trust_;
  const Broker& broker_;
  ServiceOptions options_;
  std::vector<std::string> resolver_bases_;
  std::vector<std::pair<std::string, std::string>> default_headers_;
  mutable Metrics metrics_;  // counted from const paths too (errors the server answers)
  std::atomic<std::size_t> admitted_ = 0;          // checks: jobs + queue at most
  std::atomic<std::size_t> lookups_admitted_ = 0;  // lookups: 2 × lookups at most
  std::counting_semaphore<1024> resolver_slots_;   // lookups resolving at once
  const HttpServer* server_ = nullptr;
  const MemoryBudget* budget_ = nullptr;
};

}  // namespace pith::serve
