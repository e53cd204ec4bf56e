// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The check broker: the one process of pith-serve that forks the isolated
// check children. fork() in a multi-threaded process copies only the forking
// thread, and a lock another thread held (malloc's, a library's) stays held
// in the child forever; the HTTP side has a thread pool. So the broker is
// forked at start-up, before any thread exists, stays single-threaded, and
// runs each check exactly as pith-check does (the upload read in a child
// with limits and the seccomp sandbox, runner/child_scheduler.hpp; what it
// read judged in the broker: check/file.hpp read_input_in_child,
// judge_input_from_child).
//
// The HTTP side hands it an upload without copying it through a pipe: the
// bytes go into a memfd, sent with a reply socket over a SOCK_SEQPACKET
// control socket (SCM_RIGHTS) beside a BrokerJob naming it; the broker maps
// the memfd, forks the child (which shares the mapping) and writes a
// BrokerAnswer, length-prefixed, to the reply socket (the messages:
// broker_wire.hpp). At most `jobs` children run at once; further requests wait in
// the broker's queue, which the caller bounds (it admits at most jobs + queue).
#include "pith/base/error.hpp"
#include "pith/check/file.hpp"
#include "pith/runner/isolation.hpp"
#include "pith/registry/trust_store.hpp"
#include "pith/serve/broker_wire.hpp"

#include <atomic>
#include <memory>
#include <mutex>
#include <string_view>
#include <sys/types.h>

namespace pith::serve {

struct BrokerOptions {
  unsigned jobs = 1;              // checks running at once
  runner::IsolationLimits limits;  // per check, as pith-check's
};

class Broker {
 public:
  // Forks the broker process. Call before any thread exists. The broker
  // exits when this object is destroyed (its control socket closes) or when
  // this process dies.
  [[nodiscard]] static Result<std::unique_ptr<Broker>> start(const registry::TrustStore& trust,
                                                            const BrokerOptions& options);
  Broker(const Broker&) = delete;
  Broker& operator=(const Broker&) = delete;
  ~Broker();

  // Checks `bytes` (named `name` in the report); blocks until the broker
  // answers. Safe to call from many threads at once. An Error only when the
  // broker could not be reached (it died): the service is then unhealthy.
  [[nodiscard]] Result<BrokerAnswer> check(std::string_view name, std::string_view bytes) const;
  // False once the broker process has exited.
  [[nodiscard]] bool alive() const;
  // The broker's process id (its memory is part of the service's budget).
  [[nodiscard]] pid_t pid() const { return pid_; }

 private:
  Broker(int control_fd, pid_t pid) : control_fd_(control_fd), pid_(pid) {}
  int control_fd_ = -1;
  pid_t pid_ = -1;
  mutable std::mutex reap_mutex_;
  mutable std::atomic<bool> exited_ = false;
};

// True when a check's error is the child failing (crash, sandbox kill,
// CPU / memory / wall-clock limit, no complete report), not the input being
// unreadable: what /metrics counts as child crashes.
[[nodiscard]] bool is_child_failure(const Report& report);

}  // namespace pith::serve
