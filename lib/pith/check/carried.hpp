// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the offline check of a file hands to the online check: the copy of
// the registry document the file carried (the bundle, state or record inside
// a PDF, or a registry file itself), so the online check can say what the
// registry changed since. It travels beside the Report, typed, through the
// corpus runner (runner/corpus.hpp) and pith-serve's broker (file_check_to_wire);
// pith-check --json prints it as details.carried.
#include "pith/base/error.hpp"
#include "pith/base/report.hpp"
#include "pith/pdf/page_text.hpp"
#include "pith/registry/verify.hpp"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace pith::check {

struct CarriedCopy {
  registry::DocumentKind kind = registry::DocumentKind::record;
  std::vector<std::string> event_ids;  // applied, in order; empty for a bare record
  std::optional<std::string> built_at;  // the document's built_at, when it has one
  // The copy's record-completeness panel (registry/verify.hpp: an object of
  // counts, as report.extra["completeness"]), when the document has one.
  std::optional<nlohmann::json> completeness;

  // What a verified document carries.
  [[nodiscard]] static CarriedCopy of(const registry::DocumentContent& record, const Report& report);
  // {"kind", "event_ids", "built_at"?, "completeness"?}: details.carried,
  // and what pith-serve's broker sends its HTTP side (file_check_to_wire).
  [[nodiscard]] nlohmann::json to_json() const;
  [[nodiscard]] static Result<CarriedCopy> from_json(const nlohmann::json& json);

  friend bool operator==(const CarriedCopy&, const CarriedCopy&) = default;
};

// The ids of the events a document applies (registry/verify.hpp).
using registry::applied_event_ids;

// What a PDF that names a number but carries no record shows a reader, read
// in the child process, so the parent can bind the record it resolves for
// that number to this PDF (check/pdf.hpp: bind_resolved_record).
struct PdfEvidence {
  std::string number;  // the number as the PDF names it (pith:YYYY:<26> or pith:<26>)
  std::vector<std::pair<std::string, std::string>> titles;  // (where, title): XMP dc:title, Info /Title
  pdf::PageText page;  // page 1's lines and links

  [[nodiscard]] nlohmann::json to_json() const;  // {"number", "titles": [[where, title]…], "page"}
  [[nodiscard]] static Result<PdfEvidence> from_json(const nlohmann::json& json);
  friend bool operator==(const PdfEvidence&, const PdfEvidence&) = default;
};

// The version of pith-check's --json object (docs/pith-check-json.md): 2
// added verdict `unbound`, details.bindings and this key.
inline constexpr int json_schema_version = 2;

// One checked file: the report and, when the file carried a verified record,
// that copy. A bare Report converts (a check that carried nothing).
struct FileCheck {
  FileCheck() = default;
  FileCheck(Report checked, std::optional<CarriedCopy> copy = std::nullopt)  // NOLINT(google-explicit-constructor)
      : report(std::move(checked)), carried(std::move(copy)) {}

  Report report;
  std::optional<CarriedCopy> carried;
  // A PDF with a number and no record: what to bind the resolved record to.
  std::optional<PdfEvidence> evidence;

  // report.to_json() with details.carried (docs/pith-check-json.md).
  [[nodiscard]] nlohmann::json to_json() const;
};

// The lossless form of a FileCheck that pith-serve's broker sends its HTTP
// side (Report::to_json is for people and drops what the verdict is computed
// from): the report, the carried copy and the PDF evidence. Decoding checks
// every field's form.
[[nodiscard]] nlohmann::json report_to_wire(const Report& report);
[[nodiscard]] Result<Report> report_from_wire(const nlohmann::json& wire);
[[nodiscard]] nlohmann::json file_check_to_wire(const FileCheck& checked);
[[nodiscard]] Result<FileCheck> file_check_from_wire(const nlohmann::json& wire);

}  // namespace pith::check
