// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/serve/record_view.hpp"

#include "pith/check/file.hpp"
#include "pith/resolver/lookup.hpp"

#include <utility>

namespace pith::serve {

namespace {

std::string text_at(const nlohmann::json& object, const nlohmann::json::json_pointer& at) {
  if (!object.contains(at)) return {};
  const auto& value = object.at(at);
  return value.is_string() ? value.get<std::string>() : std::string{};
}

using ptr = nlohmann::json::json_pointer;

nlohmann::json events_of(const nlohmann::json& document) {
  nlohmann::json events = nlohmann::json::array();
  if (!document.is_object() || !document.contains("events") || !document["events"].is_array()) return events;
  for (const auto& event : document["events"]) {
    if (!event.is_object()) continue;
    events.push_back({{"type", text_at(event, ptr("/event_type"))},
                      {"created_at", text_at(event, ptr("/created_at"))},
                      {"event_id", text_at(event, ptr("/event_id"))}});
  }
  return events;
}

// When the record was registered: its receipt's signing time.
std::string registered_at(const nlohmann::json& document) {
  if (!document.is_object() || !document.contains("events") || !document["events"].is_array()) return {};
  for (const auto& event : document["events"]) {
    if (!event.is_object() || text_at(event, ptr("/event_type")) != "record_created") continue;
    if (auto signed_at = text_at(event, ptr("/payload/receipt/signed_at")); !signed_at.empty()) return signed_at;
    return text_at(event, ptr("/created_at"));
  }
  return {};
}

nlohmann::json record_of(const registry::VerifiedRecord& record) {
  const auto& canonical = record.canonical_record;
  nlohmann::json out = {{"pith_number", record.number().to_string()},
                        {"short_pith_number", text_at(record.document, ptr("/short_pith_number"))},
                        {"source_kind", text_at(canonical, ptr("/source/kind"))},
                        {"source_id", text_at(canonical, ptr("/source/id"))},
                        {"submitted_at", text_at(canonical, ptr("/metadata/submitted_at"))},
                        {"primary_category", text_at(canonical, ptr("/metadata/primary_cat"))},
                        {"license", text_at(canonical, ptr("/metadata/license"))},
                        {"registered_at", registered_at(record.document)}};
  if (out["source_kind"] == "arxiv" && !out["source_id"].get<std::string>().empty()) {
    out["arxiv_url"] = "https://arxiv.org/abs/" + out["source_id"].get<std::string>();
  }
  return out;
}

std::size_t corrections_in(const nlohmann::json& completeness) {
  if (!completeness.is_object() || !completeness.contains("corrections")) return 0;
  const auto& n = completeness["corrections"];
  return n.is_number_unsigned() ? n.get<std::size_t>() : 0;
}

}  // namespace

const char* to_string(RecordStatus status) {
  switch (status) {
    case RecordStatus::verified: return "verified";
    case RecordStatus::corrected: return "corrected";
    case RecordStatus::unknown: return "unknown";
  }
  return "unknown";
}

RecordView view_record(const std::string& input, Result<resolver::Resolution> resolved) {
  RecordView view;
  nlohmann::json record = nullptr;
  nlohmann::json events = nlohmann::json::array();
  if (resolved) {
    record = record_of(resolved->record);
    events = events_of(resolved->record.document);
    view.pith_number = resolved->record.number();
    view.short_number = record["short_pith_number"].get<std::string>();
  }
  const Report report = resolver::lookup_report(input, std::move(resolved));
  nlohmann::json completeness = report.extra.contains("completeness") ? report.extra["completeness"] : nlohmann::json();
  if (report.verdict() == Verdict::verified) {
    view.status = corrections_in(completeness) > 0 ? RecordStatus::corrected : RecordStatus::verified;
  }
  view.json = {{"status", to_string(view.status)},
               {"check", check::FileCheck(report).to_json()},
               {"record", std::move(record)},
               {"events", std::move(events)},
               {"completeness", std::move(completeness)}};
  return view;
}

}  // namespace pith::serve
