#include "pith/check/run.hpp"

#include "pith/base/exit_codes.hpp"
#include "pith/base/terminal_text.hpp"
#include "pith/check/corpus.hpp"
#include "pith/check/file.hpp"
#include "pith/check/online.hpp"
#include "pith/check/pdf.hpp"
#include "pith/check/resolver_host.hpp"

#include <array>
#include <istream>
#include <map>
#include <ostream>

namespace pith::check {

namespace {

std::string json_line(const FileCheck& checked) {
  return checked.to_json().dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

// Per-verdict tallies for the progress line and the closing summary.
struct Tally {
  std::array<std::size_t, 6> by_verdict{};
  std::size_t done = 0;

  void add(Verdict v) {
    ++by_verdict[static_cast<std::size_t>(v)];
    ++done;
  }
  [[nodiscard]] std::string describe() const {
    std::string out;
    for (const Verdict v : {Verdict::verified, Verdict::failed, Verdict::error, Verdict::unbound, Verdict::unverifiable,
                            Verdict::not_found}) {
      const std::size_t n = by_verdict[static_cast<std::size_t>(v)];
      if (n == 0) continue;
      out += (out.empty() ? "" : ", ") + std::to_string(n) + " " + to_string(v);
    }
    return out;
  }
};

class Writer {
 public:
  Writer(const CheckRunOptions& options, std::size_t total, std::ostream& out, std::ostream& err)
      : options_(options), total_(total), out_(out), err_(err) {}

  void write(const std::string& name, const FileCheck& checked) {
    const Report& report = checked.report;
    tally_.add(report.verdict());
    worst_ = exit_code::worst(worst_, exit_code_for(report.verdict()));
    if (options_.quiet) return;
    clear_progress();
    if (options_.json) {
      out_ << json_line(checked);
    } else if (!report.error) {
      out_ << report.to_text(options_.colour) << bindings_text(report) << completeness_panel_text(checked);
    }
    // Input that could not be processed: one line naming it, on stderr.
    if (report.error) err_ << "pith-check: " << terminal_safe(name) << ": " << terminal_safe(*report.error) << "\n";
    out_.flush();
    show_progress();
  }

  void finish() {
    clear_progress();
    if (!options_.quiet && !options_.json && total_ > 1) {
      out_ << tally_.done << " inputs: " << tally_.describe() << "\n";
    }
    out_.flush();
  }
  [[nodiscard]] int exit_code() const { return worst_; }

 private:
  void show_progress() {
    if (!options_.progress) return;
    err_ << "\rpith-check: " << tally_.done << "/" << total_ << " (" << tally_.describe() << ")" << std::flush;
    progress_shown_ = true;
  }
  void clear_progress() {
    if (!progress_shown_) return;
    err_ << "\r\033[K" << std::flush;
    progress_shown_ = false;
  }

  const CheckRunOptions& options_;
  std::size_t total_;
  std::ostream& out_;
  std::ostream& err_;
  Tally tally_;
  int worst_ = exit_code::ok;
  bool progress_shown_ = false;
};

// Reports waiting for their online lookup, written together after it.
// PDFs that carry only a number are looked up too (by the local resolver
// when offline), and their record bound to them.
class OnlineBatch {
 public:
  OnlineBatch(resolver::Resolver* resolver, resolver::Resolver* local, std::size_t size, Writer& writer)
      : resolver_(resolver), local_(local), size_(size), writer_(writer) {}

  void add(std::string name, FileCheck checked, bool look_up) {
    resolver::Resolver* by = checked.evidence ? (resolver_ ? resolver_ : local_) : resolver_;
    const bool wanted = look_up && by != nullptr && !number_of(checked).empty();
    pending_.push_back(Pending{std::move(name), std::move(checked), wanted ? by : nullptr});
    if (!resolver_ || pending_.size() >= size_) flush();  // offline: local lookups, written at once
  }

  void flush() {
    // One lookup per distinct number and resolver, all at once.
    for (resolver::Resolver* by : {resolver_, local_}) {
      if (!by) continue;
      std::map<std::string, std::size_t> index;
      std::vector<std::string> numbers;
      for (const auto& p : pending_) {
        if (p.by == by && index.emplace(number_of(p.checked), numbers.size()).second) numbers.push_back(number_of(p.checked));
      }
      if (numbers.empty()) continue;
      const auto answers = by->resolve_many(numbers);
      for (auto& p : pending_) {
        if (p.by != by) continue;
        const auto& answer = answers[index.at(number_of(p.checked))];
        if (p.checked.evidence) {
          bind_resolved_record(p.checked, answer);
        } else {
          add_online_checks(p.checked, answer);
        }
      }
    }
    for (auto& p : pending_) writer_.write(p.name, p.checked);
    pending_.clear();
  }

 private:
  struct Pending {
    std::string name;
    FileCheck checked;
    resolver::Resolver* by = nullptr;  // who looks its number up; nullptr: nobody
  };
  static const std::string& number_of(const FileCheck& checked) {
    return checked.evidence ? checked.evidence->number : checked.report.pith_number;
  }
  resolver::Resolver* resolver_;
  resolver::Resolver* local_;
  std::size_t size_;
  Writer& writer_;
  std::vector<Pending> pending_;
};

}  // namespace

int run_checks(const CheckRunInputs& inputs, const registry::TrustStore& trust, resolver::Resolver* resolver,
               const CheckRunOptions& options, std::ostream& out, std::ostream& err) {
  Writer writer(options, inputs.names.size(), out, err);
  OnlineBatch online(resolver, options.local_resolver, std::max<std::size_t>(options.online_batch, 1), writer);
  const auto is_ready = [&](std::size_t i) { return i < inputs.ready.size() && inputs.ready[i].has_value(); };

  CorpusTasks tasks;
  tasks.count = inputs.names.size();
  tasks.name = [&](std::size_t i) { return inputs.names[i]; };
  // The child only reads the file; this process judges what it read (check/pdf_facts.hpp).
  tasks.read_in_child = [&](std::size_t i) { return read_file_in_child(inputs.names[i]); };
  tasks.judge_in_parent = [&](std::size_t i, const Result<std::string>& sent) {
    return judge_file_from_child(inputs.names[i], sent, trust);
  };
  tasks.in_parent = [&](std::size_t i) -> std::optional<FileCheck> {
    if (is_ready(i)) return FileCheck(*inputs.ready[i]);
    return std::nullopt;
  };
  // Resolved identifiers are the registry's answer already: no second lookup.
  tasks.emit = [&](std::size_t i, FileCheck checked) {
    if (!options.resolver_bases.empty()) check_resolver_hosts(checked.report, options.resolver_bases);
    online.add(inputs.names[i], std::move(checked), !is_ready(i));
  };

  CorpusOptions corpus;
  corpus.jobs = options.jobs;
  corpus.limits = options.limits;
  check_corpus(tasks, corpus);
  online.flush();
  writer.finish();
  return writer.exit_code();
}

std::vector<std::string> read_path_list(std::istream& in) {
  std::vector<std::string> paths;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty()) paths.push_back(std::move(line));
  }
  return paths;
}

}  // namespace pith::check
