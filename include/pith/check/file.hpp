// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What pith-check does with one input file, as a library call so every
// front end (pith-check, pith-serve's broker, pith-stamp's own check) shares
// one dispatch, and what comes out of it: FileCheck, the report and what the
// file carried. The kind of file is detected from its content, never from
// its name.
#include "pith/base/error.hpp"
#include "pith/base/report.hpp"
#include "pith/pdf/page_text.hpp"
#include "pith/registry/verify.hpp"
#include "pith/registry/trust_store.hpp"

#include <cstddef>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pith::pdf {
struct PdfFacts;  // pdf/facts.hpp: what the parsing child read
}

namespace pith::check {

// --- One checked file: its report and what it carried -----------------------

// What the offline check of a file hands to the online check: the copy of
// the registry document the file carried (the bundle, state or record inside
// a PDF, or a registry file itself), so the online check can say what the
// registry changed since. It travels beside the Report, typed, through the
// corpus runner (runner/corpus.hpp) and pith-serve's broker (file_check_to_wire);
// pith-check --json prints it as details.carried.
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
// The glyph check's reading of page 1 lines made while the file's bytes are
// at hand, before the record is resolved: the lines that show the PDF's
// title metadata (the record's title, in a genuine paper).
struct DrawnReading {
  std::size_t first_line = 0;
  std::size_t line_count = 0;
  std::vector<std::string> line;   // per line, read in line mode
  std::vector<std::string> block;  // the same lines read as a block (empty: not read)
  friend bool operator==(const DrawnReading&, const DrawnReading&) = default;
};

struct PdfEvidence {
  std::string number;  // the number as the PDF names it (pith:YYYY:<26> or pith:<26>)
  std::vector<std::pair<std::string, std::string>> titles;  // (where, title): XMP dc:title, Info /Title
  pdf::PageText page;  // page 1's lines and links
  std::optional<DrawnReading> drawn;  // the glyph check's reading, when one was made

  [[nodiscard]] nlohmann::json to_json() const;  // {"number", "titles": [[where, title]…], "page", "drawn"?}
  [[nodiscard]] static Result<PdfEvidence> from_json(const nlohmann::json& json);
  friend bool operator==(const PdfEvidence&, const PdfEvidence&) = default;
};

// The version of pith-check's --json object (docs/pith-check-json.md): 2
// added verdict `unbound`, details.bindings and this key; 3 the verdict
// `altered`, the top-level `warnings` and details.page_text (was
// details.rewritten_text).
inline constexpr int json_schema_version = 3;

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
  // A PDF's title metadata as it claims it (XMP dc:title, else Info /Title):
  // a hint, never verified, for a table's title column (pith-check --csv).
  std::optional<std::string> title;

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

// --- Any input ---------------------------------------------------------------

inline constexpr std::size_t max_registry_file_bytes = 8u * 1024u * 1024u;

// A registry document (bundle, state, bare canonical record, resolver
// answer) verified with `trust`. An unreadable or oversized file, or one that
// is not a registry document, gives a report with `error` set (verdict error).
// A verified document is its own carried copy (the online check compares it).
[[nodiscard]] FileCheck check_registry_file(const std::filesystem::path& path, const registry::TrustStore& trust);

[[nodiscard]] FileCheck check_registry_bytes(std::string_view bytes, const registry::TrustStore& trust, std::string_view name);

// Any file pith-check is given: a PDF (`%PDF-` in its first 1024 bytes) is
// read in a child process with limits (pdf/facts.hpp: read_pdf_facts) and
// judged here (judge_pdf_message), anything else checked as a registry file.
[[nodiscard]] FileCheck check_file(const std::filesystem::path& path, const registry::TrustStore& trust);

// The same dispatch for an input already in memory (a tar member, an upload):
// `name` is what reports call it. The bytes are shared with the child by
// fork, not copied.
[[nodiscard]] FileCheck check_bytes(std::string_view bytes, std::string_view name, const registry::TrustStore& trust);

// The same check in two halves, for a caller that runs the isolated child
// itself (pith-check's corpus runs, pith-serve's broker): the child's half
// reads a PDF and returns the facts to send back (an empty message for
// anything else: registry files are judged by the parent alone); the
// parent's half judges what arrived (or the child's failure) against the
// input's bytes and checks a non-PDF itself. Nothing the child sends is a
// verdict (pdf/facts.hpp). With `bytes`, those bytes named `name`; without,
// the file at path `name` (mapped by each half).
// With page_one `elsewhere`, the child leaves page 1's text to another child
// (PageTextBeside), whose answer the parent's half awaits when the
// judgement first needs it: the record is verified meanwhile.
[[nodiscard]] std::string read_input_in_child(std::string_view name, std::optional<std::string_view> bytes,
                                              pdf::PageOneText page_one = pdf::PageOneText::read);
// What the child reading page 1's text beside the facts sent
// (pdf::page_text_to_wire), or why it sent nothing: awaited once, when the
// judgement first needs it. Its crash or limit is the input's, as when one
// child read both.
using PageTextBeside = std::function<Result<std::string>()>;
[[nodiscard]] FileCheck judge_input_from_child(std::string_view name, std::optional<std::string_view> bytes,
                                               const Result<std::string>& sent, const registry::TrustStore& trust,
                                               const PageTextBeside& page_text_beside = {});
// The child's half of a page 1 text read beside the facts: `name` mapped, its
// page 1's text on the wire (nothing when it is not a PDF).
[[nodiscard]] std::string read_page_text_in_child(std::string_view name);

// --- A PDF: the facts the child read, judged here -------------------------------

// The parent's half for a PDF: confirms the facts in `bytes`, the same file
// (pdf::confirm_in_file: a part that is not there is dropped and
// isolation.child.rejected fails the file), then the whole check
// (check/pdf.hpp: check_pdf_metadata) and the signatures the PDF lists.
[[nodiscard]] FileCheck judge_pdf_facts(std::string_view bytes, pdf::PdfFacts facts, const registry::TrustStore& trust,
                                        std::string_view name, const PageTextBeside& page_text_beside = {});

// The parent's judgement of what the child sent for `bytes` (PdfFacts::to_wire;
// a crash or a limit: the report's error). A record verified from the
// file's own bytes adds isolation.parent.verified.
[[nodiscard]] FileCheck judge_pdf_message(std::string_view bytes, const Result<std::string>& sent,
                                          const registry::TrustStore& trust, std::string_view name,
                                          const PageTextBeside& page_text_beside = {});

// Both halves in this process, for a caller that needs no isolation (tests,
// fuzzing): an unreadable, damaged or encrypted PDF gives a report with
// `error` set.
[[nodiscard]] FileCheck check_pdf_bytes(std::string_view bytes, const registry::TrustStore& trust, std::string_view name);

}  // namespace pith::check
