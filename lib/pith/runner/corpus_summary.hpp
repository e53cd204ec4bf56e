// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What a person reads at the end of a corpus run (pith-check --summary,
// --html, and the closing lines on stderr): counts per verdict and per
// failing check code, the slowest inputs, and, for the HTML page, the inputs
// that are not verified with their full reports: first every one that needs
// someone's attention (failed, altered, error, unbound, unverifiable), however many,
// then the quiet ones (not_found) up to a cap, saying how many were left
// out, so a forged PDF behind 20,000 PDFs without a number is named. Every string that came
// from an input (names, details) is hostile: the page escapes all of them,
// and the page loads nothing from anywhere (inline SVG, CSS and script).
#include "pith/base/report.hpp"

#include <array>
#include <cstddef>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace pith::runner {

class CorpusSummary {
 public:
  // `keep_reports`: hold the report of each input that is not verified (for the HTML page).
  // Every input that needs attention is held; not_found ones up to quiet_reports_kept.
  explicit CorpusSummary(bool keep_reports) : keep_reports_(keep_reports) {}
  // One input's report, and its JSON line (for the HTML page; may be null when not kept).
  void add(const std::string& name, const Report& checked, const nlohmann::json& report, double seconds);
  void set_elapsed(double seconds) { elapsed_ = seconds; }

  [[nodiscard]] nlohmann::json to_json() const;   // --summary FILE
  [[nodiscard]] std::string to_text() const;      // stderr, human mode
  [[nodiscard]] std::string to_html() const;      // --html FILE

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
    std::string first_failure;  // the first failing check code, or the error
    double seconds = 0;
    std::string report;         // the JSON line
  };
  bool keep_reports_;
  std::size_t inputs_ = 0;
  double elapsed_ = 0;
  std::map<std::string, std::size_t> verdicts_;
  std::map<std::string, std::size_t> failing_checks_;
  std::vector<Timed> slowest_;  // the slowest_kept slowest, slowest first
  std::vector<Kept> needing_attention_;  // failed, altered, error, unbound, unverifiable: all of them, in input order
  std::vector<Kept> quiet_;              // not_found: the first quiet_reports_kept
  std::size_t quiet_not_kept_ = 0;
};


}  // namespace pith::runner
