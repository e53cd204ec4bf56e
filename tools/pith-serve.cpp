// SPDX-License-Identifier: GPL-3.0-or-later
// pith-serve: the verification service and its web page (docs/serve.md).
// POST /api/v1/check answers what `pith-check --json` prints for the upload;
// GET /api/v1/pith/{id} resolves and verifies a number; GET /badge/{id}.svg
// is a status badge; GET / is the page. The job, its options, its start-up
// (the check broker forked before any thread exists, the memory budget, the
// listener) and its exit codes: pith::serve::ServeJob
// (include/pith/serve/job.hpp); this is only the process around it.
#include "pith/serve/job.hpp"

int main(int argc, char** argv) {
  pith::serve::ServeJob job;
  return job.main(argc, argv);
}
