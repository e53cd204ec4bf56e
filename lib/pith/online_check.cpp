#include "pith/online_check.hpp"

#include <algorithm>
#include <set>
#include <string_view>
#include <vector>

namespace pith {

namespace {

using nlohmann::json;

const json& member(const json& j, std::string_view key) {
  static const json null_value;
  if (!j.is_object()) return null_value;
  const auto it = j.find(key);
  return it == j.end() ? null_value : *it;
}

std::string string_member(const json& j, std::string_view key) {
  const json& v = member(j, key);
  return v.is_string() ? v.get<std::string>() : std::string();
}

// The merged state of a bundle or state document (null for a bare record).
const json& state_of(const VerifiedRecord& record) {
  switch (record.kind) {
    case DocumentKind::bundle: return member(record.document, "state");
    case DocumentKind::state: return record.document;
    default: break;
  }
  static const json null_value;
  return null_value;
}

std::vector<std::string> string_list(const json& list) {
  std::vector<std::string> out;
  if (!list.is_array()) return out;
  for (const auto& v : list) {
    if (v.is_string()) out.push_back(v.get<std::string>());
  }
  return out;
}

// "correction of 2026-06-01T…" for an event of a bundle; the id alone otherwise.
std::string describe_event(const json& events, const std::string& id) {
  if (events.is_array()) {
    for (const auto& e : events) {
      if (string_member(e, "event_id") != id) continue;
      std::string text = string_member(e, "event_type");
      if (text.empty()) text = "event";
      if (const std::string at = string_member(e, "created_at"); !at.empty()) text += " of " + at;
      return text + " (" + id.substr(0, 16) + ")";
    }
  }
  return "event " + id.substr(0, 16);
}

std::string join(const std::vector<std::string>& parts, std::size_t at_most = 5) {
  std::string out;
  for (std::size_t i = 0; i < parts.size() && i < at_most; ++i) out += (i ? ", " : "") + parts[i];
  if (parts.size() > at_most) out += ", and " + std::to_string(parts.size() - at_most) + " more";
  return out;
}

// The registry has stopped serving the record: some base answered 404 on
// every path it was asked, and no base answered anything else (a base that
// could not be reached at all says nothing either way; a 5xx is trouble, not
// an answer).
bool not_served(std::string_view failures) {
  std::size_t not_found = 0;
  std::size_t other_status = 0;
  for (std::size_t pos = 0; pos < failures.size();) {
    std::size_t end = failures.find("; ", pos);
    if (end == std::string_view::npos) end = failures.size();
    const std::string_view attempt = failures.substr(pos, end - pos);
    if (attempt.ends_with(": HTTP 404")) {
      ++not_found;
    } else if (attempt.find(": HTTP ") != std::string_view::npos) {
      ++other_status;
    }
    pos = end + 2;
  }
  return not_found > 0 && other_status == 0;
}

std::string plural(std::size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

void compare_events(Report& report, const VerifiedRecord& now, const json& carried, json& online) {
  const json& state = state_of(now);
  const json& events = member(now.document, "events");
  const std::vector<std::string> current_ids = string_list(member(state, "applied_event_ids"));
  const std::vector<std::string> carried_list = string_list(member(carried, "event_ids"));
  const std::set<std::string> carried_ids(carried_list.begin(), carried_list.end());

  if (carried.is_object() && member(carried, "event_ids").is_array()) {
    std::vector<std::string> newer;
    json newer_ids = json::array();
    for (const auto& id : current_ids) {
      if (carried_ids.contains(id)) continue;
      newer.push_back(describe_event(events, id));
      newer_ids.push_back(id);
    }
    online["newer_events"] = newer_ids;
    if (newer.empty()) {
      report.pass("online.events.newer", "the carried copy has every event the registry has (" +
                                             plural(current_ids.size(), "event", "events") + ")");
    } else {
      report.warn("online.events.newer", "the registry has " + plural(newer.size(), "event", "events") +
                                             " newer than the carried copy: " + join(newer));
    }
  } else {
    report.skip("online.events.newer", "the file carries no bundle or state to compare events with");
  }

  const json& current = member(state, "current");
  if (const json& corrections = member(current, "corrections"); corrections.is_array() && !corrections.empty()) {
    std::vector<std::string> items;
    for (const auto& c : corrections) {
      std::string at = string_member(c, "created_at");
      items.push_back(at.empty() ? std::string("correction") : "correction of " + at);
    }
    report.warn("online.corrections", "the record has " + plural(corrections.size(), "correction", "corrections") +
                                          ": " + join(items));
  }

  // Events that later events supersede (only a bundle lists the events).
  std::vector<std::string> superseded;
  json superseded_ids = json::array();
  const std::set<std::string> applied(current_ids.begin(), current_ids.end());
  if (events.is_array()) {
    for (const auto& e : events) {
      if (!applied.contains(string_member(e, "event_id"))) continue;
      for (const auto& old : string_list(member(e, "supersedes"))) {
        std::string text = describe_event(events, old) + " by " + describe_event(events, string_member(e, "event_id"));
        if (carried_ids.contains(old)) text += " (in the carried copy)";
        superseded.push_back(std::move(text));
        superseded_ids.push_back(old);
      }
    }
  }
  if (!superseded.empty()) {
    online["superseded_events"] = superseded_ids;
    report.warn("online.events.superseded", plural(superseded.size(), "event is", "events are") +
                                                " superseded: " + join(superseded));
  }

  const json& equivocations = member(state, "equivocations");
  const json& count = member(state, "equivocation_count");
  const std::size_t n = count.is_number_unsigned() ? count.get<std::size_t>()
                        : equivocations.is_array() ? equivocations.size()
                                                   : 0;
  if (n > 0) {
    online["equivocation_count"] = n;
    report.warn("online.equivocation", "the registry lists " + plural(n, "equivocation", "equivocations") +
                                           " (events claiming the same predecessor, or two record_created events)");
  }
}

}  // namespace

json carried_record_summary(const VerifiedRecord& record) {
  const json& state = state_of(record);
  json out = {{"kind", to_string(record.kind)}};
  if (state.is_object()) {
    out["event_ids"] = string_list(member(state, "applied_event_ids"));
    if (auto hash = string_member(state, "state_sha256"); !hash.empty()) out["state_sha256"] = hash;
  }
  if (const json& c = member(record.report.extra, "completeness"); c.is_object()) out["completeness"] = c;
  return out;
}

void add_online_checks(Report& report, const Result<Resolution>& current) {
  json online = json::object();
  if (!current) {
    const std::string& why = current.error().message;
    if (is_rejection(current.error())) {
      report.warn("online.rejected", "the registry's answer was refused: " + why);
    } else if (not_served(why)) {
      report.warn("online.record.not_served", "the registry no longer serves this record (HTTP 404): " + why);
      online["not_served"] = true;
    } else {
      report.skip("online.unavailable", "could not ask the registry: " + why);
    }
    report.extra["online"] = std::move(online);
    return;
  }
  const Resolution& r = *current;
  online["origin"] = to_string(r.origin);
  online["source"] = r.source;
  // A stale cache entry used because every base answered 404 is a record
  // that is no longer served, even though a verified copy exists locally.
  std::string failures;
  for (const auto& f : r.failures) failures += (failures.empty() ? "" : "; ") + f;
  if (!r.failures.empty()) online["failed_attempts"] = r.failures;
  if (r.origin == ResolutionOrigin::stale_cache && not_served(failures)) {
    report.warn("online.record.not_served", "the registry no longer serves this record (HTTP 404): " + failures +
                                                "; compared with the copy cached earlier");
    online["not_served"] = true;
  } else {
    report.pass("online.record.current", std::string("the registry's current ") + to_string(r.record.kind) + " (" +
                                             to_string(r.origin) + ": " + r.source + "), verified");
  }
  for (const auto& c : r.report.checks()) {
    if (c.status == CheckStatus::warn) report.add(c.code, c.status, c.detail);  // e.g. resolver.cache.stale
  }
  compare_events(report, r.record, member(report.extra, "carried_record"), online);
  if (const json& c = member(r.record.report.extra, "completeness"); c.is_object()) online["completeness"] = c;
  report.extra["online"] = std::move(online);
}

std::string completeness_panel_text(const Report& report) {
  // The registry's panel when it was asked, else the carried copy's, else
  // the file's own (a bundle or state given to pith-check).
  const json& online = member(member(report.extra, "online"), "completeness");
  const json& carried = member(member(report.extra, "carried_record"), "completeness");
  const json& c = online.is_object() ? online : carried.is_object() ? carried : member(report.extra, "completeness");
  if (!c.is_object()) return {};
  const char* source = online.is_object() ? "registry now" : "carried copy";
  const auto count = [&](const char* key) {
    const json& v = member(c, key);
    return v.is_number_unsigned() ? v.get<std::size_t>() : std::size_t{0};
  };
  struct Row {
    const char* label;
    std::size_t n;
  };
  const Row rows[] = {
      {"timestamp anchors", count("timestamp_anchors") + count("timestamp_proofs")},
      {"storage attestations", count("storage_attestations")},
      {"author claims", count("author_attestations")},
      {"citations", count("citation_signatures")},
      {"replications", count("replication_records")},
      {"corrections", count("corrections")},
  };
  std::string out = std::string("  record completeness (") + source + "):\n";
  for (const auto& row : rows) {
    std::string label = row.label;
    label.resize(22, ' ');
    out += "    " + label + (row.n == 0 ? std::string("absent") : "present (" + std::to_string(row.n) + ")") + "\n";
  }
  return out;
}

}  // namespace pith
