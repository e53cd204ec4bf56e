// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/check/isolation.hpp"

#include <chrono>
#include <poll.h>
#include <string>
#include <utility>

namespace pith::check {
namespace {

std::optional<CheckStatus> status_from(const std::string& s) {
  for (const auto status : {CheckStatus::pass, CheckStatus::fail, CheckStatus::warn, CheckStatus::skip}) {
    if (s == to_string(status)) return status;
  }
  return std::nullopt;
}

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
          {"error", report.error ? nlohmann::json(*report.error) : nlohmann::json(nullptr)},
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
  if (wire["error"].is_string()) r.error = wire["error"].get<std::string>();
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
  wire["carried"] = checked.carried ? checked.carried->to_json() : nlohmann::json(nullptr);
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

IsolatedChild IsolatedChild::start_judged(std::string input_name, const std::function<std::string()>& work, Judge judge,
                                          const IsolationLimits& limits) {
  (void)input_name;
  return IsolatedChild(ChildProcess::start("the check", work, limits.child_limits()), std::move(judge));
}

FileCheck IsolatedChild::finish() { return judge_(child_.finish()); }

}  // namespace pith::check
