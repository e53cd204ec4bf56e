#pragma once
// pith-check online (the default): what the registry serves now for the
// number a PDF carries, compared with the copy inside the PDF. Newer events
// since the copy, corrections, equivocations, events of the copy no longer
// applied (superseded or withdrawn), a record no longer served, and the
// record-completeness panel of the current bundle.
//
// check_pdf_metadata records what the PDF carried in report.extra["carried"]
// (see carried_summary); the front end resolves report.pith_number (e.g.
// Resolver::resolve_many over every PDF's number) and calls add_online_checks.
#include "pith/report.hpp"
#include "pith/resolver.hpp"
#include "pith/verified_record.hpp"

#include <nlohmann/json.hpp>

namespace pith {

// What a verified document carried, for report.extra["carried"]:
// {"kind", "event_ids": [...], "built_at"} (event ids: a bundle's events, a
// state's applied_event_ids; empty for a bare record).
[[nodiscard]] nlohmann::json carried_summary(const VerifiedRecord& record);

// Adds online.* checks to `pdf_report`:
//   online.rejected (fail)        the registry served something forged or another paper's record
//   online.unavailable (warn)     the registry could not be reached or no longer serves the record
//   online.verified (pass)        the current document verified; detail: origin and source
//   online.events.newer (pass)    events served now that the PDF's copy lacks (their types)
//   online.events.dropped (warn)  events of the PDF's copy the registry no longer applies
//   online.corrections (warn)     the record has corrections
//   online.equivocation (warn)    the registry's log holds equivocating events
// and details.online {origin, source, event_count} and details.completeness
// (the current panel).
void add_online_checks(Report& pdf_report, const Result<Resolution>& current);

}  // namespace pith
