// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// pith-check's options: those of a run (CheckRunOptions, what run_checks in
// check/job.cpp is given) and those of the command line (CheckJob::Options,
// declared in check/cli.cpp and wired into a run in check/job.cpp).
#include "pith/base/table_text.hpp"
#include "pith/check/job.hpp"
#include "pith/resolver/options.hpp"
#include "pith/resolver/resolver.hpp"
#include "pith/runner/child_budget.hpp"
#include "pith/runner/corpus_input.hpp"
#include "pith/runner/isolation.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pith::check {

// --- The run ------------------------------------------------------------------

// One pith-check run over many inputs: files are read in child processes
// and judged here (runner/corpus.hpp, at most `jobs` at a time), the numbers
// found are looked up in the registry in batches (check/online.hpp) unless
// offline, and each report is written as it completes, in input order: JSON
// Lines with `json`, else the human text with the completeness panel. The
// exit code: the worst wins.
struct CheckRunOptions {
  unsigned jobs = 1;
  bool json = false;      // JSON Lines: one object per input
  std::optional<TableFormat> table;  // --csv / --tsv: a header row, then a row per input (check/table.hpp)
  bool quiet = false;     // nothing on stdout, no per-file messages: exit code only
  bool problems_only = false;  // --problems-only: no report of a verified input on stdout (summary, joblog: all)
  bool colour = false;    // ANSI colours in the human text
  bool progress = false;  // a progress line on stderr (only when it is a TTY)
  std::size_t online_batch = 64;  // numbers looked up together
  // The configured resolver and mirrors: a PDF's resolver link to another host
  // (and not the public registry) is a warning (resolver/resolver_host.hpp). Empty: no such check.
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
  // report (details.evidence). Created when missing. Drawn in a child under
  // `evidence_budget` (check/page_renders.hpp): a drawing's, raised by
  // --child-memory past it and timed by --file-timeout.
  std::string evidence_dir;
  runner::ChildBudget evidence_budget = runner::rendering_budget("--child-memory MiB", "--file-timeout SECONDS");
  // --summary FILE (JSON) and --html FILE: written at the end (runner/corpus_summary.hpp).
  std::string summary_file;
  std::string html_file;
  // --tar: a member larger than this is that member's `error`, unread.
  std::size_t max_member_bytes = std::size_t{256} << 20;
};

// names (file paths or identifiers, as given), the reports already made for
// them (resolved identifiers), and --tar archives.
using CheckRunInputs = runner::InputList;

// --- The command line ---------------------------------------------------------

struct CheckJob::Options {
  resolver::ResolverOptions resolver = resolver::ResolverOptions::from_environment();
  CheckRunOptions run;
  bool json = false;
  std::vector<std::string> trust_keys;
  std::vector<std::string> files;
  std::string files_from;
  bool null_separated = false;
  std::vector<std::string> archives;
  std::string shard;
  std::uint64_t file_memory_mb = 0;
  std::string workers = "pool";
  bool csv = false;
  bool tsv = false;
  bool recursive = false;
  std::string extract_dir;  // --extract DIR: the Pith parts of one PDF written there (check/extract.hpp)
  bool force = false;       // --force: --extract replaces files already in DIR  // -r: a directory given stands for the PDFs under it (runner/directory_walk.hpp)
};

}  // namespace pith::check
