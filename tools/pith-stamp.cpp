// SPDX-License-Identifier: GPL-3.0-or-later
// pith-stamp: write a verified, signed Pith record into a compiled PDF as one
// incremental update (or, for a .tex file, into a generated pith.sty; with
// --arxiv, the upload archive for arXiv and the check of what arXiv builds).
// The job, its options and its exit codes: pith::stamp::StampJob
// (include/pith/stamp/job.hpp); this is only the process around it.
#include "pith/stamp/job.hpp"

int main(int argc, char** argv) {
  pith::stamp::StampJob job;
  job.run_process(argc, argv);
}
