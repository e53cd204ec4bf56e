// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// pith-check online (the default): what the registry serves now for the
// number a PDF carries, compared with the copy inside the PDF. Newer events
// since the copy, corrections, equivocations, events of the copy no longer
// applied (superseded or withdrawn), a record no longer served, and the
// record-completeness panel of the current bundle.
//
// check_pdf_metadata (and check_registry_file) return what the file carried
// beside the report (FileCheck, file.hpp); the front end resolves
// report.pith_number (e.g. Resolver::resolve_many over every PDF's number)
// and calls add_online_checks.
#include "pith/base/report.hpp"
#include "pith/check/file.hpp"
#include "pith/resolver/resolver.hpp"
#include "pith/registry/verify.hpp"

#include <nlohmann/json.hpp>
#include <string>

namespace pith::check {

// Adds online.* checks to `checked.report`, comparing with `checked.carried`
// (registry files given to pith-check carry their own copy: the online check
// is the same for them):
//   online.rejected (fail)        the registry served something forged or another paper's record
//   online.record.not_served (warn) a base answered 404 on every registry path and no base
//                                 answered otherwise (a withdrawn record; also when only a
//                                 copy cached earlier is left)
//   online.unavailable (warn)     the registry could not be reached (network, 5xx, timeout)
//   online.verified (pass)        the current document verified; detail: origin and source
//   online.events.newer (pass)    events served now that the PDF's copy lacks (their types)
//   online.events.dropped (warn)  events of the PDF's copy the registry no longer applies
//   online.events.superseded (warn) events superseded by later ones (named)
//   online.corrections (warn)     the record has corrections
//   online.equivocation (warn)    the registry's log holds equivocating events
// and details.online {origin, source, event_count} and details.completeness
// (the current panel).
void add_online_checks(FileCheck& checked, const Result<resolver::Resolution>& current);

// The number a checked file is looked up by: the number a PDF that carries no
// record names (FileCheck::evidence), else the report's.
[[nodiscard]] const std::string& number_to_look_up(const FileCheck& checked);

// What the registry answered for number_to_look_up(checked): a PDF that
// carries only a number gets the record bound to it (check/pdf.hpp:
// bind_resolved_record), then, as anything else, the online checks above.
// The one step after the lookup, for pith-check's batches and pith-serve's
// requests. (online -> pdf, never back: the PDF verdict does not depend on
// what the registry says now.)
void apply_lookup(FileCheck& checked, const Result<resolver::Resolution>& answer);

// The record-completeness panel as text lines for the human output
// ("  record completeness (registry now):", then timestamp anchors, storage
// attestations, author claims, citations, replications, corrections: each
// "present (N)" or "absent"): the registry's when online, else the carried
// copy's; empty when there is neither.
[[nodiscard]] std::string completeness_panel_text(const FileCheck& checked);

}  // namespace pith::check
