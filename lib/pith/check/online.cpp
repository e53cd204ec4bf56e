// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/check/online.hpp"

#include "pith/base/check_codes.hpp"
#include "pith/check/pdf.hpp"
#include "pith/registry/identifier.hpp"
#include "pith/registry/signature.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace pith::check {
namespace {

using nlohmann::json;
using registry::member;

std::map<std::string, std::string> event_types(const registry::VerifiedRecord& r) {
  std::map<std::string, std::string> types;
  const json& events = member(r.document, "events");
  if (!events.is_array()) return types;
  for (const auto& e : events) {
    if (member(e, "event_id").is_string() && member(e, "event_type").is_string()) {
      types[member(e, "event_id").get<std::string>()] = member(e, "event_type").get<std::string>();
    }
  }
  return types;
}

std::string plural(std::size_t n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

// Events that later applied events supersede (only a bundle lists the
// events): named, and marked when the PDF's copy carries the superseded one.
// A superseded event stays applied (spec §4), so it is not "dropped".
void report_superseded(Report& report, const registry::VerifiedRecord& now, const std::set<std::string>& carried) {
  const json& events = member(now.document, "events");
  if (!events.is_array()) return;
  const auto types = event_types(now);
  const auto describe = [&](const std::string& id) {
    const auto t = types.find(id);
    return (t == types.end() ? std::string("event") : t->second) + " " + id.substr(0, 19);
  };
  const auto applied_list = applied_event_ids(now);
  const std::set<std::string> applied(applied_list.begin(), applied_list.end());
  std::string list;
  json ids = json::array();
  for (const auto& e : events) {
    const json& supersedes = member(e, "supersedes");
    if (!supersedes.is_array() || !member(e, "event_id").is_string()) continue;
    if (!applied.count(member(e, "event_id").get<std::string>())) continue;  // an invalid event supersedes nothing
    for (const auto& old : supersedes) {
      if (!old.is_string()) continue;
      const std::string id = old.get<std::string>();
      list += (list.empty() ? "" : "; ") + describe(id) + " by " + describe(member(e, "event_id").get<std::string>()) +
              (carried.count(id) ? " (in the PDF's copy)" : "");
      ids.push_back(id);
    }
  }
  if (ids.empty()) return;
  report.extra["online"]["superseded_events"] = ids;
  report.warn(check_code::online_events_superseded, plural(ids.size(), "event") + " superseded: " + list);
}

}  // namespace

namespace {

// The PDF is another arXiv version than the record registers (pdf.arxiv.
// other_version): what the registry knows of versions. Its format (spec
// §4) names versions only in source_aliases (kind arxiv_version, the
// registered one); nothing in it tells of later versions.
void add_arxiv_versions(Report& report, const registry::VerifiedRecord& now) {
  const auto source = registry::record_arxiv_source(now.canonical_record);
  if (!source) return;
  const nlohmann::json* aliases = nullptr;
  if (now.document.is_object()) {
    if (const auto it = now.document.find("source_aliases"); it != now.document.end()) aliases = &*it;
    if (const auto cur = now.document.find("current"); !aliases && cur != now.document.end() && cur->is_object()) {
      if (const auto it = cur->find("source_aliases"); it != cur->end()) aliases = &*it;
    }
  }
  std::vector<std::string> versions;
  if (aliases && aliases->is_array()) {
    for (const auto& a : *aliases) {
      if (!a.is_object() || a.value("alias_kind", "") != "arxiv_version") continue;
      const auto value = a.find("alias_value");
      if (value != a.end() && value->is_string()) versions.push_back("arXiv:" + value->get<std::string>());
    }
  }
  std::string listed;
  for (const auto& v : versions) listed += (listed.empty() ? "" : ", ") + v;
  report.skip(check_code::online_arxiv_versions,
              "the registry's record registers arXiv:" + source->to_string() +
                  (listed.empty() ? "" : "; its aliases name " + listed) +
                  "; the registry's format records no later versions, so what a later version changed is covered by "
                  "no signature: see https://arxiv.org/abs/" + source->id + " for the versions arXiv lists");
}

}  // namespace

void add_online_checks(FileCheck& checked, const Result<resolver::Resolution>& current) {
  Report& pdf_report = checked.report;
  if (!current) {
    const Error& error = current.error();
    switch (error.kind) {
      case ErrorKind::rejected:
      case ErrorKind::unverifiable:
        // Something was served for this number, and refused: what the
        // registry answers now cannot be trusted.
        pdf_report.fail(check_code::online_rejected, error.message);
        return;
      case ErrorKind::not_served:
        pdf_report.warn(check_code::online_record_not_served, "the registry no longer serves this record (HTTP 404): " + error.message);
        pdf_report.extra["online"] = {{"not_served", true}};
        return;
      case ErrorKind::usage:
      case ErrorKind::malformed:
      case ErrorKind::io:
      case ErrorKind::network:
      case ErrorKind::not_found:
      case ErrorKind::conflict:
      case ErrorKind::limit:
      case ErrorKind::crashed:
      case ErrorKind::internal: break;
    }
    pdf_report.warn(check_code::online_unavailable, "the registry's current record could not be fetched: " + error.message);
    return;
  }
  const resolver::Resolution& r = *current;
  const registry::VerifiedRecord& now = r.record;
  if (now.report.has_failure()) {
    // The resolver verifies before use; a failing document here is a bug or
    // a rejected answer that slipped through: never report it as current.
    pdf_report.fail(check_code::online_rejected, "the document served for " + now.number().to_string() + " does not verify");
    return;
  }
  if (!pdf_report.pith_number.empty() && now.number().to_string() != pdf_report.pith_number) {
    pdf_report.fail(check_code::online_rejected, "the registry answered with " + now.number().to_string() + ", not " +
                                           pdf_report.pith_number);
    return;
  }
  const auto ids_now = applied_event_ids(now);
  pdf_report.extra["online"] = {{"origin", to_string(r.origin)}, {"source", r.source}, {"event_count", ids_now.size()}};
  std::string attempts;
  for (const auto& f : r.failures) attempts += (attempts.empty() ? "" : "; ") + f;
  if (!r.failures.empty()) pdf_report.extra["online"]["failed_attempts"] = r.failures;
  // A copy cached earlier, used because every base now answers 404: the
  // record is no longer served (the comparison below is with that copy).
  if (r.origin == resolver::ResolutionOrigin::stale_cache && r.not_served) {
    // (No attempts listed in a public answer: the resolver logged them for the operator.)
    pdf_report.warn(check_code::online_record_not_served, "the registry no longer serves this record (HTTP 404)" +
                                                    (attempts.empty() ? std::string() : ": " + attempts) +
                                                    "; compared with the copy cached earlier");
    pdf_report.extra["online"]["not_served"] = true;
  }
  if (const auto it = now.report.extra.find("completeness"); it != now.report.extra.end()) {
    pdf_report.extra["completeness"] = *it;
  }
  // An older copy served in place of the one already verified: the PDF's
  // report must say so, not only the lookup's.
  if (const Check* rollback = r.report.find(check_code::online_rollback)) pdf_report.warn(rollback->code, rollback->detail);
  pdf_report.pass(check_code::online_verified, std::string("the registry's current ") + to_string(now.kind) + " verifies (" +
                                         to_string(r.origin) + ": " + r.source + ")");
  if (pdf_report.find(check_code::pdf_arxiv_other_version)) add_arxiv_versions(pdf_report, now);

  // Compare with what the PDF carried (when it carried a bundle or a state).
  std::set<std::string> then;
  if (checked.carried) then.insert(checked.carried->event_ids.begin(), checked.carried->event_ids.end());
  if (!then.empty()) {
    const std::set<std::string> now_set(ids_now.begin(), ids_now.end());
    const auto types = event_types(now);
    std::map<std::string, std::size_t> newer_by_type;
    std::size_t newer = 0;
    for (const auto& id : ids_now) {
      if (then.count(id)) continue;
      ++newer;
      const auto t = types.find(id);
      ++newer_by_type[t == types.end() ? "event" : t->second];
    }
    if (newer == 0) {
      pdf_report.pass(check_code::online_events_newer, "no events since the PDF's copy");
    } else {
      std::string kinds;
      for (const auto& [type, n] : newer_by_type) kinds += (kinds.empty() ? "" : ", ") + std::to_string(n) + " " + type;
      pdf_report.pass(check_code::online_events_newer, plural(newer, "event") + " since the PDF's copy: " + kinds);
    }
    const auto dropped = static_cast<std::size_t>(
        std::count_if(then.begin(), then.end(), [&](const std::string& id) { return !now_set.count(id); }));
    if (dropped > 0) {
      pdf_report.warn(check_code::online_events_dropped,
                      plural(dropped, "event") + " of the PDF's copy the registry no longer applies (superseded or "
                                                 "withdrawn)");
    }
  }

  report_superseded(pdf_report, now, then);

  const json& state = registry::merged_state(now);
  const json& corrections = member(member(state, "current"), "corrections");
  if (corrections.is_array() && !corrections.empty()) {
    pdf_report.warn(check_code::online_corrections, "the record has " + plural(corrections.size(), "correction"));
  }
  const json& equivocations = member(state, "equivocation_count");
  if (equivocations.is_number_integer() && equivocations.get<long long>() > 0) {
    pdf_report.warn(check_code::online_equivocation, "the registry's log holds " +
                                               plural(static_cast<std::size_t>(equivocations.get<long long>()),
                                                      "equivocating event"));
  }
}

std::string completeness_panel_text(const FileCheck& checked) {
  // The registry's panel when it was asked, else the carried copy's (a
  // registry file's own panel is its carried copy's too).
  const Report& report = checked.report;
  const bool online = report.extra.contains("online") && member(report.extra, "completeness").is_object();
  const bool carried = checked.carried && checked.carried->completeness;
  const json& c = online    ? member(report.extra, "completeness")
                  : carried ? *checked.carried->completeness
                            : member(report.extra, "completeness");
  if (!c.is_object()) return {};
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
  std::string out = std::string("  record completeness (") + (online ? "registry now" : "carried copy") + "):\n";
  for (const auto& row : rows) {
    std::string label = row.label;
    label.resize(22, ' ');
    out += "    " + label + (row.n == 0 ? std::string("absent") : "present (" + std::to_string(row.n) + ")") + "\n";
  }
  return out;
}

const std::string& number_to_look_up(const FileCheck& checked) {
  return checked.evidence ? checked.evidence->number : checked.report.pith_number;
}

void apply_lookup(FileCheck& checked, const Result<resolver::Resolution>& answer) {
  if (!checked.evidence) return add_online_checks(checked, answer);
  // A PDF that carries only a number: the resolved record bound to it, then
  // compared as any carried copy is; nothing resolved: why (online.*) first,
  // then how to retry (pdf.record.resolved).
  if (!answer) add_online_checks(checked, answer);
  bind_resolved_record(checked, answer);
  if (answer) add_online_checks(checked, answer);
}

}  // namespace pith::check
