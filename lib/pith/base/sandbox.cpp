// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/base/sandbox.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <seccomp.h>
#include <sys/prctl.h>
#include <unistd.h>

namespace pith {
namespace {

std::unexpected<Error> refused(const char* step, int error_number) {
  return fail(ErrorKind::internal, "sandbox", std::string(step) + ": " + std::strerror(error_number));
}

// Every open descriptor above stderr not in `keep`: close_range(2) over the
// gaps between the kept ones. No allocation (a child may already be at its
// memory limit: listing /proc/self/fd with opendir failed there) and one
// system call per gap instead of one per descriptor.
Result<void> close_other_descriptors(std::initializer_list<int> keep) {
  constexpr unsigned unused = ~0U;
  std::array<unsigned, 8> kept;
  kept.fill(unused);
  std::size_t count = 0;
  for (const int fd : keep) {
    if (fd <= STDERR_FILENO) continue;
    if (count == kept.size()) return refused("closing other descriptors", EMFILE);
    kept[count++] = static_cast<unsigned>(fd);
  }
  std::sort(kept.begin(), kept.end());  // the unused slots sort last
  unsigned from = STDERR_FILENO + 1;
  for (std::size_t i = 0; i < count; ++i) {
    const unsigned fd = kept[i];
    if (fd > from && ::close_range(from, fd - 1, 0) != 0) return refused("closing other descriptors", errno);
    from = std::max(from, fd + 1);
  }
  if (::close_range(from, ~0U, 0) != 0) return refused("closing other descriptors", errno);
  return {};
}

struct FilterDeleter {
  void operator()(void* ctx) const { seccomp_release(ctx); }
};

// System calls a parser needs once its input is at hand. Kept short on
// purpose: a new need shows up as a child killed with SIGSYS in the tests.
constexpr int allowed[] = {
    // memory
    SCMP_SYS(brk), SCMP_SYS(mmap), SCMP_SYS(munmap), SCMP_SYS(mremap), SCMP_SYS(mprotect), SCMP_SYS(madvise),
    // reading and writing descriptors already open (or opened read-only below)
    SCMP_SYS(read), SCMP_SYS(pread64), SCMP_SYS(readv), SCMP_SYS(write), SCMP_SYS(writev), SCMP_SYS(lseek),
    SCMP_SYS(close), SCMP_SYS(fstat), SCMP_SYS(newfstatat), SCMP_SYS(statx), SCMP_SYS(fcntl), SCMP_SYS(getdents64),
    SCMP_SYS(readlink), SCMP_SYS(readlinkat), SCMP_SYS(access), SCMP_SYS(faccessat), SCMP_SYS(faccessat2),
    SCMP_SYS(fadvise64), SCMP_SYS(poll), SCMP_SYS(ppoll),
    // what a file system is: fontconfig checks its caches' file systems when
    // PoDoFo or poppler look up a font a PDF does not embed (arXiv's
    // watermark: Times-Roman; a form field's font: qpdf's button-set-broken.pdf)
    SCMP_SYS(fstatfs), SCMP_SYS(statfs),
    // time, randomness, identity, limits
    SCMP_SYS(clock_gettime), SCMP_SYS(gettimeofday), SCMP_SYS(time), SCMP_SYS(clock_nanosleep), SCMP_SYS(nanosleep),
    SCMP_SYS(getrandom), SCMP_SYS(getpid), SCMP_SYS(gettid), SCMP_SYS(getuid), SCMP_SYS(geteuid), SCMP_SYS(getgid),
    SCMP_SYS(getegid), SCMP_SYS(getrlimit), SCMP_SYS(prlimit64), SCMP_SYS(sysinfo), SCMP_SYS(uname),
    SCMP_SYS(sched_getaffinity), SCMP_SYS(sched_yield),
    // threads and signals (to itself: abort() raises SIGABRT with tgkill)
    SCMP_SYS(futex), SCMP_SYS(set_robust_list), SCMP_SYS(rseq), SCMP_SYS(rt_sigaction), SCMP_SYS(rt_sigprocmask),
    SCMP_SYS(rt_sigreturn), SCMP_SYS(sigaltstack),
    // the end
    SCMP_SYS(exit), SCMP_SYS(exit_group),
};

Result<void> load_filter() {
  std::unique_ptr<void, FilterDeleter> ctx(seccomp_init(SCMP_ACT_KILL_PROCESS));
  if (!ctx) return refused("seccomp_init", ENOMEM);
  for (const int call : allowed) {
    if (const int rc = seccomp_rule_add(ctx.get(), SCMP_ACT_ALLOW, call, 0); rc < 0) return refused("seccomp rule", -rc);
  }
  // Opening: read-only, never creating or truncating. O_TMPFILE includes the
  // O_DIRECTORY bit: only its own bit is forbidden, so directories can still
  // be listed (poppler reads /usr/share/poppler/nameToUnicode).
  const scmp_datum_t forbidden_flags = O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_APPEND | (O_TMPFILE & ~O_DIRECTORY);
  int rc = seccomp_rule_add(ctx.get(), SCMP_ACT_ALLOW, SCMP_SYS(openat), 1,
                            SCMP_A2(SCMP_CMP_MASKED_EQ, forbidden_flags, 0));
  if (rc == 0) rc = seccomp_rule_add(ctx.get(), SCMP_ACT_ALLOW, SCMP_SYS(open), 1, SCMP_A1(SCMP_CMP_MASKED_EQ, forbidden_flags, 0));
  // Opening to write, and making directories, fail with EACCES instead of
  // killing the child: fontconfig (rendering a font the PDF does not embed)
  // rewrites a stale cache when it finds one, and a user's font cache must
  // not make their PDF look like an exploit. Nothing is written either way.
  const scmp_datum_t write_bits[] = {O_WRONLY, O_RDWR, O_CREAT, O_TRUNC, O_APPEND, O_TMPFILE & ~O_DIRECTORY};
  for (const scmp_datum_t bit : write_bits) {
    if (rc == 0) rc = seccomp_rule_add(ctx.get(), SCMP_ACT_ERRNO(EACCES), SCMP_SYS(openat), 1, SCMP_A2(SCMP_CMP_MASKED_EQ, bit, bit));
    if (rc == 0) rc = seccomp_rule_add(ctx.get(), SCMP_ACT_ERRNO(EACCES), SCMP_SYS(open), 1, SCMP_A1(SCMP_CMP_MASKED_EQ, bit, bit));
  }
  for (const int call : {SCMP_SYS(mkdir), SCMP_SYS(mkdirat)}) {
    if (rc == 0) rc = seccomp_rule_add(ctx.get(), SCMP_ACT_ERRNO(EACCES), call, 0);
  }
  // Signals only to itself (raise, abort).
  const auto self = static_cast<scmp_datum_t>(::getpid());
  if (rc == 0) rc = seccomp_rule_add(ctx.get(), SCMP_ACT_ALLOW, SCMP_SYS(tgkill), 1, SCMP_A0(SCMP_CMP_EQ, self));
  if (rc == 0) rc = seccomp_rule_add(ctx.get(), SCMP_ACT_ALLOW, SCMP_SYS(kill), 1, SCMP_A0(SCMP_CMP_EQ, self));
  // isatty() and friends: refused quietly, a terminal query is harmless.
  if (rc == 0) rc = seccomp_rule_add(ctx.get(), SCMP_ACT_ERRNO(ENOTTY), SCMP_SYS(ioctl), 0);
  if (rc < 0) return refused("seccomp rule", -rc);
  if (const int load = seccomp_load(ctx.get()); load < 0) return refused("seccomp_load", -load);
  return {};
}

}  // namespace

Result<void> enter_sandbox(std::initializer_list<int> keep) {
  if (auto closed = close_other_descriptors(keep); !closed) return closed;
  // No setuid/setcap program could gain privileges for us (and seccomp
  // requires it of an unprivileged process).
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return refused("PR_SET_NO_NEW_PRIVS", errno);
  return load_filter();
}

bool killed_by_sandbox(int signal) { return signal == SIGSYS; }

}  // namespace pith
