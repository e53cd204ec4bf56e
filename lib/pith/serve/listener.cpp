// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/serve/listener.hpp"

#include <charconv>
#include <atomic>
#include <csignal>
#include <pthread.h>
#include <thread>

namespace pith::serve {
namespace {

sigset_t stop_signals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  return set;
}

}  // namespace

std::optional<ListenAddress> ListenAddress::parse(const std::string& text) {
  const auto colon = text.rfind(':');
  if (colon == std::string::npos || colon + 1 == text.size()) return std::nullopt;
  std::string host = text.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  if (host.empty()) return std::nullopt;
  const std::string_view digits = std::string_view(text).substr(colon + 1);
  int port = -1;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), port);
  if (ec != std::errc() || end != digits.data() + digits.size() || port < 0 || port > 65535) return std::nullopt;
  return ListenAddress{std::move(host), port};
}

std::string ListenAddress::to_string() const {
  const bool v6 = host.find(':') != std::string::npos;
  return (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

Result<int> bind_server(HttpServer& server, const ListenAddress& address) {
  auto port = server.bind(address.host, address.port);
  // HttpServer::bind already says "cannot bind (why)"; here the option and address are named.
  if (!port) return fail(ErrorKind::io, "--listen " + address.to_string(), port.error().message);
  return port;
}

void block_stop_signals() {
  const sigset_t set = stop_signals();
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  std::signal(SIGPIPE, SIG_IGN);
}

void serve_until_stopped(HttpServer& server, std::ostream& log) {
  std::atomic<bool> served = false;
  std::thread stopper([&server, &log, &served] {
    const sigset_t set = stop_signals();
    int signal_number = 0;
    sigwait(&set, &signal_number);
    if (served) return;  // woken because the server ended by itself
    log << "pith-serve: stopping (signal " << signal_number << ")" << std::endl;
    server.stop();
  });
  server.run();
  served = true;
  pthread_kill(stopper.native_handle(), SIGTERM);  // wakes the stopper if the server ended otherwise
  stopper.join();
}

}  // namespace pith::serve
