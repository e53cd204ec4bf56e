// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What a pith-check run writes (check/job.cpp): each input's report as the
// options say (text, --json, --csv/--tsv, --evidence), the progress line,
// the joblog line that goes with a report, the closing tally and summary
// (--summary, --html), and the run's exit code. Private to check/.
#include "pith/base/exit_codes.hpp"
#include "pith/base/report.hpp"
#include "pith/check/file.hpp"
#include "pith/check/job_options.hpp"
#include "pith/runner/corpus_input.hpp"
#include "pith/runner/corpus_summary.hpp"

#include <chrono>
#include <cstddef>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <set>
#include <string>

namespace pith::check::detail {

using runner::CorpusInput;
using runner::JobLog;

// Per-verdict tallies for the progress line and the closing summary.
struct Tally {
  std::map<Verdict, std::size_t> by_verdict;
  std::size_t done = 0;

  void add(Verdict v) {
    ++by_verdict[v];
    ++done;
  }
  [[nodiscard]] std::string describe() const {
    std::string out;
    for (const Verdict v : runner::every_verdict()) {
      const auto n = by_verdict.find(v);
      if (n == by_verdict.end()) continue;
      out += (out.empty() ? "" : ", ") + std::to_string(n->second) + " " + to_string(v);
    }
    return out;
  }
};

class Writer {
 public:
  Writer(const CheckRunOptions& options, std::optional<std::size_t> total, JobLog* joblog, std::ostream& out,
         std::ostream& err)
      : options_(options), total_(total), joblog_(joblog), out_(out), err_(err) {}

  // One input's report, as the options say (and its joblog line, and the progress line).
  void write(const CorpusInput& input, const FileCheck& given);

  // A problem of the run, not of one input (an unreadable archive, a joblog
  // that cannot be written): one line on stderr, and exit code 2 at least.
  void run_error(const std::string& message);

  // A line for a person that changes no exit code (a tar member not checked).
  void note(const std::string& message);

  // `end`: what the run skipped, and whether it was interrupted or its shard empty.
  void finish(runner::RunEnd end);
  // --resume: an input the earlier run checked (a joblog line) counts in
  // this run's tally, summary, page and exit code, so they cover the whole run.
  void count_earlier(const std::string& name, const nlohmann::json& line);
  // The joblog this run appends to, once it is open (and the earlier runs counted).
  void set_joblog(JobLog* joblog);
  [[nodiscard]] int exit_code() const { return worst_; }
  void set_total(std::optional<std::size_t> total) { total_ = total; }

 private:
  // --json, --csv, --tsv: stdout is the records alone, no tally line.
  [[nodiscard]] bool machine_output() const { return options_.json || options_.table.has_value(); }
  // --summary, --html: written beside, flushed and renamed (base/atomic_file),
  // so a crash never leaves a report cut short where the last one was.
  void save(const char* option, const std::string& path, const std::string& text);
  // --evidence: the crop of page 1 where the binding was seen, as
  // DIR/NAME.page1.png (NAME-2… when two inputs share a name), named in the
  // report; a failure is a line on stderr, not the input's verdict.
  void add_evidence(const CorpusInput& input, Report& report);
  static std::string evidence_text(const Report& report);

  void count(Verdict verdict);
  void note_failure(const Result<void>& written);
  void show_progress();
  void clear_progress();

  const CheckRunOptions& options_;
  std::optional<std::size_t> total_;  // unknown while archives are read
  JobLog* joblog_;
  bool joblog_failed_ = false;
  std::ostream& out_;
  std::ostream& err_;
  Tally tally_;
  runner::CorpusSummary summary_{!options_.html_file.empty()};
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  int worst_ = exit_code::ok;
  std::size_t earlier_inputs_ = 0;
  double earlier_seconds_ = 0;
  bool progress_shown_ = false;
  std::set<std::string> evidence_names_;
};

}  // namespace pith::check::detail
