#pragma once
// The online part of pith-check: what the registry says now about a record a
// file carries. The file's own verification is offline and complete; this
// adds news — events newer than the carried copy, corrections, superseded or
// equivocating events, a record the registry no longer serves — and the
// record-completeness panel. Online findings are warnings, never failures:
// they do not make a verified file unverified, but a reader must see them.
//
// Checks added (docs/report-codes.md):
//   online.record.current      pass  the registry's current copy, verified (origin)
//   online.record.not_served   warn  every base answered 404 (withdrawn or moved)
//   online.unavailable         skip  the registry could not be asked (offline, network)
//   online.rejected            warn  something served a forged/tampered/other record
//   online.events.newer        pass/warn  events the carried copy lacks (types, dates)
//   online.corrections         warn  the record has corrections
//   online.events.superseded   warn  events superseded by later ones
//   online.equivocation        warn  the registry lists equivocating events
// Report::extra: "carried_record" (carried_record_summary) and "online"
// ({origin, source, newer_events, superseded_events, equivocation_count,
// not_served, completeness}).
#include "pith/error.hpp"
#include "pith/report.hpp"
#include "pith/resolver.hpp"
#include "pith/verified_record.hpp"

#include <nlohmann/json.hpp>
#include <string>

namespace pith {

// What a verified document carries, for comparing with the registry later
// (in another process: it travels in Report::extra): {kind, event_ids
// (applied), state_sha256, completeness}.
[[nodiscard]] nlohmann::json carried_record_summary(const VerifiedRecord& record);

// Adds the online.* checks to `report` (which has extra.carried_record when
// the file carried a record) from the registry's answer for its number.
void add_online_checks(Report& report, const Result<Resolution>& current);

// The completeness panel as text lines ("  record completeness (registry
// now):" then one line per list, present with a count or absent): the
// registry's when it was asked, else the carried copy's; empty when neither.
[[nodiscard]] std::string completeness_panel_text(const Report& report);

}  // namespace pith
