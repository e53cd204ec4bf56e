// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/check/job.hpp"
#include "pith/check/job_options.hpp"

#include "pith/check/shape_memory.hpp"

#include "pith/base/atomic_file.hpp"
#include "pith/base/exit_codes.hpp"
#include "pith/base/input_file.hpp"
#include "pith/base/mapped_file.hpp"
#include "pith/base/terminal_text.hpp"
#include "pith/check/extract.hpp"
#include "pith/check/file.hpp"
#include "pith/check/online.hpp"
#include "pith/check/page_renders.hpp"
#include "pith/check/pdf.hpp"
#include "pith/check/shape_memory.hpp"
#include "pith/check/table.hpp"
#include "pith/check/visible.hpp"
#include "pith/registry/trust_store.hpp"
#include "pith/resolver/lookup.hpp"
#include "pith/resolver/resolver.hpp"
#include "pith/resolver/resolver_host.hpp"
#include "pith/runner/child_scheduler.hpp"
#include "pith/runner/corpus.hpp"
#include "pith/runner/corpus_input.hpp"
#include "pith/runner/corpus_summary.hpp"
#include "pith/runner/directory_walk.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <istream>
#include <map>
#include <optional>
#include <ostream>
#include <set>
#include <stdexcept>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <utility>
#include <vector>

namespace pith::check {

namespace {

using runner::CorpusInput;
using runner::JobLog;
using runner::put_exact_name;

// An archive member's line also names the archive and the member exactly
// (`file` is "ARCHIVE:MEMBER", for people: docs/pith-check-json.md).
// A name that is not UTF-8 also goes as base64 beside its display form
// (runner/corpus_input.hpp: put_exact_name).
nlohmann::json json_report(const CorpusInput& input, const FileCheck& checked) {
  nlohmann::json j = checked.to_json();
  if (j.value("file", std::string()) == input.name) put_exact_name(j, "file", input.name);
  if (input.is_member()) {
    put_exact_name(j, "archive", input.archive);
    put_exact_name(j, "member", input.member);
  }
  return j;
}

// SIGINT, SIGTERM and SIGHUP wait while a report and its joblog line are
// written, so an interrupted run never has one without the other (SIGKILL
// cannot wait: docs/corpus.md).
class SignalsHeld {
 public:
  explicit SignalsHeld(bool hold) : hold_(hold) {
    if (!hold_) return;
    sigset_t set;
    sigemptyset(&set);
    for (const int sig : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&set, sig);
    ::sigprocmask(SIG_BLOCK, &set, &previous_);
  }
  ~SignalsHeld() {
    if (hold_) ::sigprocmask(SIG_SETMASK, &previous_, nullptr);
  }
  SignalsHeld(const SignalsHeld&) = delete;
  SignalsHeld& operator=(const SignalsHeld&) = delete;

 private:
  bool hold_;
  sigset_t previous_{};
};

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

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

  void write(const CorpusInput& input, const FileCheck& given) {
    FileCheck with_evidence;
    if (!options_.evidence_dir.empty() && evidence_region(given.report)) {
      with_evidence = given;
      add_evidence(input, with_evidence.report);
    }
    const FileCheck& checked = options_.evidence_dir.empty() || !evidence_region(given.report) ? given : with_evidence;
    const Report& report = checked.report;
    count(report.verdict());
    const SignalsHeld held(joblog_ != nullptr);
    // The joblog keeps the report of an input that needs attention, so a
    // resumed run's --html shows it too.
    const bool want_json = ((options_.json || options_.table) && !options_.quiet) || !options_.html_file.empty() ||
                           (joblog_ != nullptr && runner::needs_attention(report.verdict()));
    const nlohmann::json json = want_json ? json_report(input, checked) : nlohmann::json();
    auto entry = runner::SummaryEntry::of(input.name, checked.report, json, input.seconds);
    const nlohmann::json logged = joblog_ ? entry.to_joblog() : nlohmann::json();
    summary_.add(std::move(entry));
    if (!options_.quiet && !(options_.problems_only && report.verdict() == Verdict::verified)) {
      clear_progress();
      if (options_.json) {
        out_ << json.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
      } else if (options_.table) {
        out_ << report_table_row(*options_.table, json, checked);
      } else if (!report.error || report.stopped_by_budget()) {  // a check stopped by its budget is a verdict, its reason on the headline
        out_ << report.to_text(options_.colour) << bindings_text(report) << evidence_text(report) << signatures_text(report)
             << completeness_panel_text(checked);
      }
      // Input that could not be processed: one line naming it, on stderr.
      if (report.error && !report.stopped_by_budget())
        err_ << "pith-check: " << terminal_safe(input.name) << ": " << terminal_safe(report.error->message) << "\n";
      out_.flush();
    }
    // Only once the report is out: a resumed run never loses one.
    if (joblog_) note_failure(joblog_->record(input, logged));
    if (!options_.quiet) show_progress();
  }

