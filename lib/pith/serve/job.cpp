// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/serve/job.hpp"

#include "pith/base/command_line.hpp"
#include "pith/base/exit_codes.hpp"
#include "pith/base/version.hpp"
#include "pith/registry/trust_store.hpp"
#include "pith/resolver/command_line.hpp"
#include "pith/resolver/options.hpp"
#include "pith/runner/child_budget.hpp"
#include "pith/serve/broker.hpp"
#include "pith/serve/http_server.hpp"
#include "pith/serve/listener.hpp"
#include "pith/serve/memory_budget.hpp"
#include "pith/serve/service.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <iostream>
#include <optional>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

namespace pith::serve {
namespace {

constexpr const char* footer = R"(Endpoints:
  GET /                   the page: drop a PDF, read the verdict
  POST /api/v1/check      a PDF or registry document (raw body, or the form
                          part named file): the JSON of pith-check --json
  GET /api/v1/pith/ID     a number resolved and verified: record, status,
                          events, completeness panel (400 a malformed id,
                          404 a number the registry does not serve)
  GET /badge/ID.svg       verified / corrected / unknown (ETag, cacheable)
  GET /api/v1/openapi.json  this API as an OpenAPI 3.1 document
  GET /healthz            ok, or 503 once the check broker has stopped
  GET /metrics            Prometheus text

Answers: 200 with the verdict in the JSON (also for failed and error);
400 a malformed request, 404 an unknown page or number, 408 a request head
slower than --head-timeout or an upload slower than --upload-deadline, 413
an upload over --max-upload, 431 a head over 16 KiB or 64 fields, 502 a
lookup the registry did not answer, 503 (Retry-After) all workers and the
queue busy, no room in --memory-budget, or too many connections.

Exit codes: 0 stopped by SIGINT or SIGTERM; 2 usage error, an address that
cannot be bound, or the check broker could not start.

Each PDF is checked in its own process with CPU-time, memory and wall-clock
limits and a seccomp sandbox, as by pith-check. The service, the broker and
the checks stay under --memory-budget (default: three quarters of the
memory this host or its cgroup gives, at most what the queue can use):
--jobs x --check-memory and the service are reserved at start, every
upload byte twice as it arrives. Logs go to stderr. See docs/serve.md
(sizing, systemd unit, TLS reverse proxy).)";

// The service and the broker beside what was measured at start: libcurl and
// TLS once online, worker stacks, answers being built.
constexpr std::size_t service_allowance = std::size_t{64} << 20;
// A registry lookup: its answer (8 MiB at most) and the parsed document.
constexpr std::size_t per_lookup_allowance = std::size_t{32} << 20;
// A connection: its head (16 KiB at most) and buffers.
constexpr std::size_t per_connection_allowance = 48 * 1024;

// What the budget must hold for these options (memory_budget.hpp).
BudgetPlan budget_plan(const ServiceOptions& options, const ServerLimits& limits,
                                    std::size_t check_memory, std::size_t measured) {
  BudgetPlan plan;
  plan.service_bytes = measured + service_allowance + options.lookups * per_lookup_allowance +
                       limits.max_connections * per_connection_allowance;
  plan.checks_bytes = options.jobs * check_memory;
  plan.smallest_upload_pool = 2 * (options.max_upload_bytes + multipart_slack_bytes);
  return plan;
}

// Without --memory-budget: room for every admitted upload at its largest,
// but no more than three quarters of what this host (or cgroup) gives.
std::size_t default_budget(const BudgetPlan& plan, const ServiceOptions& options) {
  const std::size_t wanted = plan.fixed() + (options.jobs + options.queue) * plan.smallest_upload_pool;
  const auto host = host_memory_limit();
  return host ? std::min(wanted, *host / 4 * 3) : wanted;
}

unsigned default_jobs() { return std::max(1u, std::thread::hardware_concurrency()); }

// A failure to start (the broker, the address): exit 2 whatever its kind.
std::unexpected<Error> cannot_start(const Error& e) { return fail(ErrorKind::io, e.where, e.message); }

}  // namespace

