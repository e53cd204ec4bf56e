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
#include "pith/serve/service.hpp"
#include "main_guard.hpp"
#include "resolver_cli.hpp"
#include "tool_cli.hpp"

#include <CLI/CLI.hpp>
#include <csignal>
#include <httplib.h>
#include <iostream>
#include <optional>
#include <pthread.h>
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

struct ListenAddress {
  std::string host;
  int port = 0;
};

// HOST:PORT or [IPv6]:PORT; PORT 0 picks a free port (printed at start).
std::optional<ListenAddress> parse_listen(const std::string& text) {
  const auto colon = text.rfind(':');
  if (colon == std::string::npos || colon + 1 == text.size()) return std::nullopt;
  std::string host = text.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  if (host.empty()) return std::nullopt;
  int port = 0;
  try {
    std::size_t used = 0;
    port = std::stoi(text.substr(colon + 1), &used);
    if (used != text.size() - colon - 1 || port < 0 || port > 65535) return std::nullopt;
  } catch (const std::exception&) {
    return std::nullopt;
  }
  return ListenAddress{host, port};
}

// Connections the kernel queues before pith-serve accepts them (bursts).
constexpr int listen_backlog = 1024;

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
  app.add_option("--trust-key", trust_keys, "also trust the key in FILE (pith-signing-key.json format; repeatable)")
      ->type_name("FILE")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
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
  const auto address = parse_listen(listen);
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

  // SIGINT and SIGTERM stop the server from a thread of its own (stop() is
  // not async-signal-safe); every thread started from here has them blocked.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  std::signal(SIGPIPE, SIG_IGN);

  pith::serve::HttpServer server;
  pith::serve::Service service(trust, **broker, options);
  service.install(server);
  int port = address->port;
  if (port == 0) {
    port = server.bind_to_any_port(address->host);
  } else if (!server.bind_to_port(address->host, port)) {
    port = -1;
  }
  if (port <= 0) {
    std::cerr << "pith-serve: --listen " << pith::terminal_safe(listen) << ": cannot bind (in use, or not an address of this host)\n";
    return pith::exit_code::usage_or_io;
  }
  if (!server.widen_backlog(listen_backlog)) std::cerr << "pith-serve: warning: could not widen the listen backlog\n";
  const bool v6 = address->host.find(':') != std::string::npos;
  std::cerr << "pith-serve " << pith::version_string << ": listening on http://" << (v6 ? "[" : "") << address->host
            << (v6 ? "]" : "") << ":" << port << " (jobs " << options.jobs << ", queue " << options.queue << ", "
            << (resolver_options.offline ? "offline" : "online") << ")" << std::endl;

  std::thread stopper([&server, stop_signals] {
    int signal_number = 0;
    sigwait(&stop_signals, &signal_number);
    std::cerr << "pith-serve: stopping (signal " << signal_number << ")" << std::endl;
    server.stop();
  });
  const bool served = server.listen_after_bind();
  pthread_kill(stopper.native_handle(), SIGTERM);  // wakes the stopper if the server ended otherwise
  stopper.join();
  return served ? pith::exit_code::ok : pith::exit_code::usage_or_io;
}

}  // namespace

int main(int argc, char** argv) {
  return pith::cli::run_guarded("pith-serve", [&] { return serve_command(argc, argv); });
}
