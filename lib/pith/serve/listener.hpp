// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Where pith-serve listens, and its life there: bind, say where it
// listens, serve until SIGINT or SIGTERM.
#include "pith/base/error.hpp"
#include "pith/serve/http_server.hpp"

#include <optional>
#include <ostream>
#include <string>

namespace pith::serve {

struct ListenAddress {
  std::string host;  // without the brackets of an IPv6 literal
  int port = 0;      // 0: any free port

  // HOST:PORT or [IPv6]:PORT; nullopt for anything else (no host, no port,
  // a port outside 0-65535 or with other characters).
  [[nodiscard]] static std::optional<ListenAddress> parse(const std::string& text);
  // HOST:PORT again, with brackets around an IPv6 host.
  [[nodiscard]] std::string to_string() const;
};

// Binds `server` to `address` (port 0: any free one; a backlog of 1024).
// The port bound, or an Error that says why not (in use, not an address of
// this host).
[[nodiscard]] Result<int> bind_server(HttpServer& server, const ListenAddress& address);

// Serves on a bound `server` until SIGINT or SIGTERM, which stop it from a
// thread of its own: requests in progress are finished, then it returns.
// Call block_stop_signals() before any other thread starts, so that every
// thread leaves those signals to this one. `log` gets the line that says
// why it stopped.
void block_stop_signals();
void serve_until_stopped(HttpServer& server, std::ostream& log);

}  // namespace pith::serve
