// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/runner/interruption.hpp"

#include <cerrno>
#include <fcntl.h>
#include <unistd.h>

namespace pith::runner {

namespace {

constexpr int caught[] = {SIGINT, SIGTERM, SIGHUP};
volatile std::sig_atomic_t signal_seen = 0;
int wake_fd = -1;  // the pipe's write end

extern "C" void note_signal(int sig) {
  const int saved = errno;
  if (signal_seen == 0) signal_seen = sig;
  if (wake_fd >= 0) (void)!::write(wake_fd, "!", 1);
  errno = saved;
}

}  // namespace

Interruption::Interruption() {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC | O_NONBLOCK) == 0) {
    read_fd_ = fds[0];
    wake_fd = fds[1];
  }
  signal_seen = 0;
  struct sigaction action {};
  action.sa_handler = note_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESETHAND;  // a second signal ends the process
  for (std::size_t i = 0; i < std::size(caught); ++i) ::sigaction(caught[i], &action, &previous_[i]);
}

Interruption::~Interruption() {
  for (std::size_t i = 0; i < std::size(caught); ++i) ::sigaction(caught[i], &previous_[i], nullptr);
  if (wake_fd >= 0) ::close(wake_fd);
  if (read_fd_ >= 0) ::close(read_fd_);
  wake_fd = -1;
}

int Interruption::signal() const { return signal_seen; }

std::string Interruption::name_of(int signal) {
  switch (signal) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    case SIGHUP: return "SIGHUP";
    default: return "signal " + std::to_string(signal);
  }
}

}  // namespace pith::runner
