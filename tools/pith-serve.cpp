// SPDX-License-Identifier: GPL-3.0-or-later
// pith-serve: the verification service and its web page (docs/serve.md).
// POST /api/v1/check answers what `pith-check --json` prints for the upload;
// GET /api/v1/pith/{id} resolves and verifies a number; GET /badge/{id}.svg
// is a status badge; GET / is the page. The work is in pith::serve
// (lib/pith/serve): the check broker (forked here before any thread exists)
// runs each check in an isolated child as pith-check does; the service
// (cpp-httplib) reads uploads, bounds the load and answers.
#include "pith/base/exit_codes.hpp"
#include "pith/base/terminal_text.hpp"
#include "pith/base/version.hpp"
#include "pith/registry/trust_store.hpp"
#include "pith/resolver/options.hpp"
#include "pith/serve/broker.hpp"
#include "pith/serve/http_server.hpp"
#include "pith/serve/listener.hpp"
#include "pith/serve/service.hpp"
#include "main_guard.hpp"
#include "resolver_cli.hpp"
#include "tool_cli.hpp"

#include <CLI/CLI.hpp>
#include <iostream>
#include <optional>
#include <string>
#include <thread>

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
400 a malformed request, 408 an upload slower than --upload-deadline,
413 an upload over --max-upload, 503 (Retry-After) all workers and the
queue busy.

Exit codes: 0 stopped by SIGINT or SIGTERM; 2 usage error, an address that
cannot be bound, or the check broker could not start.

Each PDF is checked in its own process with CPU-time, memory and wall-clock
limits and a seccomp sandbox, as by pith-check. Logs go to stderr. See
docs/serve.md (systemd unit, TLS reverse proxy).)";

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
  long io_timeout = options.io_timeout.count();
  long upload_deadline = options.upload_deadline.count();
  std::optional<unsigned> threads;
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
  app.add_option("--threads", threads, "HTTP connections served at once (default jobs + queue + 8)")
      ->check(CLI::Range(1u, 1024u))
      ->type_name("N");
  app.add_option("--io-timeout", io_timeout, "seconds a connection may stay silent while reading or writing (default 10)")
      ->check(CLI::Range(1L, 3600L))
      ->type_name("SECONDS");
  app.add_option("--upload-deadline", upload_deadline, "seconds a whole upload may take (default 120; 408 beyond)")
      ->check(CLI::Range(1L, 86400L))
      ->type_name("SECONDS");
  app.add_option("--keep", keep_dir, "write each upload and its answer into DIR (by SHA-256); default: nothing on disk")
      ->check(CLI::ExistingDirectory)
      ->type_name("DIR");
  app.add_option("--cors", options.cors_origin, "allow this origin to call the API from a browser (default: no CORS)")
      ->type_name("ORIGIN");
  pith::cli::add_trust_key_option(app, trust_keys);
  pith::serve::BrokerOptions broker_options;
  const std::string limits = "Limits of each check (as pith-check's)";
  app.add_option("--check-cpu", broker_options.limits.cpu_seconds, "CPU seconds a check may use (default 30)")
      ->check(CLI::Range(1u, 3600u))
      ->type_name("SECONDS")
      ->group(limits);
  app.add_option("--check-memory", broker_options.limits.memory_bytes, "address space a check may use (default 3 GiB)")
      ->transform(CLI::AsSizeValue(false))
      ->type_name("SIZE")
      ->group(limits);
  app.add_option("--check-wall", broker_options.limits.wall_seconds, "seconds a check may take (default 60)")
      ->check(CLI::Range(1u, 3600u))
      ->type_name("SECONDS")
      ->group(limits);
  pith::cli::add_resolver_options(app, resolver_options);
  if (const auto done = pith::cli::parse_or_exit_code(app, argc, argv)) return *done;
  const auto address = pith::serve::ListenAddress::parse(listen);
  if (!address) {
    std::cerr << "pith-serve: --listen " << pith::terminal_safe(listen) << ": expected HOST:PORT, e.g. 127.0.0.1:8080\n";
    return pith::exit_code::usage_or_io;
  }
  options.resolver = resolver_options;
  options.io_timeout = std::chrono::seconds(io_timeout);
  options.upload_deadline = std::chrono::seconds(upload_deadline);
  options.threads = threads.value_or(options.jobs + static_cast<unsigned>(options.queue) + 8);
  if (!keep_dir.empty()) options.keep_dir = keep_dir;

  auto loaded_trust = pith::cli::load_trust_store("pith-serve", trust_keys);
  if (!loaded_trust) return pith::exit_code::usage_or_io;
  const pith::registry::TrustStore& trust = *loaded_trust;

  // Before any thread: the broker forks the check children (broker.hpp).
  broker_options.jobs = options.jobs;
  auto broker = pith::serve::Broker::start(trust, broker_options);
  if (!broker) {
    std::cerr << "pith-serve: " << pith::terminal_safe(broker.error().describe()) << "\n";
    return pith::exit_code::usage_or_io;
  }

  pith::serve::block_stop_signals();  // before the service's threads start
  pith::serve::HttpServer server;
  pith::serve::Service service(trust, **broker, options);
  service.install(server);
  const auto port = pith::serve::bind_server(server, *address, std::cerr);
  if (!port) {
    std::cerr << "pith-serve: " << pith::terminal_safe(port.error().describe()) << "\n";
    return pith::exit_code::usage_or_io;
  }
  std::cerr << "pith-serve " << pith::version_string << ": listening on http://"
            << pith::serve::ListenAddress{address->host, *port}.to_string() << " (jobs " << options.jobs << ", queue "
            << options.queue << ", " << (resolver_options.offline ? "offline" : "online") << ")" << std::endl;
  return pith::serve::serve_until_stopped(server, std::cerr) ? pith::exit_code::ok : pith::exit_code::usage_or_io;
}

}  // namespace

int main(int argc, char** argv) {
  return pith::cli::run_guarded("pith-serve", [&] { return serve_command(argc, argv); });
}
