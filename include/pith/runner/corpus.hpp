// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Checking many inputs at once (pith-check -j N): every input is read in a
// child process under IsolationLimits (isolation.hpp), at most `jobs` at a
// time, so one slow, crashing or hostile input never stops the others, on
// the one scheduler of children (child_scheduler.hpp): a child forked per
// input, or long-lived workers. The parent stays single-threaded (children are forked,
// never threads) and judges the inputs in input order, so the output of a
// run does not depend on which child finished first.
//
// Two parts the caller gives: the InputSource (corpus_input.hpp: the names,
// then each archive's members, less the shard and the joblog) and a Judge,
// which says what a child reads and what the parent makes of it.
#include "pith/base/error.hpp"
#include "pith/runner/corpus_input.hpp"
#include "pith/runner/interruption.hpp"
#include "pith/runner/isolation.hpp"

#include <cstddef>
#include <optional>
#include <string>

namespace pith::runner {

inline constexpr unsigned max_corpus_jobs = 256;

struct CorpusOptions {
  unsigned jobs = 1;  // children at a time, 1..max_corpus_jobs
  IsolationLimits limits;
  // `jobs` long-lived workers (child_scheduler.hpp), each replaced after this
  // many inputs or a crash, instead of a fork per input. 0: a fork per input
  // (pith-check --workers=fork).
  std::size_t inputs_per_worker = 500;
  // When given and a signal comes (interruption.hpp), no more inputs are
  // given out, and what the children had not answered is not judged.
  const Interruption* interruption = nullptr;
};

// What a run does with each input: the child's half and the parent's.
class Judge {
 public:
  virtual ~Judge() = default;
  // In the child (forked for this input, or a worker): reads the input and
  // returns what to send back. Runs confined; what it sends is never a verdict.
  [[nodiscard]] virtual std::string read(const InputRequest& input) const = 0;
  // In this process, once per input, in input order: `sent` is what the
  // input's child sent back, or why nothing came (a crash, a limit); nullopt
  // for an input judged without a child (CorpusInput::ready). The input
  // still holds its bytes, and `seconds` is set.
  virtual void judge(CorpusInput input, std::optional<Result<std::string>> sent) = 0;
};

// False when it stopped at an interruption, before the last input.
[[nodiscard]] bool run_corpus(InputSource& inputs, Judge& judge, const CorpusOptions& options);

}  // namespace pith::runner
