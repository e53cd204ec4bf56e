// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/runner/corpus_summary.hpp"

#include "pith/base/markup.hpp"

#include "pith/base/terminal_text.hpp"

#include <algorithm>
#include <cstdio>

namespace pith::runner {

namespace {

// Every verdict's name, in base/verdict.hpp's order.
const std::array<const char*, verdict_count> verdict_order = [] {
  std::array<const char*, verdict_count> names{};
  for (std::size_t i = 0; i < verdict_count; ++i) names[i] = to_string(all_verdicts[i]);
  return names;
}();

std::string dump(const nlohmann::json& j, int indent = -1) {
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string seconds_text(double s) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3f", s);
  return buffer;
}

std::string first_failure(const Report& checked) {
  if (checked.error) return "error";
  for (const auto& c : checked.checks()) {
    if (c.status == CheckStatus::fail) return c.code;
  }
  return "";
}

}  // namespace

void CorpusSummary::add(const std::string& name, const Report& checked, const nlohmann::json& report, double seconds) {
  ++inputs_;
  const std::string verdict = to_string(checked.verdict());
  ++verdicts_[verdict];
  for (const auto& c : checked.checks()) {
    if (c.status == CheckStatus::fail) ++failing_checks_[c.code];
  }
  if (slowest_.size() < slowest_kept || seconds > slowest_.back().seconds) {
    const auto at = std::find_if(slowest_.begin(), slowest_.end(), [&](const Timed& t) { return seconds > t.seconds; });
    slowest_.insert(at, Timed{name, seconds});
    if (slowest_.size() > slowest_kept) slowest_.pop_back();
  }
  if (!keep_reports_ || verdict == "verified") return;
  if (verdict != "not_found") {
    needing_attention_.push_back(Kept{name, verdict, first_failure(checked), seconds, dump(report, 2)});
    return;
  }
  if (quiet_.size() >= quiet_reports_kept) {
    ++quiet_not_kept_;
    return;
  }
  quiet_.push_back(Kept{name, verdict, first_failure(checked), seconds, dump(report, 2)});
}

nlohmann::json CorpusSummary::to_json() const {
  auto slowest = nlohmann::json::array();
  for (const auto& t : slowest_) slowest.push_back({{"file", t.name}, {"seconds", t.seconds}});
  nlohmann::json verdicts = nlohmann::json::object();
  for (const char* v : verdict_order) verdicts[v] = verdicts_.contains(v) ? verdicts_.at(v) : 0;
  return {{"inputs", inputs_},
          {"verdicts", verdicts},
          {"failing_checks", failing_checks_},
          {"slowest", slowest},
          {"elapsed_seconds", elapsed_},
          {"inputs_per_second", elapsed_ > 0 ? static_cast<double>(inputs_) / elapsed_ : 0.0}};
}

std::string CorpusSummary::to_text() const {
  std::string out = "pith-check: " + std::to_string(inputs_) + " inputs in " + seconds_text(elapsed_) + " s";
  if (elapsed_ > 0) out += " (" + std::to_string(static_cast<long long>(static_cast<double>(inputs_) / elapsed_)) + "/s)";
  out += "\n";
  if (!failing_checks_.empty()) {
    out += "pith-check: failing checks:";
    for (const auto& [code, n] : failing_checks_) out += " " + terminal_safe(code) + " " + std::to_string(n) + ",";
    out.back() = '\n';
  }
  if (!slowest_.empty()) {
    out += "pith-check: slowest:";
    for (std::size_t i = 0; i < std::min<std::size_t>(3, slowest_.size()); ++i) {
      out += " " + terminal_safe(slowest_[i].name) + " (" + seconds_text(slowest_[i].seconds) + " s)" +
             (i + 1 < std::min<std::size_t>(3, slowest_.size()) ? "," : "");
    }
    out += "\n";
  }
  return out;
}

std::string CorpusSummary::to_html() const {
  std::string h;
  h += "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
       "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
       "script-src 'unsafe-inline'\">\n<title>pith-check report</title>\n<style>\n"
       "body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse}"
       "th,td{border:1px solid #ccc;padding:2px 8px;text-align:left}th{cursor:pointer;background:#f4f4f4}"
       "td.n{text-align:right}pre{white-space:pre-wrap;word-break:break-all;background:#f8f8f8;padding:.5em}"
       "</style></head><body>\n<h1>pith-check report</h1>\n";
  h += "<p id=\"total\">" + std::to_string(inputs_) + " inputs in " + seconds_text(elapsed_) + " s</p>\n";
  // The counts as bars: inline SVG, one per verdict.
  std::size_t most = 1;
  for (const auto& [v, n] : verdicts_) most = std::max(most, n);
  const std::map<std::string, std::string> colour{{"verified", "#2a8"}, {"failed", "#d33"}, {"altered", "#c36"}, {"error", "#e80"},
                                                  {"unbound", "#a6c"}, {"unverifiable", "#888"}, {"not_found", "#48c"}};
  h += "<h2>Verdicts</h2>\n<svg id=\"verdicts\" xmlns=\"http://www.w3.org/2000/svg\" width=\"640\" height=\"" +
       std::to_string(verdict_order.size() * 28 + 8) + "\" role=\"img\" aria-label=\"inputs per verdict\">\n";
  std::size_t row = 0;
  for (const char* v : verdict_order) {
    const std::size_t n = verdicts_.contains(v) ? verdicts_.at(v) : 0;
    const std::size_t y = row++ * 28 + 4;
    const std::size_t width = n * 400 / most;
    h += "<text x=\"0\" y=\"" + std::to_string(y + 17) + "\">" + v + "</text>";
    h += "<rect x=\"110\" y=\"" + std::to_string(y) + "\" width=\"" + std::to_string(width) + "\" height=\"22\" fill=\"" +
         colour.at(v) + "\"/>";
    h += "<text class=\"count\" data-verdict=\"" + std::string(v) + "\" x=\"" + std::to_string(116 + width) + "\" y=\"" +
         std::to_string(y + 17) + "\">" + std::to_string(n) + "</text>\n";
  }
  h += "</svg>\n";
  if (!failing_checks_.empty()) {
    h += "<h2>Failing checks</h2>\n<table><tr><th>check</th><th>inputs</th></tr>\n";
    for (const auto& [code, n] : failing_checks_) {
      h += "<tr><td>" + markup_escape(code) + "</td><td class=\"n\">" + std::to_string(n) + "</td></tr>\n";
    }
    h += "</table>\n";
  }
  // Those that need attention first, all of them; then the quiet ones, capped.
  std::vector<const Kept*> rows;
  for (const auto& k : needing_attention_) rows.push_back(&k);
  for (const auto& k : quiet_) rows.push_back(&k);
  h += "<h2>Inputs not verified</h2>\n<p id=\"attention\">" + std::to_string(needing_attention_.size()) +
       " need attention (failed, altered, error, unbound, unverifiable): all listed first.";
  const std::size_t quiet_total = quiet_.size() + quiet_not_kept_;
  if (quiet_total > 0) {
    h += " " + std::to_string(quiet_total) + " have no Pith Number (not_found)";
    h += quiet_not_kept_ == 0 ? ": listed after them."
                              : ": the first " + std::to_string(quiet_.size()) + " listed after them, " +
                                    std::to_string(quiet_not_kept_) +
                                    " left out (the JSON Lines output has every input).";
  }
  h += "</p>\n";
  h += "<table id=\"failures\"><thead><tr><th>input</th><th>verdict</th><th>first failure</th><th>seconds</th></tr></thead><tbody>\n";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Kept& k = *rows[i];
    h += "<tr><td><a href=\"#r" + std::to_string(i) + "\">" + markup_escape(k.name) + "</a></td><td>" + markup_escape(k.verdict) +
         "</td><td>" + markup_escape(k.first_failure) + "</td><td class=\"n\">" + seconds_text(k.seconds) + "</td></tr>\n";
  }
  h += "</tbody></table>\n<h2>Reports</h2>\n";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    h += "<details id=\"r" + std::to_string(i) + "\"><summary>" + markup_escape(rows[i]->name) + "</summary><pre>" +
         markup_escape(rows[i]->report) + "</pre></details>\n";
  }
  // Click a column heading to sort by it (numbers as numbers).
  h += "<script>\n"
       "document.querySelectorAll('#failures th').forEach(function(th,col){th.addEventListener('click',function(){"
       "var body=document.querySelector('#failures tbody');var rows=Array.from(body.rows);"
       "var dir=th.dataset.dir==='asc'?-1:1;th.dataset.dir=dir===1?'asc':'desc';"
       "rows.sort(function(a,b){var x=a.cells[col].textContent,y=b.cells[col].textContent;"
       "var nx=parseFloat(x),ny=parseFloat(y);"
       "return dir*(!isNaN(nx)&&!isNaN(ny)?nx-ny:x.localeCompare(y));});"
       "rows.forEach(function(r){body.appendChild(r);});});});\n"
       "</script>\n</body></html>\n";
  return h;
}

}  // namespace pith::runner
