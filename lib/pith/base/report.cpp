// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/base/report.hpp"

#include "pith/base/terminal_text.hpp"

#include <algorithm>

namespace pith {

const char* to_string(CheckStatus s) {
  switch (s) {
    case CheckStatus::pass: return "pass";
    case CheckStatus::fail: return "fail";
    case CheckStatus::warn: return "warn";
    case CheckStatus::skip: return "skip";
  }
  return "?";
}

const char* to_string(Verdict v) {
  switch (v) {
    case Verdict::verified: return "verified";
    case Verdict::failed: return "failed";
    case Verdict::not_found: return "not_found";
    case Verdict::unverifiable: return "unverifiable";
    case Verdict::error: return "error";
    case Verdict::unbound: return "unbound";
    case Verdict::altered: return "altered";
  }
  return "?";
}

void Report::add(std::string code, CheckStatus status, std::string detail, bool anchors_trust, bool binds_content) {
  const bool passed = status == CheckStatus::pass;
  checks_.push_back(Check{std::move(code), status, std::move(detail), anchors_trust && passed, binds_content && passed});
}

void Report::content_binding(std::string code, std::string detail) {
  add(std::move(code), CheckStatus::pass, std::move(detail), false, true);
}

void Report::add(Check check) {
  const bool passed = check.status == CheckStatus::pass;
  check.anchors_trust = check.anchors_trust && passed;
  check.binds_content = check.binds_content && passed;
  check.shows_alteration = check.shows_alteration && check.status == CheckStatus::warn;
  checks_.push_back(std::move(check));
}

void Report::alteration(std::string code, std::string detail) {
  add(Check{std::move(code), CheckStatus::warn, std::move(detail), false, false, true});
}

void Report::merge(const Report& other) {
  checks_.insert(checks_.end(), other.checks_.begin(), other.checks_.end());
}

const Check* Report::find(std::string_view code) const {
  auto it = std::find_if(checks_.begin(), checks_.end(), [&](const Check& c) { return c.code == code; });
  return it == checks_.end() ? nullptr : &*it;
}

bool Report::has_failure() const {
  return std::any_of(checks_.begin(), checks_.end(), [](const Check& c) { return c.status == CheckStatus::fail; });
}

Verdict Report::verdict() const {
  // A failure outranks everything: a failed check must never read as success.
  if (has_failure()) return Verdict::failed;
  if (stopped_by_budget()) return Verdict::unverifiable;  // nothing is known of the input: it was not judged
  if (error) return Verdict::error;
  if (!number_found) return Verdict::not_found;
  const bool anchored = std::any_of(checks_.begin(), checks_.end(), [](const Check& c) { return c.anchors_trust; });
  if (!anchored) return Verdict::unverifiable;
  const bool bound = std::any_of(checks_.begin(), checks_.end(), [](const Check& c) { return c.binds_content; });
  if (requires_content_binding && !bound) return Verdict::unbound;
  const bool altered = std::any_of(checks_.begin(), checks_.end(), [](const Check& c) { return c.shows_alteration; });
  return altered ? Verdict::altered : Verdict::verified;
}

std::vector<const Check*> Report::warnings() const {
  std::vector<const Check*> out;
  for (const auto& c : checks_)
    if (c.status == CheckStatus::warn) out.push_back(&c);
  return out;
}

nlohmann::json Report::to_json() const {
  nlohmann::json warning_codes = nlohmann::json::array();
  for (const Check* w : warnings()) warning_codes.push_back(w->code);
  nlohmann::json checks = nlohmann::json::array();
  for (const auto& c : checks_) {
    checks.push_back({{"code", c.code}, {"status", to_string(c.status)}, {"detail", c.detail}});
  }
  nlohmann::json out = {
      {"file", input},
      {"kind", input_kind},
      {"pith_number", pith_number.empty() ? nlohmann::json(nullptr) : nlohmann::json(pith_number)},
      {"verdict", to_string(verdict())},
      {"warnings", std::move(warning_codes)},
      {"checks", std::move(checks)},
  };
  if (error) out[stopped_by_budget() ? "stopped" : "error"] = error->message;
  if (!extra.empty()) out["details"] = extra;
  return out;
}

namespace {
const char* mark(CheckStatus s) {
  switch (s) {
    case CheckStatus::pass: return "ok  ";
    case CheckStatus::fail: return "FAIL";
    case CheckStatus::warn: return "warn";
    case CheckStatus::skip: return "skip";
  }
  return "    ";
}
const char* colour(CheckStatus s) {
  switch (s) {
    case CheckStatus::pass: return "\033[32m";
    case CheckStatus::fail: return "\033[31m";
    case CheckStatus::warn: return "\033[33m";
    case CheckStatus::skip: return "\033[2m";
  }
  return "";
}
}  // namespace

std::string Report::headline(bool color) const {
  std::string out;
  const Verdict v = verdict();
  const bool good = v == Verdict::verified;
  out += color ? (good ? "\033[32m✓\033[0m " : "\033[31m✗\033[0m ") : (good ? "✓ " : "✗ ");
  // Every value from the input is made inert for the terminal
  // (terminal_text.hpp): the verdict line is ours alone to draw.
  out += input.empty() ? "(input)" : terminal_safe(input);
  out += ": ";
  out += to_string(v);
  const std::string& number = pith_number.empty() ? number_as_written : pith_number;
  if (!number.empty()) out += " " + terminal_safe(number);
  if (stopped_by_budget()) out += " — " + terminal_safe(error->message);  // why nothing was decided, and how to raise the budget
  const auto warned = warnings();
  const auto alteration = std::find_if(warned.begin(), warned.end(), [](const Check* c) { return c->shows_alteration; });
  // What changed, not why it can be trusted: an alteration's detail says
  // what first and qualifies it after " (" (check/pdf.hpp's check_page_text).
  if (v == Verdict::altered && alteration != warned.end()) {
    const std::string& detail = (*alteration)->detail;
    out += " — " + terminal_safe(detail.substr(0, detail.find(" (")));
  }
  if (!warned.empty()) {
    out += v == Verdict::altered ? "; " : " — ";
    out += std::to_string(warned.size()) + (warned.size() == 1 ? " warning: " : " warnings: ");
    for (std::size_t i = 0; i < warned.size(); ++i) out += (i ? ", " : "") + terminal_safe(warned[i]->code);
  }
  return out;
}

std::string Report::to_text(bool color) const {
  std::string out = headline(color) + "\n";
  if (error && !stopped_by_budget()) out += "  error: " + terminal_safe(error->message) + "\n";  // a stop is on the headline
  for (const auto& c : checks_) {
    out += "  ";
    if (color) out += colour(c.status);
    out += mark(c.status);
    if (color) out += "\033[0m";
    out += " " + terminal_safe(c.code);
    if (!c.detail.empty()) out += ": " + terminal_safe(c.detail);
    out += "\n";
  }
  return out;
}

}  // namespace pith
