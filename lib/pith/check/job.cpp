// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/check/job.hpp"
#include "pith/check/job_options.hpp"
#include "pith/check/run_writer.hpp"

#include "pith/check/shape_memory.hpp"

#include "pith/base/exit_codes.hpp"
#include "pith/base/input_file.hpp"
#include "pith/base/terminal_text.hpp"
#include "pith/check/extract.hpp"
#include "pith/check/file.hpp"
#include "pith/check/online.hpp"
#include "pith/check/page_renders.hpp"
#include "pith/check/pdf.hpp"
#include "pith/check/table.hpp"
#include "pith/registry/trust_store.hpp"
#include "pith/resolver/lookup.hpp"
#include "pith/resolver/resolver.hpp"
#include "pith/resolver/resolver_host.hpp"
#include "pith/runner/corpus.hpp"
#include "pith/runner/corpus_input.hpp"
#include "pith/runner/corpus_summary.hpp"
#include "pith/runner/directory_walk.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <istream>
#include <map>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <utility>
#include <vector>

namespace pith::check {

namespace {

using detail::Writer;
using runner::CorpusInput;
using runner::JobLog;

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
