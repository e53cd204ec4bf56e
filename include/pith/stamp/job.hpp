// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// pith-stamp as a job (base/job.hpp): its command line, declared once, and
// its run, argv -> options -> run_stamp (stamp/run.hpp) or, with --arxiv, the
// upload (stamp/arxiv.hpp) -> printed outcome -> exit code.
//
// Exit codes (base/exit_codes.hpp): 0 stamped, or already stamped (the PDF
// carries the record and pith-check says verified); 1 verification failed,
// the record is not for this number, the PDF already carries a different
// Pith Number (use --force to replace it), or it carries this one but
// pith-check says failed; 2 usage, unreadable/encrypted/damaged PDF, write
// failure; 3 no Pith Number given or found; 4 nothing trusted to verify the
// record with, or the PDF carries it but pith-check says unbound.
// --arxiv paper.tex: 0 what arXiv will build verifies; 1 it builds but does
// not verify (or is another number's); 2 something is missing, the build
// fails, or I/O; 3 no Pith Number; 4 its record is signed by no trusted key.
#include "pith/base/job.hpp"

#include <memory>
#include <string>
#include <vector>

namespace pith::stamp {

class StampJob final : public Job {
 public:
  StampJob();
  ~StampJob() override;

 private:
  void declare(CLI::App& app) override;
  [[nodiscard]] Result<int> run() override;
  [[nodiscard]] Result<int> stamp_several(const std::vector<std::string>& files);

  struct Options;
  std::unique_ptr<Options> options_;
};

}  // namespace pith::stamp
