// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/runner/corpus_summary.hpp"

#include "pith/base/markup.hpp"
#include "pith/runner/corpus_input.hpp"

#include "pith/base/terminal_text.hpp"

#include <algorithm>
#include <cstdio>

namespace pith::runner {

namespace {

// Everything the summary says of a verdict, in one place: a verdict added to
// base/verdict.hpp is one line here (-Wswitch says where).
struct VerdictLook {
  const char* colour;   // its bar on the page
  bool quiet;           // listed after those needing attention, and capped
  const char* meaning;  // the reason when its report gives none
};
VerdictLook look_of(Verdict v) {
  switch (v) {
    case Verdict::verified: return {"#2a8", false, "verified"};
    case Verdict::failed: return {"#d33", false, "a check failed"};
    case Verdict::altered: return {"#c36", false, "the text changed after stamping"};
    case Verdict::error: return {"#e80", false, "the input could not be checked"};
    case Verdict::unbound: return {"#a6c", false, "nothing a reader sees ties the PDF to its record"};
    case Verdict::unverifiable: return {"#888", false, "nothing trusted to verify the record with"};
    case Verdict::not_found: return {"#48c", true, "no Pith Number found"};
  }
  return {"#888", false, "an unknown verdict"};
}

std::string dump(const nlohmann::json& j, int indent = -1) {
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string seconds_text(double s) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3f", s);
  return buffer;
}

std::string check_line(const Check& c) { return c.detail.empty() ? c.code : c.code + ": " + c.detail; }

std::string counts_text(const std::map<std::string, std::size_t>& counts) {
  std::string out;
  for (const auto& [kind, n] : counts) out += (out.empty() ? "" : ", ") + std::to_string(n) + " " + kind;
  return out;
}

}  // namespace

const std::vector<Verdict>& every_verdict() {
  // base/verdict.hpp's order: verified first, the quiet verdicts last.
  static const std::vector<Verdict> all(all_verdicts.begin(), all_verdicts.end());
  return all;
}

bool needs_attention(Verdict verdict) { return verdict != Verdict::verified && !look_of(verdict).quiet; }

std::optional<Verdict> verdict_named(std::string_view name) {
  for (const Verdict v : every_verdict()) {
    if (name == to_string(v)) return v;
  }
  return std::nullopt;
}

std::string reason_not_verified(const Report& checked) {
  if (checked.error) return checked.error->message;
  const Verdict verdict = checked.verdict();
  if (verdict == Verdict::verified) return {};
  for (const CheckStatus wanted : {CheckStatus::fail, CheckStatus::warn}) {
    for (const auto& c : checked.checks()) {
      if (c.status == wanted) return check_line(c);
    }
  }
  return look_of(verdict).meaning;
}

SummaryEntry SummaryEntry::of(const std::string& name, const Report& checked, nlohmann::json report, double seconds) {
  SummaryEntry e;
  e.name = name;
  e.verdict = checked.verdict();
  for (const auto& c : checked.checks()) {
    if (c.status == CheckStatus::fail && std::find(e.failing_checks.begin(), e.failing_checks.end(), c.code) == e.failing_checks.end())
      e.failing_checks.push_back(c.code);
  }
  e.reason = reason_not_verified(checked);
  e.seconds = seconds;
  if (e.verdict != Verdict::verified) e.report = std::move(report);
  return e;
}

nlohmann::json SummaryEntry::to_joblog() const {
  nlohmann::json j = {{"verdict", to_string(verdict)}, {"seconds", seconds}};
  if (!failing_checks.empty()) j["failing_checks"] = failing_checks;
  if (!reason.empty()) j["reason"] = reason;
  // The report of one that needs attention, for a resumed run's page; not
  // of the quiet ones, which can be most of a corpus (their reason is kept).
  if (!report.is_null() && needs_attention(verdict)) j["report"] = report;
  return j;
}

std::optional<SummaryEntry> SummaryEntry::from_joblog(const std::string& name, const nlohmann::json& line) {
  const auto verdict = line.find("verdict");
  if (verdict == line.end() || !verdict->is_string()) return std::nullopt;
  const auto known = verdict_named(verdict->get_ref<const std::string&>());
  if (!known) return std::nullopt;
  SummaryEntry e;
  e.name = name;
  e.verdict = *known;
  if (const auto s = line.find("seconds"); s != line.end() && s->is_number()) e.seconds = s->get<double>();
  if (const auto f = line.find("failing_checks"); f != line.end() && f->is_array()) {
    for (const auto& code : *f) {
      if (code.is_string()) e.failing_checks.push_back(code.get<std::string>());
    }
  }
  if (const auto r = line.find("reason"); r != line.end() && r->is_string()) e.reason = r->get<std::string>();
  if (e.reason.empty() && e.verdict != Verdict::verified)
    e.reason = std::string(look_of(e.verdict).meaning) + " (an earlier run's joblog line, without its checks)";
  if (const auto r = line.find("report"); r != line.end() && r->is_object()) e.report = *r;
  return e;
}

namespace {
std::string report_text(const nlohmann::json& report) {
  if (report.is_null()) return "(checked by an earlier run: its report is in that run's JSON Lines output)";
  return dump(report, 2);
}
}  // namespace

RunEnd RunEnd::of(const InputSource& inputs, const Shard& shard) {
  RunEnd end;
  end.skipped = inputs.skipped();
  if (shard.count > 1 && inputs.read() == inputs.outside_shard())
    end.empty_shard = "--shard " + std::to_string(shard.index) + "/" + std::to_string(shard.count) + " (of " +
                      std::to_string(inputs.read()) + " inputs)";
  return end;
}

void RunEnd::interrupted(const std::string& signal, const std::string& joblog) {
  interrupted_by = signal;
  resume_hint = joblog.empty()
                    ? "the reports so far are written; without --joblog a new run checks every input again (give "
                      "--joblog FILE to make a run resumable)"
                    : "the reports so far are written and in the joblog; run the same command with --joblog " + joblog +
                          " --resume to check the rest (appending to the same output)";
}

std::string time_left_text(double elapsed_seconds, std::size_t done, std::optional<std::size_t> total) {
  if (!total || done == 0 || done >= *total || elapsed_seconds < 1) return {};
  const auto left = static_cast<long long>(elapsed_seconds / static_cast<double>(done) * static_cast<double>(*total - done));
  char text[48];
  if (left >= 3600) {
    std::snprintf(text, sizeof text, ", about %lldh%02lldm left", left / 3600, left % 3600 / 60);
  } else {
    std::snprintf(text, sizeof text, ", about %lldm%02llds left", left / 60, left % 60);
  }
  return text;
}

void CorpusSummary::add(SummaryEntry entry) {
  ++inputs_;
  const std::string verdict = to_string(entry.verdict);
  ++verdicts_[verdict];
  for (const auto& code : entry.failing_checks) ++failing_checks_[code];
  const double seconds = entry.seconds;
  if (slowest_.size() < slowest_kept || seconds > slowest_.back().seconds) {
    const auto at = std::find_if(slowest_.begin(), slowest_.end(), [&](const Timed& t) { return seconds > t.seconds; });
    slowest_.insert(at, Timed{entry.name, seconds});
    if (slowest_.size() > slowest_kept) slowest_.pop_back();
  }
  if (!keep_reports_ || entry.verdict == Verdict::verified) return;
  if (needs_attention(entry.verdict)) {
    needing_attention_.push_back(Kept{std::move(entry.name), verdict, std::move(entry.reason), seconds, report_text(entry.report)});
    return;
  }
  if (quiet_.size() >= quiet_reports_kept) {
    ++quiet_not_kept_;
    return;
  }
  quiet_.push_back(Kept{std::move(entry.name), verdict, std::move(entry.reason), seconds, report_text(entry.report)});
}

nlohmann::json CorpusSummary::to_json() const {
  auto slowest = nlohmann::json::array();
  for (const auto& t : slowest_) slowest.push_back({{"file", t.name}, {"seconds", t.seconds}});
  nlohmann::json verdicts = nlohmann::json::object();
  for (const Verdict v : every_verdict()) verdicts[to_string(v)] = verdicts_.contains(to_string(v)) ? verdicts_.at(to_string(v)) : 0;
  nlohmann::json j = {{"inputs", inputs_},
                      {"verdicts", verdicts},
                      {"failing_checks", failing_checks_},
                      {"slowest", slowest},
                      {"elapsed_seconds", elapsed_},
                      {"inputs_per_second", elapsed_ > 0 ? static_cast<double>(inputs_) / elapsed_ : 0.0},
                      {"skipped_members", end_.skipped}};
  if (end_.earlier_inputs > 0) j["resumed"] = {{"earlier_inputs", end_.earlier_inputs}};
  if (!end_.interrupted_by.empty()) j["interrupted"] = {{"signal", end_.interrupted_by}, {"resume", end_.resume_hint}};
  if (!end_.empty_shard.empty()) j["empty_shard"] = end_.empty_shard;
  return j;
}

// The lines that say how the run ended, when it did not simply run through.
std::string CorpusSummary::end_text() const {
  std::string out;
  if (!end_.skipped.empty()) out += "tar members not checked (not files): " + counts_text(end_.skipped) + "\n";
  if (end_.earlier_inputs > 0)
    out += "resumed: " + std::to_string(end_.earlier_inputs) + " of these inputs were checked by the earlier run (from the joblog)\n";
  if (!end_.empty_shard.empty()) out += end_.empty_shard + " holds none of the inputs: nothing was checked\n";
  if (!end_.interrupted_by.empty()) out += "interrupted by " + end_.interrupted_by + ": " + end_.resume_hint + "\n";
  return out;
}

std::string CorpusSummary::to_text() const {
  std::string out = "pith-check: " + std::to_string(inputs_) + " inputs in " + seconds_text(elapsed_) + " s";
  if (elapsed_ > 0) out += " (" + std::to_string(static_cast<long long>(static_cast<double>(inputs_) / elapsed_)) + "/s)";
  out += "\n";
  if (!failing_checks_.empty()) {
    out += "pith-check: inputs failing each check:";
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
  return out + end_lines();
}

std::string CorpusSummary::end_lines() const {
  std::string out;
  const std::string end = end_text();
  for (std::size_t at = 0; at < end.size();) {
    const std::size_t eol = end.find('\n', at);
    out += "pith-check: " + terminal_safe(end.substr(at, eol - at)) + "\n";
    at = eol + 1;
  }
  return out;
}

namespace {
std::string attention_verdicts() {
  std::string out;
  for (const Verdict v : every_verdict()) {
    if (needs_attention(v)) out += (out.empty() ? "" : ", ") + std::string(to_string(v));
  }
  return out;
}
}  // namespace

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
  if (const std::string end = end_text(); !end.empty()) h += "<pre id=\"end\">" + markup_escape(end) + "</pre>\n";
  // The counts as bars: inline SVG, one per verdict.
  std::size_t most = 1;
  for (const auto& [v, n] : verdicts_) most = std::max(most, n);
  h += "<h2>Verdicts</h2>\n<svg id=\"verdicts\" xmlns=\"http://www.w3.org/2000/svg\" width=\"640\" height=\"" +
       std::to_string(every_verdict().size() * 28 + 8) + "\" role=\"img\" aria-label=\"inputs per verdict\">\n";
  std::size_t row = 0;
  for (const Verdict verdict : every_verdict()) {
    const char* v = to_string(verdict);
    const std::size_t n = verdicts_.contains(v) ? verdicts_.at(v) : 0;
    const std::size_t y = row++ * 28 + 4;
    const std::size_t width = n * 400 / most;
    h += "<text x=\"0\" y=\"" + std::to_string(y + 17) + "\">" + v + "</text>";
    h += "<rect x=\"110\" y=\"" + std::to_string(y) + "\" width=\"" + std::to_string(width) + "\" height=\"22\" fill=\"" +
         look_of(verdict).colour + "\"/>";
    h += "<text class=\"count\" data-verdict=\"" + std::string(v) + "\" x=\"" + std::to_string(116 + width) + "\" y=\"" +
         std::to_string(y + 17) + "\">" + std::to_string(n) + "</text>\n";
  }
  h += "</svg>\n";
  if (!failing_checks_.empty()) {
    h += "<h2>Failing checks</h2>\n<table id=\"checks\"><tr><th>check</th><th>inputs failing it</th></tr>\n";
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
       " need attention (" + attention_verdicts() + "): all listed first.";
  const std::size_t quiet_total = quiet_.size() + quiet_not_kept_;
  if (quiet_total > 0) {
    h += " " + std::to_string(quiet_total) + " have no Pith Number (not_found)";
    h += quiet_not_kept_ == 0 ? ": listed after them."
                              : ": the first " + std::to_string(quiet_.size()) + " listed after them, " +
                                    std::to_string(quiet_not_kept_) +
                                    " left out (the JSON Lines output has every input).";
  }
  h += "</p>\n";
  h += "<table id=\"failures\"><thead><tr><th>input</th><th>verdict</th><th>reason</th><th>seconds</th></tr></thead><tbody>\n";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Kept& k = *rows[i];
    h += "<tr><td><a href=\"#r" + std::to_string(i) + "\">" + markup_escape(k.name) + "</a></td><td>" + markup_escape(k.verdict) +
         "</td><td>" + markup_escape(k.reason) + "</td><td class=\"n\">" + seconds_text(k.seconds) + "</td></tr>\n";
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