  // A problem of the run, not of one input (an unreadable archive, a joblog
  // that cannot be written): one line on stderr, and exit code 2 at least.
  void run_error(const std::string& message) {
    clear_progress();
    err_ << "pith-check: " << terminal_safe(message) << "\n" << std::flush;
    worst_ = exit_code::worst(worst_, exit_code_for(ErrorKind::io));
  }

  // A line for a person that changes no exit code (a tar member not checked).
  void note(const std::string& message) {
    if (options_.quiet) return;
    clear_progress();
    err_ << "pith-check: " << terminal_safe(message) << "\n" << std::flush;
  }

  // `end`: what the run skipped, and whether it was interrupted or its shard empty.
  void finish(runner::RunEnd end) {
    const double elapsed = seconds_since(started_);
    if (joblog_) {
      note_failure(joblog_->record_run_end(elapsed, end.interrupted_by));
      note_failure(joblog_->sync());
    }
    clear_progress();
    if (!options_.quiet && !machine_output() && tally_.done > 1) {
      out_ << tally_.done << " inputs: " << tally_.describe() << "\n";
    }
    out_.flush();
    end.earlier_inputs = earlier_inputs_;
    summary_.set_end(std::move(end));
    summary_.set_elapsed(elapsed + earlier_seconds_);
    if (!options_.quiet && !machine_output() && tally_.done > 1) {
      err_ << summary_.to_text() << std::flush;
    } else if (!options_.quiet) {
      err_ << summary_.end_lines() << std::flush;
    }
    if (!options_.summary_file.empty()) save("--summary", options_.summary_file,
                                                     summary_.to_json().dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
    if (!options_.html_file.empty()) save("--html", options_.html_file, summary_.to_html());
  }
  // --resume: an input the earlier run checked (a joblog line) counts in
  // this run's tally, summary, page and exit code, so they cover the whole run.
  void count_earlier(const std::string& name, const nlohmann::json& line) {
    auto entry = runner::SummaryEntry::from_joblog(name, line);
    if (!entry) return;
    count(entry->verdict);
    summary_.add(std::move(*entry));
    ++earlier_inputs_;
  }
  // The joblog this run appends to, once it is open (and the earlier runs counted).
  void set_joblog(JobLog* joblog) {
    joblog_ = joblog;
    earlier_seconds_ = joblog ? joblog->earlier_seconds() : 0;
  }
  [[nodiscard]] int exit_code() const { return worst_; }
  void set_total(std::optional<std::size_t> total) { total_ = total; }

 private:
  // --json, --csv, --tsv: stdout is the records alone, no tally line.
  [[nodiscard]] bool machine_output() const { return options_.json || options_.table.has_value(); }
  // --summary, --html: written beside, flushed and renamed (base/atomic_file),
  // so a crash never leaves a report cut short where the last one was.
  void save(const char* option, const std::string& path, const std::string& text) {
    if (auto written = write_file_atomically(path, text); !written)
      run_error(std::string(option) + " " + path + ": cannot write (" + written.error().message + ")");
  }
  // --evidence: the crop of page 1 where the binding was seen, as
  // DIR/NAME.page1.png (NAME-2… when two inputs share a name), named in the
  // report; a failure is a line on stderr, not the input's verdict.
  void add_evidence(const CorpusInput& input, Report& report) {
    const auto region = evidence_region(report);
    std::optional<MappedFile> mapped;
    std::string_view bytes;
    if (input.bytes) {
      bytes = *input.bytes;
    } else if (auto file = MappedFile::open(input.name)) {
      mapped.emplace(std::move(*file));
      bytes = mapped->bytes();
    } else {
      return run_error("--evidence: " + file.error().describe());
    }
    std::error_code ec;
    std::filesystem::create_directories(options_.evidence_dir, ec);
    if (ec) return run_error("--evidence " + options_.evidence_dir + ": cannot create the directory (" + ec.message() + ")");
    auto png = render_evidence_png(bytes, region->box, 150, options_.evidence_budget);
    if (!png) return run_error("--evidence: " + input.name + ": " + png.error().message);
    std::string stem = std::filesystem::path(input.member.empty() ? input.name : input.member).stem().string();
    if (stem.empty()) stem = "input";
    std::string name = stem + ".page1.png";
    for (int n = 2; !evidence_names_.insert(name).second; ++n) name = stem + "-" + std::to_string(n) + ".page1.png";
    const auto path = std::filesystem::path(options_.evidence_dir) / name;
    if (auto written = write_file_atomically(path, *png); !written) return run_error("--evidence: " + written.error().describe());
    report.extra["evidence"] = {{"file", path.string()}, {"binding", region->binding},
                                {"box", {region->box.x0, region->box.y0, region->box.x1, region->box.y1}}};
  }
  static std::string evidence_text(const Report& report) {
    const auto it = report.extra.find("evidence");
    if (it == report.extra.end() || !it->is_object()) return {};
    return "  evidence: " + terminal_safe(it->value("file", "")) + " (" + describe_binding(it->value("binding", "")) + ")\n";
  }

  void count(Verdict verdict) {
    tally_.add(verdict);
    worst_ = exit_code::worst(worst_, exit_code_for(verdict));
  }
  void note_failure(const Result<void>& written) {
    if (!written && !joblog_failed_) {
      joblog_failed_ = true;
      run_error(written.error().describe());
    }
  }
  void show_progress() {
    if (!options_.progress) return;
    err_ << "\rpith-check: " << tally_.done;
    if (total_) err_ << "/" << *total_;
    err_ << " (" << tally_.describe() << ")" << runner::time_left_text(seconds_since(started_), tally_.done, total_) << std::flush;
    progress_shown_ = true;
  }
  void clear_progress() {
    if (!progress_shown_) return;
    err_ << "\r\033[K" << std::flush;
    progress_shown_ = false;
  }

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

// Reports waiting for their online lookup, written together after it.
// PDFs that carry only a number are looked up too (by the local resolver
// when offline), and their record bound to them.
class OnlineBatch {
 public:
  OnlineBatch(resolver::Resolver* resolver, resolver::Resolver* local, std::size_t size, Writer& writer)
      : resolver_(resolver), local_(local), size_(size), writer_(writer) {}

  void add(CorpusInput input, FileCheck checked, bool look_up) {
    resolver::Resolver* by = checked.evidence ? (resolver_ ? resolver_ : local_) : resolver_;
    const bool wanted = look_up && by != nullptr && !number_to_look_up(checked).empty();
    pending_.push_back(Pending{std::move(input), std::move(checked), wanted ? by : nullptr});
    if (!resolver_ || pending_.size() >= size_) flush();  // offline: local lookups, written at once
  }

  void flush() {
    // One lookup per distinct number and resolver, all at once.
    for (resolver::Resolver* by : {resolver_, local_}) {
      if (!by) continue;
      std::map<std::string, std::size_t> index;
      std::vector<std::string> numbers;
      for (const auto& p : pending_) {
        const std::string& number = number_to_look_up(p.checked);
        if (p.by == by && index.emplace(number, numbers.size()).second) numbers.push_back(number);
      }
      if (numbers.empty()) continue;
      const auto answers = by->resolve_many(numbers);
      for (auto& p : pending_) {
        if (p.by != by) continue;
        apply_lookup(p.checked, answers[index.at(number_to_look_up(p.checked))]);
      }
    }
    for (auto& p : pending_) writer_.write(p.input, p.checked);
    pending_.clear();
  }

 private:
  struct Pending {
    CorpusInput input;  // without its bytes
    FileCheck checked;
    resolver::Resolver* by = nullptr;  // who looks its number up; nullptr: nobody
  };
  resolver::Resolver* resolver_;
  resolver::Resolver* local_;
  std::size_t size_;
  Writer& writer_;
  std::vector<Pending> pending_;
};


// Page 1's text of a run's one PDF, read by a child of its own while the
// child reading the rest of the facts is at work (check/file.hpp
// PageTextBeside): read_page_text is most of a check's reading, and this
// process verifies the record meanwhile. Under the same limits as the
// check's children, and named as they are ("the check ..."); destroying it
// kills the child. Two children read the file at two moments: one that
// changed meanwhile (rewritten, replaced) gets no verdict from the two.
class PageTextReading {
 public:
  PageTextReading(std::string path, const struct stat& before, const runner::IsolationLimits& limits)
      : path_(std::move(path)), before_(before),
        children_(runner::SchedulerOptions{.children = 1, .limits = limits.child_limits()}) {
    children_.start(0, [this] { return read_page_text_in_child(path_); });
  }
  Result<std::string> answer() {
    while (!answer_) {
      for (auto& done : children_.wait().done) answer_ = std::move(done.answer);
    }
    if (*answer_ && !same_file_state(path_, before_))
      answer_ = fail(ErrorKind::io, "", "the file changed while it was checked: check it again once nothing writes it");
    return *answer_;
  }

 private:
  std::string path_;
  struct stat before_;
  runner::ChildScheduler children_;
  std::optional<Result<std::string>> answer_;
};

// Whether the run's page 1 text is read beside the facts: one input, a PDF
// file (a member is read from the parent's memory), and a second core to
// read it on.
// The file's state (stat) when it is.
std::optional<struct stat> reads_page_text_beside(runner::InputSource& inputs) {
  if (inputs.total() != std::optional<std::size_t>(1) || !inputs.has(0)) return std::nullopt;
  const CorpusInput& only = inputs.at(0);
  if (only.bytes || only.ready || std::thread::hardware_concurrency() < 2) return std::nullopt;
  struct stat before {};
  if (::stat(only.name.c_str(), &before) != 0 || !S_ISREG(before.st_mode)) return std::nullopt;
  const auto head = read_input_head(only.name, 1024);
  if (!head || !looks_like_pdf(*head)) return std::nullopt;
  return before;
}

// pith-check's Judge (runner/corpus.hpp): the child only reads the input
// (check/file.hpp read_input_in_child), this process judges what it read
// (check/file.hpp), then the resolver hosts and the online lookup.
class InputJudge final : public runner::Judge {
 public:
  InputJudge(const registry::TrustStore& trust, const CheckRunOptions& options, OnlineBatch& online)
      : trust_(trust), options_(options), online_(online) {}

  // The one input's page 1 text read beside its facts (before the run starts:
  // the workers forked after it leave page 1's text to it).
  void read_page_text_beside(const std::string& path, const struct stat& before) {
    page_text_.emplace(path, before, options_.limits);
  }

  [[nodiscard]] std::string read(const runner::InputRequest& input) const override {
    return read_input_in_child(input.name, input.bytes, page_text_ ? pdf::PageOneText::elsewhere : pdf::PageOneText::read);
  }

  void judge(CorpusInput input, std::optional<Result<std::string>> sent) override {
    // Resolved identifiers are the registry's answer already: no second lookup.
    const bool ready = !sent.has_value();
    PageTextBeside beside;
    if (page_text_) beside = [this] { return page_text_->answer(); };
    FileCheck checked = ready ? FileCheck(*input.ready) : judge_input_from_child(input.name, bytes_of(input), *sent, trust_, beside);
    input.ready.reset();
    if (options_.evidence_dir.empty()) input.bytes.reset();  // --evidence renders a member's page 1 from them
    if (!options_.resolver_bases.empty()) resolver::check_resolver_hosts(checked.report, options_.resolver_bases);
    online_.add(std::move(input), std::move(checked), !ready);
  }

 private:
  static std::optional<std::string_view> bytes_of(const CorpusInput& input) {
    if (input.bytes) return std::string_view(*input.bytes);
    return std::nullopt;
  }
  const registry::TrustStore& trust_;
  const CheckRunOptions& options_;
  OnlineBatch& online_;
  std::optional<PageTextReading> page_text_;
};

// `resolver`: nullptr when offline (the online checks are then skipped and
// the report says so in extra.online, without a check line). A PDF that
// carries only a number (FileCheck::evidence) has its record resolved — by
// `resolver`, else options.local_resolver — verified and bound to it
// (bind_resolved_record), in the same run.
[[nodiscard]] int run_checks(const CheckRunInputs& inputs, const registry::TrustStore& trust, resolver::Resolver* resolver,
                             const CheckRunOptions& options, std::ostream& out, std::ostream& err) {
  Writer writer(options, std::nullopt, nullptr, out, err);
  std::optional<JobLog> joblog;
  if (!options.joblog.empty()) {
    auto opened = JobLog::open(options.joblog, options.resume, [&writer](const std::string& name, const nlohmann::json& line) {
      writer.count_earlier(name, line);
    });
    if (!opened) {
      err << "pith-check: --joblog " << terminal_safe(opened.error().describe()) << "\n";
      return exit_code_for(opened.error());
    }
    joblog.emplace(std::move(*opened));
    writer.set_joblog(&*joblog);
  }
  runner::InputSource inputs_in_order(inputs, runner::Shard{options.shard_index, options.shard_count},
                                      joblog ? &*joblog : nullptr, options.max_member_bytes,
                                      [&writer](const std::string& problem) { writer.run_error(problem); });
  inputs_in_order.on_skipped([&writer](const std::string& line) { writer.note(line); });
  writer.set_total(inputs_in_order.total());
  if (options.table && !options.quiet) out << report_table_header(*options.table) << std::flush;  // even with no row
  OnlineBatch online(resolver, options.local_resolver, std::max<std::size_t>(options.online_batch, 1), writer);
  InputJudge judge(trust, options, online);
  if (const auto before = reads_page_text_beside(inputs_in_order)) judge.read_page_text_beside(inputs_in_order.at(0).name, *before);

  const runner::Interruption interruption;
  runner::CorpusOptions corpus;
  corpus.jobs = options.jobs;
  corpus.limits = options.limits;
  corpus.inputs_per_worker = options.fork_per_file ? 0 : options.inputs_per_worker;
  corpus.interruption = &interruption;
  const bool ran_through = runner::run_corpus(inputs_in_order, judge, corpus);
  online.flush();  // judged before the interrupt: written, and in the joblog
  runner::RunEnd end = runner::RunEnd::of(inputs_in_order, runner::Shard{options.shard_index, options.shard_count});
  if (!ran_through) end.interrupted(runner::Interruption::name_of(interruption.signal()), options.joblog);
  writer.finish(std::move(end));
  return ran_through ? writer.exit_code() : exit_code::interrupted_by(interruption.signal());
}

// One line per path read from `in` (`--files-from`): trailing CR stripped,
// empty lines skipped. `separator` '\0': NUL-separated (`--null`).
[[nodiscard]] std::vector<std::string> read_path_list(std::istream& in, char separator = '\n') {
  std::vector<std::string> paths;
  std::string line;
  while (std::getline(in, line, separator)) {
    if (separator == '\n' && !line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty()) paths.push_back(std::move(line));
  }
  return paths;
}

}  // namespace

// --- The job ------------------------------------------------------------------

namespace {

bool use_colour() {
  const char* no_colour = std::getenv("NO_COLOR");
  return ::isatty(STDOUT_FILENO) == 1 && (no_colour == nullptr || *no_colour == '\0');
}

std::unexpected<Error> usage(std::string message) { return fail(ErrorKind::usage, "", std::move(message)); }

// An input that is its error before any child reads it (kind "", verdict
// error, exit 2): a directory given without -r, one -r cannot list.
Report input_error(const std::string& name, ErrorKind kind, std::string message) {
  Report report;
  report.input = name;
  report.error = Error{kind, {}, std::move(message)};
  return report;
}

// The inputs named, each directory among them replaced by the PDFs under it
// (-r, runner/directory_walk.hpp: sorted, no link followed), beside the
// reports already made (a directory -r cannot list; a directory without
// -r, whose one line says to add it; one under which -r finds no PDF).
// What a walk passed over is one note.
std::pair<std::vector<std::string>, std::vector<std::optional<Report>>> expand_directories(std::vector<std::string> given,
                                                                                          bool recursive, bool quiet) {
  std::vector<std::string> names;
  std::vector<std::optional<Report>> made;
  for (auto& name : given) {
    std::error_code ec;
    if (!std::filesystem::is_directory(name, ec)) {
      names.push_back(std::move(name));
      made.emplace_back();
      continue;
    }
    if (!recursive) {
      made.emplace_back(input_error(name, ErrorKind::usage,
                                    "is a directory: add -r to check the PDFs under it (pith-check -r " + name + ")"));
      names.push_back(std::move(name));
      continue;
    }
    runner::DirectoryWalk walk = runner::walk_for_pdfs(name);
    if (walk.entries.empty()) {  // said, not a silent exit 0
      walk.entries.push_back({name, "no file named *.pdf under it (-r checks those, and follows no link)"});
    }
    for (auto& entry : walk.entries) {
      if (entry.problem) {
        made.emplace_back(input_error(entry.path, ErrorKind::io, *entry.problem));
      } else {
        made.emplace_back();
      }
      names.push_back(std::move(entry.path));
    }
    if (const std::string skipped = walk.passed_over(); !skipped.empty() && !quiet)
      std::cerr << "pith-check: " << terminal_safe(name) << ": passed over " << skipped << "\n";
  }
  return {std::move(names), std::move(made)};
}

// --extract DIR FILE.pdf: one PDF, no run around it.
Result<int> extract(const auto& o) {  // CheckJob::Options, a private type
  if (o.files.size() != 1 || !o.archives.empty() || o.recursive || o.json || o.csv || o.tsv)
    return usage("--extract takes one PDF and no other input or output option (pith-check --extract DIR FILE.pdf)");
  ExtractRequest request{o.files.front(), o.extract_dir, o.force, o.run.limits};
  if (auto extracted = extract_pith_parts(request, std::cout); !extracted) return std::unexpected(extracted.error());
  return exit_code::ok;
}

}  // namespace

CheckJob::CheckJob() : Job("pith-check"), options_(std::make_unique<Options>()) {}
CheckJob::~CheckJob() = default;

Result<int> CheckJob::run() {
  Options& o = *options_;
  CheckRunOptions& run = o.run;
  if (!o.files_from.empty()) {
    std::ifstream list_file;
    if (o.files_from != "-") {
      list_file.open(o.files_from);
      if (!list_file) return fail(ErrorKind::io, "--files-from " + o.files_from, "cannot read");
    }
    for (auto& path : read_path_list(o.files_from == "-" ? std::cin : list_file, o.null_separated ? '\0' : '\n'))
      o.files.push_back(std::move(path));
  }
  run.fork_per_file = o.workers == "fork";
  if (o.file_memory_mb != 0) run.limits.memory_bytes = o.file_memory_mb << 20;
  run.limits.cpu_seconds = std::min(run.limits.cpu_seconds, run.limits.wall_seconds);
  run.limits.memory_option = "--child-memory MiB";  // named when a child is stopped by its limit
  run.limits.time_option = "--file-timeout SECONDS";
  run.evidence_budget.memory_mib = std::max(run.evidence_budget.memory_mib, o.file_memory_mb);
  run.evidence_budget.cpu_seconds = run.limits.cpu_seconds;
  run.evidence_budget.wall_seconds = run.limits.wall_seconds;
  if (!o.extract_dir.empty()) return extract(o);
  if (o.force) return usage("--force goes with --extract DIR (it replaces the files already in DIR)");
  if (!o.shard.empty()) {
    const auto parsed = runner::Shard::parse(o.shard);
    if (!parsed) return usage(parsed.error().describe());
    run.shard_index = parsed->index;
    run.shard_count = parsed->count;
  }
  if (run.resume && run.joblog.empty()) return usage("--resume needs --joblog FILE (the log of the run to continue)");
  if (std::count(o.archives.begin(), o.archives.end(), "-") + (o.files_from == "-" ? 1 : 0) > 1)
    return usage("stdin ('-') can be read only once: one of --tar - and --files-from -");
  // --joblog FILE --resume alone rebuilds the summary, page and exit code of the run it holds.
  if (o.files.empty() && o.archives.empty() && !run.resume)
    return usage_with_help("nothing to check (give files, numbers, --files-from or --tar)");

  std::vector<std::string> warnings;
  const auto trust = registry::TrustStore::load(o.trust_keys, &warnings);
  for (const auto& w : warnings) warn(w);
  if (!trust) return usage("--trust-key " + trust.error().describe());
  // What OCR taught about glyph shapes (check/shape_memory.hpp): its own
  // directory beside the record cache, never in it (--offline never writes the record cache).
  if (const auto cache = resolver::default_cache_dir(); !cache.empty())
    use_shape_memory_file(cache.parent_path() / "pith-shapes" / "memory");

  // Arguments that are not files but name a paper are resolved together
  // (one batch over reused connections), then reported in argument order.
  CheckRunInputs inputs;
  auto [names, walked] = expand_directories(std::move(o.files), o.recursive, run.quiet);
  inputs.ready = resolver::look_up_identifiers(names, o.resolver, *trust);
  for (std::size_t i = 0; i < walked.size(); ++i) {
    if (walked[i]) inputs.ready[i] = std::move(walked[i]);
  }
  inputs.names = std::move(names);
  inputs.archives = std::move(o.archives);
  run.colour = !o.json && !o.csv && !o.tsv && use_colour();
  run.json = o.json;
  if (o.csv) run.table = TableFormat::csv;
  if (o.tsv) run.table = TableFormat::tsv;
  run.progress = !run.quiet && ::isatty(STDERR_FILENO) == 1;
  run.resolver_bases = o.resolver.mirrors;
  run.resolver_bases.push_back(o.resolver.resolver_url);
  std::optional<resolver::Resolver> online;
  std::optional<resolver::Resolver> local;  // --offline: cache and file:// only, for PDFs carrying only a number
  if (!o.resolver.offline) {
    online.emplace(o.resolver, *trust);
  } else {
    local.emplace(o.resolver, *trust);
    run.local_resolver = &*local;
  }
  return run_checks(inputs, *trust, online ? &*online : nullptr, run, std::cout, std::cerr);
}

}  // namespace pith::check
