// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// pith-serve as a job (base/job.hpp): its command line, declared once, and
// its start-up: the trust store, the check broker (forked before any thread
// exists: serve/broker.hpp), the memory budget sized from what was measured
// (serve/memory_budget.hpp), the stop signals blocked, the service and its
// HTTP server bound (serve/listener.hpp); then it serves until SIGINT or
// SIGTERM. Exit codes: 0 stopped by a signal; 2 usage error, an address
// that cannot be bound, or the check broker could not start.
#include "pith/base/job.hpp"

#include <memory>

namespace pith::serve {

class ServeJob final : public Job {
 public:
  ServeJob();
  ~ServeJob() override;

 private:
  void declare(CLI::App& app) override;
  [[nodiscard]] Result<int> run() override;

  struct Options;
  std::unique_ptr<Options> options_;
};

}  // namespace pith::serve
