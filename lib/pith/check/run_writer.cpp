// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/check/run_writer.hpp"

#include "pith/base/atomic_file.hpp"
#include "pith/base/mapped_file.hpp"
#include "pith/base/terminal_text.hpp"
#include "pith/check/online.hpp"
#include "pith/check/page_renders.hpp"
#include "pith/check/pdf.hpp"
#include "pith/check/table.hpp"
#include "pith/check/visible.hpp"

#include <csignal>
#include <filesystem>

namespace pith::check::detail {
namespace {

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

}  // namespace

void Writer::write(const CorpusInput& input, const FileCheck& given) {
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

void Writer::run_error(const std::string& message) {
  clear_progress();
  err_ << "pith-check: " << terminal_safe(message) << "\n" << std::flush;
  worst_ = exit_code::worst(worst_, exit_code_for(ErrorKind::io));
}

void Writer::note(const std::string& message) {
  if (options_.quiet) return;
  clear_progress();
  err_ << "pith-check: " << terminal_safe(message) << "\n" << std::flush;
}

void Writer::finish(runner::RunEnd end) {
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

void Writer::count_earlier(const std::string& name, const nlohmann::json& line) {
  auto entry = runner::SummaryEntry::from_joblog(name, line);
  if (!entry) return;
  count(entry->verdict);
  summary_.add(std::move(*entry));
  ++earlier_inputs_;
}

void Writer::set_joblog(JobLog* joblog) {
  joblog_ = joblog;
  earlier_seconds_ = joblog ? joblog->earlier_seconds() : 0;
}

void Writer::save(const char* option, const std::string& path, const std::string& text) {
  if (auto written = write_file_atomically(path, text); !written)
    run_error(std::string(option) + " " + path + ": cannot write (" + written.error().message + ")");
}

void Writer::add_evidence(const CorpusInput& input, Report& report) {
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

std::string Writer::evidence_text(const Report& report) {
  const auto it = report.extra.find("evidence");
  if (it == report.extra.end() || !it->is_object()) return {};
  return "  evidence: " + terminal_safe(it->value("file", "")) + " (" + describe_binding(it->value("binding", "")) + ")\n";
}

void Writer::count(Verdict verdict) {
  tally_.add(verdict);
  worst_ = exit_code::worst(worst_, exit_code_for(verdict));
}

void Writer::note_failure(const Result<void>& written) {
  if (!written && !joblog_failed_) {
    joblog_failed_ = true;
    run_error(written.error().describe());
  }
}

void Writer::show_progress() {
  if (!options_.progress) return;
  err_ << "\rpith-check: " << tally_.done;
  if (total_) err_ << "/" << *total_;
  err_ << " (" << tally_.describe() << ")" << runner::time_left_text(seconds_since(started_), tally_.done, total_) << std::flush;
  progress_shown_ = true;
}

void Writer::clear_progress() {
  if (!progress_shown_) return;
  err_ << "\r\033[K" << std::flush;
  progress_shown_ = false;
}

}  // namespace pith::check::detail
