#include "pith/check/carried.hpp"

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

json FileCheck::to_json() const {
  json out = report.to_json();
  if (carried) out["details"]["carried"] = carried->to_json();
  return out;
}

}  // namespace pith::check