struct ServeJob::Options {
  resolver::ResolverOptions resolver_options = resolver::ResolverOptions::from_environment();
  ServiceOptions service;
  std::string listen = "127.0.0.1:8080";
  std::vector<std::string> trust_keys;
  std::string keep_dir;
  ServerLimits limits;
  double head_timeout = 10;
  double upload_deadline = 120;
  double keep_alive_timeout = 5;
  double io_timeout = 10;
  std::optional<unsigned> threads;
  std::optional<std::size_t> memory_budget;
  BrokerOptions broker_options;
};

ServeJob::ServeJob() : Job("pith-serve"), options_(std::make_unique<Options>()) {
  options_->service.jobs = default_jobs();
  // Well below pith-check's 3 GiB: a page with 400,000 links (60 MB) checks
  // in 512 MiB beside two others, and the budget reserves this per job.
  options_->broker_options.limits.memory_bytes = runner::default_child_memory_mib << 20;
  options_->broker_options.limits.memory_option = "pith-serve --check-memory SIZE";
  options_->broker_options.limits.time_option = "pith-serve --check-wall SECONDS";
}

ServeJob::~ServeJob() = default;

void ServeJob::declare(CLI::App& app) {
  Options& o = *options_;
  app.description("pith-serve: a verification service and web page for Pith Numbers (the checks of pith-check over HTTP)");
  app.footer(footer);
  app.name("");  // "Usage:" names the program as it was called (argv[0]), as it always has
  app.add_option("--listen", o.listen, "address and port to serve on (default 127.0.0.1:8080; port 0: any free port)")
      ->type_name("HOST:PORT");
  app.add_option("--max-upload", o.service.max_upload_bytes, "largest upload accepted, in bytes (default 64 MiB; 413 beyond)")
      ->transform(CLI::AsSizeValue(false))
      ->type_name("SIZE");
  app.add_option("-j,--jobs", o.service.jobs, "checks at once, each in its own process (default: the number of cores)")
      ->check(CLI::Range(1u, 256u))
      ->type_name("N");
  app.add_option("--queue", o.service.queue, "checks waiting beyond --jobs before 503 (default 16)")
      ->check(CLI::Range(std::size_t{0}, std::size_t{4096}))
      ->type_name("N");
  app.add_option("--lookups", o.service.lookups, "registry lookups at once, as many more waiting (default 4)")
      ->check(CLI::Range(1u, 64u))
      ->type_name("N");
  app.add_option("--memory-budget", o.memory_budget,
                 "memory for the service, its broker and checks together; beyond, uploads get 503 (default: see below)")
      ->transform(CLI::AsSizeValue(false))
      ->type_name("SIZE");
  const std::string connections = "Connections";
  app.add_option("--max-connections", o.limits.max_connections, "connections open at once (default 1024; 503 beyond)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{65536}))
      ->type_name("N")
      ->group(connections);
  app.add_option("--max-connections-per-client", o.limits.max_connections_per_client,
                 "connections open at once from one address (default 64; behind a proxy: --max-connections)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{65536}))
      ->type_name("N")
      ->group(connections);
  app.add_option("--head-timeout", o.head_timeout, "seconds a whole request head may take (default 10; 408 beyond)")
      ->check(CLI::Range(0.1, 3600.0))
      ->type_name("SECONDS")
      ->group(connections);
  app.add_option("--upload-deadline", o.upload_deadline, "seconds a whole upload may take (default 120; 408 beyond)")
      ->check(CLI::Range(0.1, 86400.0))
      ->type_name("SECONDS")
      ->group(connections);
  app.add_option("--keep-alive-timeout", o.keep_alive_timeout, "seconds an idle connection is kept open (default 5)")
      ->check(CLI::Range(0.1, 3600.0))
      ->type_name("SECONDS")
      ->group(connections);
  app.add_option("--io-timeout", o.io_timeout, "seconds writing an answer may take (default 10)")
      ->check(CLI::Range(0.1, 3600.0))
      ->type_name("SECONDS")
      ->group(connections);
  app.add_option("--threads", o.threads, "no longer used: connections take no thread (accepted for old set-ups)")
      ->type_name("N")
      ->group("");
  app.add_option("--keep", o.keep_dir, "write each upload and its answer into DIR (by SHA-256); default: nothing on disk")
      ->check(CLI::ExistingDirectory)
      ->type_name("DIR");
  app.add_option("--cors", o.service.cors_origin, "allow this origin to call the API from a browser (default: no CORS)")
      ->type_name("ORIGIN");
  cli::add_trust_key_option(app, o.trust_keys);
  const std::string check_limits = "Limits of each check (as pith-check's)";
  app.add_option("--check-cpu", o.broker_options.limits.cpu_seconds, "CPU seconds a check may use (default 30)")
      ->check(CLI::Range(1u, 3600u))
      ->type_name("SECONDS")
      ->group(check_limits);
  app.add_option("--check-memory", o.broker_options.limits.memory_bytes, "address space a check may use (default 512 MiB)")
      ->transform(CLI::AsSizeValue(false))
      ->type_name("SIZE")
      ->group(check_limits);
  app.add_option("--check-wall", o.broker_options.limits.wall_seconds, "seconds a check may take (default 60)")
      ->check(CLI::Range(1u, 3600u))
      ->type_name("SECONDS")
      ->group(check_limits);
  cli::add_resolver_options(app, o.resolver_options);
}

Result<int> ServeJob::run() {
  Options& o = *options_;
  const auto address = ListenAddress::parse(o.listen);
  if (!address) return fail(ErrorKind::usage, "--listen " + o.listen, "expected HOST:PORT, e.g. 127.0.0.1:8080");
  o.service.resolver = o.resolver_options;
  if (!o.keep_dir.empty()) o.service.keep_dir = o.keep_dir;
  if (o.threads) warn("--threads is no longer used (connections take no thread)");
  const auto ms = [](double seconds) { return std::chrono::milliseconds(static_cast<long long>(seconds * 1000)); };
  o.limits.head_timeout = ms(o.head_timeout);
  o.limits.body_timeout = ms(o.upload_deadline);
  o.limits.keep_alive_timeout = ms(o.keep_alive_timeout);
  o.limits.write_timeout = ms(o.io_timeout);
  o.limits.max_body_bytes = o.service.max_upload_bytes + multipart_slack_bytes;
  o.limits.worker_threads = o.service.worker_threads();

  std::vector<std::string> warnings;
  const auto loaded_trust = registry::TrustStore::load(o.trust_keys, &warnings);
  for (const auto& w : warnings) warn(w);
  if (!loaded_trust) return fail(ErrorKind::usage, "", "--trust-key " + loaded_trust.error().describe());
  const registry::TrustStore& trust = *loaded_trust;

  // Before any thread: the broker forks the check children (broker.hpp).
  o.broker_options.jobs = o.service.jobs;
  auto broker = Broker::start(trust, o.broker_options);
  if (!broker) return cannot_start(broker.error());

  // The budget: what is fixed (this process and the broker as measured now,
  // allowances, --jobs checks at their limit) is reserved for good; uploads
  // take the rest as they arrive.
  const auto plan = budget_plan(o.service, o.limits, o.broker_options.limits.memory_bytes,
                                resident_bytes(::getpid()) + resident_bytes((*broker)->pid()));
  const std::size_t budget_bytes = o.memory_budget.value_or(default_budget(plan, o.service));
  if (const auto short_by = plan.shortfall(budget_bytes)) {
    return fail(ErrorKind::usage, "", *short_by + (o.memory_budget ? "" : " (no --memory-budget given: the default is at "
                                                                         "most three quarters of this host's memory)"));
  }
  if (const auto host = host_memory_limit(); host && budget_bytes > *host) {
    warn("--memory-budget " + byte_size_text(budget_bytes) + " is more than this host gives (" + byte_size_text(*host) + ")");
  }
  MemoryBudget budget(budget_bytes);
  (void)budget.try_reserve(plan.fixed());

  block_stop_signals();  // before the service's threads start
  Service service(trust, **broker, o.service);
  HttpServer server(service, o.limits, budget);
  service.attach(server, budget);
  const auto port = bind_server(server, *address);
  if (!port) return cannot_start(port.error());
  std::cerr << "pith-serve " << version_string << ": listening on http://"
            << ListenAddress{address->host, *port}.to_string() << " (jobs " << o.service.jobs << ", queue "
            << o.service.queue << ", " << (o.resolver_options.offline ? "offline" : "online") << ", memory budget "
            << byte_size_text(budget_bytes) << ": " << byte_size_text(plan.fixed())
            << " fixed, the rest for uploads)" << std::endl;
  serve_until_stopped(server, std::cerr);
  return exit_code::ok;
}

}  // namespace pith::serve
