// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One pith-check run over many inputs, as a library call so the CLI stays a
// thin front end: files are read in child processes and judged here
// (runner/corpus.hpp, at most `jobs` at a time), the numbers found are looked
// up in the registry in batches (check/online.hpp) unless offline, and each report is written as
// it completes, in input order: JSON Lines with `json`, else the human text
// with the completeness panel. Returns the exit code: the worst wins.
#include "pith/runner/corpus.hpp"
#include "pith/base/report.hpp"
#include "pith/resolver/resolver.hpp"
#include "pith/registry/trust_store.hpp"

#include <cstddef>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace pith::check {

struct CheckRunOptions {
  unsigned jobs = 1;
  bool json = false;      // JSON Lines: one object per input
  bool quiet = false;     // nothing on stdout, no per-file messages: exit code only
  bool colour = false;    // ANSI colours in the human text
  bool progress = false;  // a progress line on stderr (only when it is a TTY)
  std::size_t online_batch = 64;  // numbers looked up together
  // The configured resolver and mirrors: a PDF's resolver link to another host
  // (and not the public registry) is a warning (resolver_host.hpp). Empty: no such check.
  std::vector<std::string> resolver_bases;
  runner::IsolationLimits limits;
  // Offline (run_checks' resolver is nullptr): a resolver in offline mode
  // (cache and file:// mirrors only) for the numbers of PDFs that carry no
  // record, so they can still be verified and bound. nullptr: not resolved.
  resolver::Resolver* local_resolver = nullptr;
  // Corpus runs (docs/corpus.md). --joblog: one line per finished input,
  // written once its report is out; with `resume`, inputs it holds are skipped.
  std::string joblog;
  bool resume = false;
  // --shard K/N: only the inputs whose name hashes to K-1 modulo N (runner/corpus_input.hpp).
  unsigned shard_index = 1;
  unsigned shard_count = 1;
  // Long-lived workers, replaced after this many inputs (runner/corpus.hpp);
  // `fork_per_file`: a child forked per input instead (--workers=fork).
  std::size_t inputs_per_worker = 500;
  bool fork_per_file = false;
  // --evidence DIR: for each PDF that binds, DIR/NAME.page1.png, the crop of
  // page 1 where the binding was seen (pdf/evidence.hpp), named in the
  // report (details.evidence). Created when missing.
  std::string evidence_dir;
  // --summary FILE (JSON) and --html FILE: written at the end (runner/corpus_summary.hpp).
  std::string summary_file;
  std::string html_file;
  // --tar: a member larger than this is that member's `error`, unread.
  std::size_t max_member_bytes = std::size_t{256} << 20;
};

// names (file paths or identifiers, as given), the reports already made for
// them (resolved identifiers), and --tar archives.
using CheckRunInputs = runner::InputList;

// `resolver`: nullptr when offline (the online checks are then skipped and
// the report says so in extra.online, without a check line). A PDF that
// carries only a number (FileCheck::evidence) has its record resolved — by
// `resolver`, else options.local_resolver — verified and bound to it
// (bind_resolved_record), in the same run.
[[nodiscard]] int run_checks(const CheckRunInputs& inputs, const registry::TrustStore& trust, resolver::Resolver* resolver,
                             const CheckRunOptions& options, std::ostream& out, std::ostream& err);

// One line per path read from `in` (`--files-from`): trailing CR stripped,
// empty lines skipped. `separator` '\0': NUL-separated (`--null`).
[[nodiscard]] std::vector<std::string> read_path_list(std::istream& in, char separator = '\n');

}  // namespace pith::check
