// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Confines a child process that parses hostile input (PoDoFo, Exempi): once
// in the sandbox it can read files, compute and write to the descriptors it
// kept, and nothing else. An exploit in a parser then cannot open a socket,
// run a program, write or delete a file, signal another process or gain
// privileges (setuid programs): the kernel kills the process at the first
// system call outside the allow-list (SIGSYS), which the parent reports.
//
// Linux only (seccomp-bpf via libseccomp). Entering it cannot be undone; call
// it in a forked child, never in a tool's own process.
#include "pith/base/error.hpp"

#include <initializer_list>

namespace pith {

// In this order: closes every descriptor above stderr except `keep` (what
// the parent may have leaked to us, e.g. other children's pipes or a
// caller's sockets), sets PR_SET_NO_NEW_PRIVS, and loads the allow-list:
// memory, time, signals to itself, threads (futex), reading (files opened
// read-only, stat, mmap of them), writing to already open descriptors, exit.
// Opening a file for writing, creating, renaming, deleting, sockets, exec,
// fork, ptrace, kill of another process: the process is killed (SIGSYS).
// An Error (kind internal) when the kernel refuses a step; the caller then
// must not go on as if confined.
[[nodiscard]] Result<void> enter_sandbox(std::initializer_list<int> keep);

// True when a process that ended with `signal` was killed by the sandbox.
[[nodiscard]] bool killed_by_sandbox(int signal);

}  // namespace pith
