// SPDX-License-Identifier: GPL-3.0-or-later
// pith-serve: the verification service and its web page (docs/serve.md).
// POST /api/v1/check answers what `pith-check --json` prints for the upload;
// GET /api/v1/pith/{id} resolves and verifies a number; GET /badge/{id}.svg
// is a status badge; GET / is the page. The work is in pith::serve
// (lib/pith/serve): the check broker (forked here before any thread exists)
// runs each check in an isolated child as pith-check does; the service
// (an event-driven server on Boost.Asio/Beast) reads uploads, bounds the
// load and the memory, and answers.
#include "pith/base/exit_codes.hpp"
#include "pith/base/terminal_text.hpp"
#include "pith/base/version.hpp"
#include "pith/registry/trust_store.hpp"
#include "pith/resolver/options.hpp"
#include "pith/serve/broker.hpp"
#include "pith/serve/http_server.hpp"
#include "pith/serve/listener.hpp"
#include "pith/serve/memory_budget.hpp"
#include "pith/serve/service.hpp"
#include "main_guard.hpp"
#include "resolver_cli.hpp"
#include "tool_cli.hpp"

#include <CLI/CLI.hpp>
#include <iostream>
#include <optional>
#include <string>
#include <thread>
#include <unistd.h>

namespace {

constexpr const char* footer = R"(Endpoints:
  GET  /                  the page: drop a PDF, read the verdict
  POST /api/v1/check      a PDF or registry document (raw body, or the form
                          part named file): the JSON of pith-check --json
  GET  /api/v1/pith/ID    a number resolved and verified: record, status,
                          events, completeness panel
  GET  /badge/ID.svg      verified / corrected / unknown (ETag, cacheable)
  GET  /healthz, /metrics (Prometheus text)

Answers: 200 with the verdict in the JSON (also for failed and error);
400 a malformed request, 408 a request head slower than --head-timeout or
an upload slower than --upload-deadline, 413 an upload over --max-upload,
431 a head over 16 KiB or 64 fields, 503 (Retry-After) all workers and
the queue busy, no room in --memory-budget, or too many connections.

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
pith::serve::BudgetPlan budget_plan(const pith::serve::ServiceOptions& options, const pith::serve::ServerLimits& limits,
                                    std::size_t check_memory, std::size_t measured) {
  pith::serve::BudgetPlan plan;
  plan.service_bytes = measured + service_allowance + options.lookups * per_lookup_allowance +
                       limits.max_connections * per_connection_allowance;
  plan.checks_bytes = options.jobs * check_memory;
  plan.smallest_upload_pool = 2 * (options.max_upload_bytes + pith::serve::multipart_slack_bytes);
  return plan;
}

// Without --memory-budget: room for every admitted upload at its largest,
// but no more than three quarters of what this host (or cgroup) gives.
std::size_t default_budget(const pith::serve::BudgetPlan& plan, const pith::serve::ServiceOptions& options) {
  const std::size_t wanted = plan.fixed() + (options.jobs + options.queue) * plan.smallest_upload_pool;
  const auto host = pith::serve::host_memory_limit();
  return host ? std::min(wanted, *host / 4 * 3) : wanted;
}

unsigned default_jobs() { return std::max(1u, std::thread::hardware_concurrency()); }

int serve_command(int argc, char** argv) {
  CLI::App app{"pith-serve: a verification service and web page for Pith Numbers (the checks of pith-check over HTTP)"};
  app.footer(footer);
  pith::cli::add_common_options(app, "pith-serve");  // --version, and the options listing for completions
  pith::resolver::ResolverOptions resolver_options = pith::resolver::ResolverOptions::from_environment();
  pith::serve::ServiceOptions options;
  options.jobs = default_jobs();
  std::string listen = "127.0.0.1:8080";
  std::vector<std::string> trust_keys;
  std::string keep_dir;
  pith::serve::ServerLimits limits;
  double head_timeout = 10;
  double upload_deadline = 120;
  double keep_alive_timeout = 5;
  double io_timeout = 10;
  std::optional<unsigned> threads;
  std::optional<std::size_t> memory_budget;
  app.add_option("--listen", listen, "address and port to serve on (default 127.0.0.1:8080; port 0: any free port)")
      ->type_name("HOST:PORT");
  app.add_option("--max-upload", options.max_upload_bytes, "largest upload accepted, in bytes (default 64 MiB; 413 beyond)")
      ->transform(CLI::AsSizeValue(false))
      ->type_name("SIZE");
  app.add_option("-j,--jobs", options.jobs, "checks at once, each in its own process (default: the number of cores)")
      ->check(CLI::Range(1u, 256u))
      ->type_name("N");
  app.add_option("--queue", options.queue, "checks waiting beyond --jobs before 503 (default 16)")
      ->check(CLI::Range(std::size_t{0}, std::size_t{4096}))
      ->type_name("N");
  app.add_option("--lookups", options.lookups, "registry lookups at once, as many more waiting (default 4)")
      ->check(CLI::Range(1u, 64u))
      ->type_name("N");
  app.add_option("--memory-budget", memory_budget,
                 "memory for the service, its broker and checks together; beyond, uploads get 503 (default: see below)")
      ->transform(CLI::AsSizeValue(false))
      ->type_name("SIZE");
  const std::string connections = "Connections";
  app.add_option("--max-connections", limits.max_connections, "connections open at once (default 1024; 503 beyond)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{65536}))
      ->type_name("N")
      ->group(connections);
  app.add_option("--max-connections-per-client", limits.max_connections_per_client,
                 "connections open at once from one address (default 64; behind a proxy: --max-connections)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{65536}))
      ->type_name("N")
      ->group(connections);
  app.add_option("--head-timeout", head_timeout, "seconds a whole request head may take (default 10; 408 beyond)")
      ->check(CLI::Range(0.1, 3600.0))
      ->type_name("SECONDS")
      ->group(connections);
  app.add_option("--upload-deadline", upload_deadline, "seconds a whole upload may take (default 120; 408 beyond)")
      ->check(CLI::Range(0.1, 86400.0))
      ->type_name("SECONDS")
      ->group(connections);
  app.add_option("--keep-alive-timeout", keep_alive_timeout, "seconds an idle connection is kept open (default 5)")
      ->check(CLI::Range(0.1, 3600.0))
      ->type_name("SECONDS")
      ->group(connections);
  app.add_option("--io-timeout", io_timeout, "seconds writing an answer may take (default 10)")
      ->check(CLI::Range(0.1, 3600.0))
      ->type_name("SECONDS")
      ->group(connections);
  app.add_option("--threads", threads, "no longer used: connections take no thread (accepted for old set-ups)")
      ->type_name("N")
      ->group("");
  app.add_option("--keep", keep_dir, "write each upload and its answer into DIR (by SHA-256); default: nothing on disk")
      ->check(CLI::ExistingDirectory)
      ->type_name("DIR");
  app.add_option("--cors", options.cors_origin, "allow this origin to call the API from a browser (default: no CORS)")
      ->type_name("ORIGIN");
  pith::cli::add_trust_key_option(app, trust_keys);
  pith::serve::BrokerOptions broker_options;
  const std::string check_limits = "Limits of each check (as pith-check's)";
  app.add_option("--check-cpu", broker_options.limits.cpu_seconds, "CPU seconds a check may use (default 30)")
      ->check(CLI::Range(1u, 3600u))
      ->type_name("SECONDS")
      ->group(check_limits);
  // Well below pith-check's 3 GiB: a page with 400,000 links (60 MB) checks
  // in 512 MiB beside two others, and the budget reserves this per job.
  broker_options.limits.memory_bytes = std::uint64_t{512} << 20;
  app.add_option("--check-memory", broker_options.limits.memory_bytes, "address space a check may use (default 512 MiB)")
      ->transform(CLI::AsSizeValue(false))
      ->type_name("SIZE")
      ->group(check_limits);
  app.add_option("--check-wall", broker_options.limits.wall_seconds, "seconds a check may take (default 60)")
      ->check(CLI::Range(1u, 3600u))
      ->type_name("SECONDS")
      ->group(check_limits);
  pith::cli::add_resolver_options(app, resolver_options);
  if (const auto done = pith::cli::parse_or_exit_code(app, argc, argv)) return *done;
  const auto address = pith::serve::ListenAddress::parse(listen);
  if (!address) {
    std::cerr << "pith-serve: --listen " << pith::terminal_safe(listen) << ": expected HOST:PORT, e.g. 127.0.0.1:8080\n";
    return pith::exit_code_for(pith::ErrorKind::usage);
  }
  options.resolver = resolver_options;
  if (!keep_dir.empty()) options.keep_dir = keep_dir;
  if (threads) std::cerr << "pith-serve: warning: --threads is no longer used (connections take no thread)\n";
  const auto ms = [](double seconds) { return std::chrono::milliseconds(static_cast<long long>(seconds * 1000)); };
  limits.head_timeout = ms(head_timeout);
  limits.body_timeout = ms(upload_deadline);
  limits.keep_alive_timeout = ms(keep_alive_timeout);
  limits.write_timeout = ms(io_timeout);
  limits.max_body_bytes = options.max_upload_bytes + pith::serve::multipart_slack_bytes;
  limits.worker_threads = options.worker_threads();

  auto loaded_trust = pith::cli::load_trust_store("pith-serve", trust_keys);
  if (!loaded_trust) return pith::exit_code_for(pith::ErrorKind::usage);
  const pith::registry::TrustStore& trust = *loaded_trust;

  // Before any thread: the broker forks the check children (broker.hpp).
  broker_options.jobs = options.jobs;
  auto broker = pith::serve::Broker::start(trust, broker_options);
  if (!broker) {
    std::cerr << "pith-serve: " << pith::terminal_safe(broker.error().describe()) << "\n";
    return pith::exit_code_for(broker.error());
  }

  // The budget: what is fixed (this process and the broker as measured now,
  // allowances, --jobs checks at their limit) is reserved for good; uploads
  // take the rest as they arrive.
  const auto plan = budget_plan(options, limits, broker_options.limits.memory_bytes,
                                pith::serve::resident_bytes(::getpid()) + pith::serve::resident_bytes((*broker)->pid()));
  const std::size_t budget_bytes = memory_budget.value_or(default_budget(plan, options));
  if (const auto short_by = plan.shortfall(budget_bytes)) {
    std::cerr << "pith-serve: " << *short_by << (memory_budget ? "" : " (no --memory-budget given: the default is at most "
                                                                    "three quarters of this host's memory)")
              << "\n";
    return pith::exit_code_for(pith::ErrorKind::usage);
  }
  if (const auto host = pith::serve::host_memory_limit(); host && budget_bytes > *host) {
    std::cerr << "pith-serve: warning: --memory-budget " << pith::serve::byte_size_text(budget_bytes)
              << " is more than this host gives (" << pith::serve::byte_size_text(*host) << ")\n";
  }
  pith::serve::MemoryBudget budget(budget_bytes);
  (void)budget.try_reserve(plan.fixed());

  pith::serve::block_stop_signals();  // before the service's threads start
  pith::serve::Service service(trust, **broker, options);
  pith::serve::HttpServer server(service, limits, budget);
  service.attach(server, budget);
  const auto port = pith::serve::bind_server(server, *address);
  if (!port) {
    std::cerr << "pith-serve: " << pith::terminal_safe(port.error().describe()) << "\n";
    return pith::exit_code_for(port.error());
  }
  std::cerr << "pith-serve " << pith::version_string << ": listening on http://"
            << pith::serve::ListenAddress{address->host, *port}.to_string() << " (jobs " << options.jobs << ", queue "
            << options.queue << ", " << (resolver_options.offline ? "offline" : "online") << ", memory budget "
            << pith::serve::byte_size_text(budget_bytes) << ": " << pith::serve::byte_size_text(plan.fixed())
            << " fixed, the rest for uploads)" << std::endl;
  pith::serve::serve_until_stopped(server, std::cerr);
  return pith::exit_code::ok;
}

}  // namespace

int main(int argc, char** argv) {
  return pith::cli::run_guarded("pith-serve", [&] { return serve_command(argc, argv); });
}
