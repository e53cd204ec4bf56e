// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/registry/state_merge.hpp"

#include "pith/base/check_codes.hpp"
#include "pith/signed_json/canonical.hpp"
#include "pith/base/crypto.hpp"
#include "pith/registry/documents.hpp"
#include "pith/registry/number.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>

namespace pith::registry {

using nlohmann::json;

namespace {

json projection(const json& event) {
  auto member = [&](const char* k) { return event.contains(k) ? event[k] : json(nullptr); };
  return json{{"event_id", member("event_id")},
              {"target", member("target")},
              {"created_at", member("created_at")},
              {"signer", member("signer")},
              {"payload", member("payload")}};
}

json empty_current() {
  json current = json::object();
  current["canonical_record"] = nullptr;
  current["record_created"] = nullptr;
  current["source_aliases"] = json::array();
  for (const char* list : {"graph_snapshots", "author_attestations", "timestamp_anchors", "storage_attestations",
                           "citation_signatures", "replication_records", "corrections", "mirror_hints"}) {
    current[list] = json::array();
  }
  return current;
}

bool reserved_list(const std::string& name) {
  return name == "canonical_records" || name == "record_createds" || name == "source_aliases";
}

}  // namespace

std::string state_hash(const json& state) { return sha256_hex(signed_json::canon_without(state, {"state_sha256"})); }

json derive_source_aliases(const json& record, std::string_view body, std::string_view created_at) {
  std::vector<std::pair<std::string, std::string>> aliases;
  const auto [kind, id, version] = read_record_source(record);
  if (kind == "arxiv" && !id.empty()) {
    aliases.emplace_back("arxiv", id);
    if (version) aliases.emplace_back("arxiv_version", id + "v" + std::to_string(*version));
    aliases.emplace_back("doi", "10.48550/arxiv." + id);
  } else if (!kind.empty() && !id.empty()) {
    aliases.emplace_back(kind, id);
  }
  if (body.size() >= 16) {
    for (std::size_t n : {8u, 12u, 16u}) {
      aliases.emplace_back("pith_short_" + std::to_string(n), std::string(body.substr(0, n)));
    }
  }
  std::stable_sort(aliases.begin(), aliases.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  json out = json::array();
  for (auto& [k, v] : aliases) {
    out.push_back({{"alias_kind", k}, {"alias_value", v}, {"created_at", std::string(created_at)}});
  }
  return out;
}

MergeResult recompute_state(const json& events, std::string_view pith_number, const TrustStore& trust) {
  MergeResult result;
  const json no_events = json::array();
  const json& list = events.is_array() ? events : no_events;
  for (std::size_t i = 0; i < list.size(); ++i) {
    result.events.push_back(verify_event(list[i], i, pith_number, trust));
  }

  // (created_at, event_id) order; input order breaks remaining ties.
  std::vector<std::size_t> order(list.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const auto& ea = result.events[a];
    const auto& eb = result.events[b];
    return std::tie(ea.created_at, ea.event_id) < std::tie(eb.created_at, eb.event_id);
  });

  json invalid_events = json::array();
  json equivocations = json::array();
  json applied_ids = json::array();
  std::vector<std::size_t> applied;
  std::set<std::string> applied_set;
  std::set<std::string> seen_ids;
  std::map<std::string, std::string> prev_claimed_by;  // prev_event -> first claimant
  std::map<std::string, std::string> type_of;          // applied event id -> type
  std::string record_created_id;
  std::size_t equivocation_count = 0;

  for (std::size_t idx : order) {
    const json& e = list[idx];
    EventVerdict& v = result.events[idx];
    auto reject = [&](std::string reason) {
      if (v.valid) {
        v.valid = false;
        v.reason = reason;
        v.checks.push_back(Check{check_code::event_reference_invalid, CheckStatus::fail,
                                 event_label(e, idx) + ": " + reason, false});
      }
      invalid_events.push_back({{"event_id", v.event_id.empty() ? json(nullptr) : json(v.event_id)},
                                {"reason", v.reason}});
    };
    if (!v.valid) {
      reject(v.reason);
      continue;
    }
    if (seen_ids.count(v.event_id)) {
      reject("duplicate event");
      continue;
    }
    seen_ids.insert(v.event_id);

    const std::optional<std::string>& prev = v.prev_event;
    if (prev && !applied_set.count(*prev)) {
      reject("prev_event names no earlier applied event");
      continue;
    }
    bool refs_ok = true;
    for (const std::string& sid : v.supersedes) {
      if (!applied_set.count(sid)) {
        reject("supersedes an event that is not an earlier applied event");
        refs_ok = false;
        break;
      }
      if (type_of[sid] == "record_created") {
        reject("record_created cannot be superseded");
        refs_ok = false;
        break;
      }
    }
    if (!refs_ok) continue;
    if (v.event_type != "record_created" && reserved_list(v.event_type + "s")) {
      reject("event type collides with a state field");
      continue;
    }

    // Equivocation: the registry signed two conflicting successors.
    std::string conflicts_with;
    std::string why;
    if (v.event_type == "record_created" && !record_created_id.empty()) {
      conflicts_with = record_created_id;
      why = "a second record_created event";
    } else if (prev) {
      auto it = prev_claimed_by.find(*prev);
      if (it != prev_claimed_by.end()) {
        conflicts_with = it->second;
        why = "claims the same prev_event as an earlier event";
      }
    }
    if (!conflicts_with.empty()) {
      ++equivocation_count;
      equivocations.push_back({{"event_id", v.event_id}, {"conflicts_with", conflicts_with}, {"reason", why}});
      v.checks.push_back(Check{check_code::event_equivocation, CheckStatus::warn,
                               event_label(e, idx) + ": " + why + " (" + conflicts_with + "); not applied", false});
      continue;
    }
    if (prev) prev_claimed_by.emplace(*prev, v.event_id);
    if (v.event_type == "record_created") record_created_id = v.event_id;
    applied.push_back(idx);
    applied_set.insert(v.event_id);
    type_of[v.event_id] = v.event_type;
    applied_ids.push_back(v.event_id);
  }

  std::set<std::string> superseded;
  for (std::size_t idx : applied) {
    const auto& ids = result.events[idx].supersedes;
    superseded.insert(ids.begin(), ids.end());
  }

  json current = empty_current();
  for (std::size_t idx : applied) {
    const EventVerdict& v = result.events[idx];
    if (superseded.count(v.event_id)) continue;
    const json& e = list[idx];
    if (v.event_type == "record_created") {
      current["record_created"] = projection(e);
      current["canonical_record"] = e["payload"]["canonical_record"];
      auto derived = derive_pith_number(e["payload"]["canonical_record"]);
      current["source_aliases"] =
          derive_source_aliases(e["payload"]["canonical_record"], derived ? derived->number.body : std::string(), v.created_at);
    } else {
      current[v.event_type + "s"].push_back(projection(e));
    }
  }

  const std::size_t invalid_count = invalid_events.size();
  json state = json::object();
  state["state_type"] = "pith_open_graph_state";
  state["state_version"] = "1.0";
  state["pith_number"] = std::string(pith_number);
  state["merge_version"] = merge_version_v1;
  state["event_count"] = list.size();
  state["valid_event_count"] = list.size() - invalid_count;
  state["invalid_event_count"] = invalid_count;
  state["equivocation_count"] = equivocation_count;
  state["current"] = std::move(current);
  state["equivocations"] = std::move(equivocations);
  state["invalid_events"] = std::move(invalid_events);
  state["applied_event_ids"] = std::move(applied_ids);
  state["state_sha256"] = state_hash(state);
  result.state = std::move(state);
  return result;
}

}  // namespace pith::registry
