// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// cpp-httplib's Server with a listen backlog fit for load. Debian's 0.11
// listens with a backlog of 5: under a burst of connections the kernel's
// accept queue overflows, handshakes are dropped, and a client that already
// sent its request gets a reset. listen() again on a listening socket only
// changes its backlog (Linux), so this widens it after binding.
#include <httplib.h>
#include <sys/socket.h>

namespace pith::serve {

class HttpServer : public httplib::Server {
 public:
  // Call after bind_to_port / bind_to_any_port. False if listen() failed.
  bool widen_backlog(int backlog) { return ::listen(svr_sock_, backlog) == 0; }
};

}  // namespace pith::serve
