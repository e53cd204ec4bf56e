// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/check/carried.hpp"

#include "pith/registry/documents.hpp"
#include "pith/registry/signature.hpp"

namespace pith::check {
namespace {

using nlohmann::json;
using registry::member;

std::optional<registry::DocumentKind> kind_from(const std::string& text) {
  for (const auto kind : {registry::DocumentKind::bundle, registry::DocumentKind::state, registry::DocumentKind::record,
                          registry::DocumentKind::resolver_answer}) {
    if (text == registry::to_string(kind)) return kind;
  }
  return std::nullopt;
}

}  // namespace

CarriedCopy CarriedCopy::of(const registry::DocumentContent& record, const Report& report) {
  CarriedCopy copy;
  copy.kind = record.kind;
  copy.event_ids = applied_event_ids(record);
  if (const json& at = member(record.document, "built_at"); at.is_string()) copy.built_at = at.get<std::string>();
  if (const json& c = member(report.extra, "completeness"); c.is_object()) copy.completeness = c;
  return copy;
}

json CarriedCopy::to_json() const {
  json out = {{"kind", registry::to_string(kind)}, {"event_ids", event_ids}};
  if (built_at) out["built_at"] = *built_at;
  if (completeness) out["completeness"] = *completeness;
  return out;
}

Result<CarriedCopy> CarriedCopy::from_json(const json& j) {
  const auto malformed = [] { return fail(ErrorKind::malformed, "carried copy", "malformed"); };
  if (!j.is_object() || !member(j, "kind").is_string() || !member(j, "event_ids").is_array()) return malformed();
  CarriedCopy copy;
  const auto kind = kind_from(member(j, "kind").get<std::string>());
  if (!kind) return malformed();
  copy.kind = *kind;
  for (const auto& id : member(j, "event_ids")) {
    if (!id.is_string()) return malformed();
    copy.event_ids.push_back(id.get<std::string>());
  }
  if (const json& at = member(j, "built_at"); !at.is_null()) {
    if (!at.is_string()) return malformed();
    copy.built_at = at.get<std::string>();
  }
  if (const json& c = member(j, "completeness"); !c.is_null()) {
    if (!c.is_object()) return malformed();
    copy.completeness = c;
  }
  return copy;
}

json PdfEvidence::to_json() const {
  json pairs = json::array();
  for (const auto& [where, title] : titles) pairs.push_back({where, title});
  return {{"number", number}, {"titles", std::move(pairs)}, {"page", page.to_json()}};
}

Result<PdfEvidence> PdfEvidence::from_json(const json& j) {
  const auto malformed = [] { return fail(ErrorKind::malformed, "PDF evidence", "malformed"); };
  if (!j.is_object() || !member(j, "number").is_string() || !member(j, "titles").is_array()) return malformed();
  PdfEvidence out;
  out.number = member(j, "number").get<std::string>();
  for (const auto& pair : member(j, "titles")) {
    if (!pair.is_array() || pair.size() != 2 || !pair[0].is_string() || !pair[1].is_string()) return malformed();
    out.titles.emplace_back(pair[0].get<std::string>(), pair[1].get<std::string>());
  }
  auto page = pdf::PageText::from_json(member(j, "page"));
  if (!page) return malformed();
  out.page = std::move(*page);
  return out;
}

json FileCheck::to_json() const {
  json out = report.to_json();
  out["schema_version"] = json_schema_version;
  if (carried) out["details"]["carried"] = carried->to_json();
  return out;
}

// --- The wire form pith-serve's broker sends its HTTP side -----------------

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

}  // namespace pith::check
