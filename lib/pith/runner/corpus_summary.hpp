// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What a person reads at the end of a corpus run (pith-check --summary,
// --html, and the closing lines on stderr): counts per verdict and per
// failing check code, the slowest inputs, and, for the HTML page, the inputs
// that are not verified with their full reports: first every one that needs
// someone's attention (every verdict but verified and not_found), however many,
// then the quiet ones (not_found) up to a cap, saying how many were left
// out, so a forged PDF behind 20,000 PDFs without a number is named. Every string that came
// from an input (names, details) is hostile: the page escapes all of them,
// and the page loads nothing from anywhere (inline SVG, CSS and script).
#include "pith/base/report.hpp"

#include <array>
#include <cstddef>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pith::runner {

class InputSource;
struct Shard;

// Every verdict, in the order the summary shows them (to_string's order of
// the enum: a verdict added to base/verdict.hpp is here without a change).
[[nodiscard]] const std::vector<Verdict>& every_verdict();
[[nodiscard]] std::optional<Verdict> verdict_named(std::string_view name);
// Listed first on the page, every one, and its report kept in a joblog
// line: every verdict but verified and the quiet not_found.
[[nodiscard]] bool needs_attention(Verdict verdict);

// What the summary holds of one input: made from its report in this run, or
// read back from a joblog line an earlier run wrote (to_joblog), so a
// resumed run's summary, page and exit code cover the inputs of both.
struct SummaryEntry {
  std::string name;
  Verdict verdict = Verdict::error;
  std::vector<std::string> failing_checks;  // the codes of its failing checks, each once
  std::string reason;      // why it is not verified (reason_not_verified); empty when verified
  double seconds = 0;
  nlohmann::json report;   // its JSON report, kept when it is not verified; null otherwise

  [[nodiscard]] static SummaryEntry of(const std::string& name, const Report& checked, nlohmann::json report, double seconds);
  // The fields a joblog line carries beside the input's name; read back by from_joblog.
  [[nodiscard]] nlohmann::json to_joblog() const;
  // nullopt for a line without a known verdict. A line of an older joblog
  // (verdict only) gives an entry without checks, its reason saying so.
  [[nodiscard]] static std::optional<SummaryEntry> from_joblog(const std::string& name, const nlohmann::json& line);
};

// Why an input is not verified, in one line: its error, else its first
// failing check (code: detail), else its first warning, else what the
// verdict means. Every verdict but `verified` gets one.
[[nodiscard]] std::string reason_not_verified(const Report& checked);

// How a run ended, for the summary's readers.
struct RunEnd {
  std::map<std::string, std::size_t> skipped;  // archive members not checked, by kind (runner/corpus_input.hpp)
  std::size_t earlier_inputs = 0;              // of `inputs`, how many an earlier run checked (--resume)
  std::string interrupted_by;                  // "SIGINT", ...: the run was stopped there; empty: it ran to the end
  std::string resume_hint;                     // how to continue an interrupted run
  std::string empty_shard;                     // "--shard 3/8 (of 2 inputs)": it held none of them

  // What `inputs` skipped, and whether `shard` held none of them, once the run is over.
  [[nodiscard]] static RunEnd of(const InputSource& inputs, const Shard& shard);
  // Stopped by `signal` ("SIGINT"); `joblog`: the run's --joblog, or empty.
  void interrupted(const std::string& signal, const std::string& joblog);
};

// The progress line's ", about 2m05s left", by the rate so far: once the
// total is known and a second has passed; else empty.
[[nodiscard]] std::string time_left_text(double elapsed_seconds, std::size_t done, std::optional<std::size_t> total);

class CorpusSummary {
 public:
  // `keep_reports`: hold the report of each input that is not verified (for the HTML page).
  // Every input that needs attention is held; not_found ones up to quiet_reports_kept.
  explicit CorpusSummary(bool keep_reports) : keep_reports_(keep_reports) {}
  void add(SummaryEntry entry);
  // One input's report, and its JSON line (for the HTML page; may be null when not kept).
  void add(const std::string& name, const Report& checked, const nlohmann::json& report, double seconds) {
    add(SummaryEntry::of(name, checked, report, seconds));
  }
  void set_elapsed(double seconds) { elapsed_ = seconds; }
  void set_end(RunEnd end) { end_ = std::move(end); }
  [[nodiscard]] std::size_t inputs() const { return inputs_; }

  [[nodiscard]] nlohmann::json to_json() const;   // --summary FILE
  [[nodiscard]] std::string to_text() const;      // stderr, human mode
  [[nodiscard]] std::string to_html() const;      // --html FILE
  // to_text's lines about how the run ended (skips, resume, interrupt, an empty shard), alone.
  [[nodiscard]] std::string end_lines() const;

  static constexpr std::size_t slowest_kept = 10;
  static constexpr std::size_t quiet_reports_kept = 20000;  // the page stays openable

 private:
  struct Timed {
    std::string name;
    double seconds = 0;
  };
  struct Kept {
    std::string name;
    std::string verdict;
    std::string reason;
    double seconds = 0;
    std::string report;         // the JSON line
  };
  [[nodiscard]] std::string end_text() const;
  bool keep_reports_;
  std::size_t inputs_ = 0;
  double elapsed_ = 0;
  RunEnd end_;
  std::map<std::string, std::size_t> verdicts_;
  std::map<std::string, std::size_t> failing_checks_;  // inputs failing each check code
  std::vector<Timed> slowest_;  // the slowest_kept slowest, slowest first
  std::vector<Kept> needing_attention_;  // every verdict but verified and not_found: all of them, in input order
  std::vector<Kept> quiet_;              // not_found: the first quiet_reports_kept
  std::size_t quiet_not_kept_ = 0;
};

}  // namespace pith::runner
