// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Recomputes a record's merged state from its events
// (`pith-open-graph-merge-v1`), so a mirror can rebuild the state without
// trusting the server's copy. Reproduces the registry's state_sha256 for the
// fixture bundle exactly. Rules (spec §4; the inferred ones are marked):
//  - every event is checked alone (event_check.hpp); a failing event is
//    listed in `invalid_events` {event_id, reason} and not applied;
//  - events are taken in (created_at, event_id) order;
//  - (inferred) `prev_event` and every `supersedes` entry must name an event
//    already applied earlier in that order; otherwise the event is invalid; a
//    repeated event_id is invalid ("duplicate event"); record_created cannot
//    be superseded;
//  - (inferred) equivocation: a second record_created, or a second event
//    claiming the same non-null prev_event, is listed in `equivocations`
//    {event_id, conflicts_with, reason}, counted, and not applied; the
//    earlier one stays applied. Equivocating events are valid (correctly
//    signed), so they count in valid_event_count;
//  - `applied_event_ids`: applied events in order;
//  - (inferred) a superseded event stays in applied_event_ids but leaves
//    `current`;
//  - `current`: canonical_record and the projection {event_id, target,
//    created_at, signer, payload} of record_created; every other event type T
//    goes to the list current[T + "s"] (graph_snapshot → graph_snapshots,
//    correction → corrections); the lists author_attestations,
//    timestamp_anchors, storage_attestations, citation_signatures,
//    replication_records, corrections, mirror_hints and graph_snapshots are
//    always present;
//  - `source_aliases` from the record's source (see derive_source_aliases).
#include "pith/registry/event.hpp"
#include "pith/registry/trust_store.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace pith::registry {

inline constexpr const char* merge_version_v1 = "pith-open-graph-merge-v1";

struct MergeResult {
  nlohmann::json state;               // complete, with state_sha256
  std::vector<EventVerdict> events;   // per input event, in input order
};

// `events` is the bundle's events array; `pith_number` the full number the
// events must be about.
[[nodiscard]] MergeResult recompute_state(const nlohmann::json& events, std::string_view pith_number,
                                          const TrustStore& trust);

// source_aliases of a record (spec §4, checked on both fixture records): for
// an arXiv source `arxiv` (id), `arxiv_version` (id + "v" + version), `doi`
// (10.48550/arxiv.<id>); for any record `pith_short_8/12/16`; (inferred) for
// another source kind, one alias {kind, id}. Sorted by alias_kind, each with
// created_at = the record_created event's created_at.
[[nodiscard]] nlohmann::json derive_source_aliases(const nlohmann::json& canonical_record, std::string_view body,
                                                   std::string_view created_at);

// sha256(canon(state minus state_sha256)).
[[nodiscard]] std::string state_hash(const nlohmann::json& state);

}  // namespace pith::registry
