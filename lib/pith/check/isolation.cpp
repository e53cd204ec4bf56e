// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/check/isolation.hpp"

#include <chrono>
#include <poll.h>
#include <string>
#include <utility>

namespace pith::check {
namespace {

Report error_report(std::string_view input_name, Error error) {
  Report r;
  r.input = std::string(input_name);
  r.error = std::move(error);
  return r;
}

std::optional<CheckStatus> status_from(const std::string& s) {
  for (const auto status : {CheckStatus::pass, CheckStatus::fail, CheckStatus::warn, CheckStatus::skip}) {
    if (s == to_string(status)) return status;
  }
  return std::nullopt;
}

// Hostile PDFs put invalid UTF-8 into details: replace it rather than throw.
std::string dump(const nlohmann::json& j) { return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); }

}  // namespace

nlohmann::json report_to_wire(const Report& report) {
  auto checks = nlohmann::json::array();
  for (const auto& c : report.checks()) {
    checks.push_back({{"code", c.code}, {"status", to_string(c.status)}, {"detail", c.detail}, {"anchors", c.anchors_trust},
                      {"binds", c.binds_content}});
  }
  return {{"input", report.input},
          {"pith_number", report.pith_number},
          {"input_kind", report.input_kind},
          {"error", report.error ? nlohmann::json(report.error->message) : nlohmann::json(nullptr)},
          {"error_kind", report.error ? nlohmann::json(to_string(report.error->kind)) : nlohmann::json(nullptr)},
          {"number_found", report.number_found},
          {"requires_content_binding", report.requires_content_binding},
          {"extra", report.extra},
          {"checks", std::move(checks)}};
}

Result<Report> report_from_wire(const nlohmann::json& wire) {
  const auto string_at = [&](const char* key) -> const nlohmann::json* {
    const auto it = wire.find(key);
    return it != wire.end() && it->is_string() ? &*it : nullptr;
  };
  if (!wire.is_object() || !string_at("input") || !string_at("pith_number") || !string_at("input_kind") ||
      !wire.contains("number_found") || !wire["number_found"].is_boolean() || !wire.contains("checks") ||
      !wire["checks"].is_array() || !wire.contains("error")) {
    return fail(ErrorKind::internal, "isolated check", "malformed report from the child process");
  }
  Report r;
  r.input = wire["input"].get<std::string>();
  r.pith_number = wire["pith_number"].get<std::string>();
  r.input_kind = wire["input_kind"].get<std::string>();
  r.number_found = wire["number_found"].get<bool>();
  if (const auto it = wire.find("requires_content_binding"); it != wire.end() && it->is_boolean())
    r.requires_content_binding = it->get<bool>();
  if (wire["error"].is_string()) {
    // The kind by name, range-checked: a report whose kind names none is malformed.
    const auto kind = wire.contains("error_kind") && wire["error_kind"].is_string()
                          ? error_kind_named(wire["error_kind"].get<std::string>())
                          : std::nullopt;
    if (!kind) return fail(ErrorKind::internal, "isolated check", "malformed report from the child process");
    r.error = Error{*kind, {}, wire["error"].get<std::string>()};
  }
  if (wire.contains("extra") && wire["extra"].is_object()) r.extra = wire["extra"];
  for (const auto& c : wire["checks"]) {
    if (!c.is_object() || !c.contains("code") || !c["code"].is_string() || !c.contains("status") ||
        !c["status"].is_string() || !c.contains("detail") || !c["detail"].is_string() || !c.contains("anchors") ||
        !c["anchors"].is_boolean()) {
      return fail(ErrorKind::internal, "isolated check", "malformed check in the child's report");
    }
    const auto status = status_from(c["status"].get<std::string>());
    if (!status) return fail(ErrorKind::internal, "isolated check", "unknown check status in the child's report");
    const bool binds = c.contains("binds") && c["binds"].is_boolean() && c["binds"].get<bool>();
    r.add(c["code"].get<std::string>(), *status, c["detail"].get<std::string>(), c["anchors"].get<bool>(), binds);
  }
  return r;
}

nlohmann::json file_check_to_wire(const FileCheck& checked) {
  nlohmann::json wire = report_to_wire(checked.report);
  wire["carried"] = checked.carried ? checked.carried->to_wire() : nlohmann::json(nullptr);
  if (checked.evidence) wire["evidence"] = checked.evidence->to_json();
  return wire;
}

Result<FileCheck> file_check_from_wire(const nlohmann::json& wire) {
  auto report = report_from_wire(wire);
  if (!report) return std::unexpected(report.error());
  if (!wire.contains("carried")) return fail(ErrorKind::malformed, "isolated check", "malformed report from the child process");
  FileCheck checked(std::move(*report));
  if (!wire["carried"].is_null()) {
    auto carried = CarriedCopy::from_json(wire["carried"]);
    if (!carried) return fail(ErrorKind::malformed, "isolated check", "malformed carried copy in the child's report");
    checked.carried = std::move(*carried);
  }
  if (const auto it = wire.find("evidence"); it != wire.end()) {
    auto evidence = PdfEvidence::from_json(*it);
    if (!evidence) return fail(ErrorKind::malformed, "isolated check", "malformed PDF evidence in the child's report");
    checked.evidence = std::move(*evidence);
  }
  return checked;
}

std::string file_check_wire_text(const FileCheck& checked) { return dump(file_check_to_wire(checked)); }

IsolatedChild IsolatedChild::start(std::string input_name, const std::function<FileCheck()>& check,
                                   const IsolationLimits& limits) {
  ChildProcess child = ChildProcess::start(
      "the check", [&check] { return file_check_wire_text(check()); }, limits.child_limits());
  return IsolatedChild(std::move(input_name), std::move(child));
}

IsolatedChild IsolatedChild::start_judged(std::string input_name, const std::function<std::string()>& work, Judge judge,
                                          const IsolationLimits& limits) {
  ChildProcess child = ChildProcess::start("the check", work, limits.child_limits());
  return IsolatedChild(std::move(input_name), std::move(child), std::move(judge));
}

FileCheck IsolatedChild::finish() {
  if (judge_) return judge_(child_.finish());
  return file_check_from_child(input_name_, child_.finish());
}

FileCheck file_check_from_child(std::string_view input_name, Result<std::string> sent) {
  if (!sent) return error_report(input_name, sent.error());
  const auto wire = nlohmann::json::parse(*sent, nullptr, /*allow_exceptions=*/false);
  if (wire.is_discarded()) return error_report(input_name, Error{ErrorKind::malformed, {}, "the check sent back no complete report"});
  auto checked = file_check_from_wire(wire);
  if (!checked) return error_report(input_name, Error{checked.error().kind, {}, checked.error().describe()});
  return std::move(*checked);
}

FileCheck run_isolated(std::string_view input_name, const std::function<FileCheck()>& check,
                       const IsolationLimits& limits) {
  IsolatedChild child = IsolatedChild::start(std::string(input_name), check, limits);
  read_until_done_or_deadline(child);
  return child.finish();
}

}  // namespace pith::check
