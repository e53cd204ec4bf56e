// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// SIGINT, SIGTERM and SIGHUP during a corpus run (docs/corpus.md): instead
// of ending the process where it stands, the signal is noted (a flag and a
// byte on a pipe, both async-signal-safe) and the run stops giving out
// inputs, drops what its children had not yet answered (they are checked
// again on --resume) and writes its partial report. A second signal ends
// the process at once (the handler is reset to the default when it runs).
// One Interruption at a time per process; it restores the earlier handlers
// when it goes.
#include <csignal>
#include <string>

namespace pith::runner {

class Interruption {
 public:
  Interruption();
  ~Interruption();
  Interruption(const Interruption&) = delete;
  Interruption& operator=(const Interruption&) = delete;

  // The signal that came, or 0.
  [[nodiscard]] int signal() const;
  [[nodiscard]] bool requested() const { return signal() != 0; }
  // Readable once a signal came: for a poll beside the children's (ChildScheduler::wait's `also`).
  [[nodiscard]] int fd() const { return read_fd_; }
  // "SIGINT", "SIGTERM", "SIGHUP".
  [[nodiscard]] static std::string name_of(int signal);

 private:
  int read_fd_ = -1;
  struct sigaction previous_[3]{};
};

}  // namespace pith::runner
