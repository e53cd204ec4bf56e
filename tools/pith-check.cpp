// SPDX-License-Identifier: GPL-3.0-or-later
// pith-check: verifies the Pith Number carried by a PDF, and Pith registry
// files (bundle, state.json, canonical record, resolver answer), detected by
// content, with keys from the trust store only. An argument that is not an
// existing file but is a Pith Number (full, body, short form) or an arXiv id
// is resolved from the registry, its mirrors or the cache, and verified the
// same way. Each file is checked in a child process with limits, -j N at a
// time (a corpus: --files-from, --tar); unless --offline, the registry is
// asked what changed since. Human text by default, JSON Lines with --json
// (docs/pith-check-json.md). The job, its options and its exit codes:
// pith::check::CheckJob (include/pith/check/job.hpp); this is only the process
// around it.
#include "pith/check/job.hpp"

int main(int argc, char** argv) {
  pith::check::CheckJob job;
  job.run_process(argc, argv);
}
