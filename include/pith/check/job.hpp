// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// pith-check as a job (base/job.hpp): its command line, declared once, and
// the wiring of a run: --files-from, --shard, --resume, the trust store,
// identifiers looked up (resolver/lookup.hpp), an online or a local resolver,
// colour and progress; then the run: every input read in a child
// (runner/corpus.hpp), judged here (check/file.hpp), its number looked up in
// batches (check/online.hpp) and its report printed in input order. The exit
// code is the worst verdict's, or 2 for a usage error.
#include "pith/base/job.hpp"

#include <memory>

namespace pith::check {

class CheckJob final : public Job {
 public:
  CheckJob();
  ~CheckJob() override;

 private:
  void declare(CLI::App& app) override;
  [[nodiscard]] Result<int> run() override;

  struct Options;
  std::unique_ptr<Options> options_;
};

}  // namespace pith::check
