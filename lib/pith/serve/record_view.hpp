// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// GET /api/v1/pith/{id} and the badge: a number resolved (registry, mirrors,
// cache), verified, and summed up for people: the lookup report pith-check
// prints for a number (resolver/lookup.hpp), the record (arXiv source and link,
// dates), the events as a timeline, the completeness panel and one status
// word (verified / corrected / unknown).
#include "pith/base/error.hpp"
#include "pith/resolver/resolver.hpp"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace pith::serve {

enum class RecordStatus { verified, corrected, unknown };
[[nodiscard]] const char* to_string(RecordStatus status);

struct RecordView {
  RecordStatus status = RecordStatus::unknown;
  std::optional<registry::PithNumber> pith_number;  // full form; none when nothing was resolved
  std::string short_number;  // the record's short_pith_number as the registry writes it, for the badge
  // {"check": lookup report (pith-check --json), "status", "record": {...},
  //  "events": [{type, created_at, event_id}], "completeness": {...}}
  nlohmann::json json;
};

// What `input` resolves to; a failed lookup is status unknown with the
// lookup report saying why.
[[nodiscard]] RecordView view_record(const std::string& input, Result<resolver::Resolution> resolved);

}  // namespace pith::serve
