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

}  // namespace pith::check
