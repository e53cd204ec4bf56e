// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A verification report: an ordered list of checks with dotted codes
// (`record.hash.match`, `receipt.signature.valid`, `key.untrusted`, ...), each
// pass/fail/warn/skip with a detail, and an overall verdict derived from them.
// Integrity and trust are separate checks: a bundle can be intact (hashes
// match) yet signed by a key nobody trusts.
#include "pith/base/exit_codes.hpp"  // a verdict's exit code: exit_code_for(report.verdict())
#include "pith/base/verdict.hpp"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace pith {

enum class CheckStatus { pass, fail, warn, skip };

[[nodiscard]] const char* to_string(CheckStatus s);

struct Check {
  std::string code;
  CheckStatus status = CheckStatus::skip;
  std::string detail;
  // True for a passing check that ties the data to a trusted key (a receipt or
  // bundle signature verified with a key from the trust store). A report with
  // no failure and no such anchor is `unverifiable`, not `verified`.
  bool anchors_trust = false;
  // True for a passing check that ties the record to the document's content
  // (the visible title or abstract, the metadata title, the arXiv id). A
  // report that requires_content_binding needs one to be `verified`.
  bool binds_content = false;
  // True for a warning that shows the content changed after stamping (the
  // text of a page is not the text fingerprinted): a report that would be
  // `verified` is `altered` instead.
  bool shows_alteration = false;
};

class Report {
 public:
  std::string input;        // file name, URL or identifier the report is about
  std::string pith_number;  // full form when known; text: base/ is below registry/, and may be a claim (docs/architecture.md)
  // For the headline only, when pith_number is not known: the number as the
  // input writes it (a PDF that carries only `pith:<body>`), so that an
  // `unverifiable` line still says which number could not be verified.
  std::string number_as_written;
  std::string input_kind;   // "bundle", "state", "record", "pdf", "identifier"
  // Set when the input could not be processed: what kind of failure, and the
  // message people read (`message` alone: the report names the input). Of
  // kind limit (stopped_by_budget): the check was stopped by its child's
  // budget before it could decide, so the verdict is unverifiable, and the
  // message (naming the budget and the option that raises it) is the
  // report's `stopped`, on the headline.
  std::optional<Error> error;
  [[nodiscard]] bool stopped_by_budget() const { return error && error->kind == ErrorKind::limit; }
  bool number_found = true;          // false: no Pith Number in the input
  // A PDF: `verified` also needs a passing check with binds_content; a
  // trusted record without one is `unbound`.
  bool requires_content_binding = false;
  nlohmann::json extra = nlohmann::json::object();  // kind-specific details

  void add(std::string code, CheckStatus status, std::string detail = {}, bool anchors_trust = false,
           bool binds_content = false);
  // A check as it travels between processes, every flag with it; a flag its
  // status cannot carry (an anchor that did not pass, an alteration that is
  // not a warning) is dropped.
  void add(Check check);
  void pass(std::string code, std::string detail = {}) { add(std::move(code), CheckStatus::pass, std::move(detail)); }
  void fail(std::string code, std::string detail = {}) { add(std::move(code), CheckStatus::fail, std::move(detail)); }
  void warn(std::string code, std::string detail = {}) { add(std::move(code), CheckStatus::warn, std::move(detail)); }
  void skip(std::string code, std::string detail = {}) { add(std::move(code), CheckStatus::skip, std::move(detail)); }
  void trust_anchor(std::string code, std::string detail = {}) {
    add(std::move(code), CheckStatus::pass, std::move(detail), true);
  }
  // A passing check that binds the record to the document's content.
  void content_binding(std::string code, std::string detail = {});
  // A warning that the content changed after stamping (Check::shows_alteration).
  void alteration(std::string code, std::string detail);
  // Appends another report's checks (e.g. a nested bundle's), codes unchanged.
  void merge(const Report& other);

  [[nodiscard]] const std::vector<Check>& checks() const { return checks_; }
  [[nodiscard]] const Check* find(std::string_view code) const;
  [[nodiscard]] bool has_failure() const;
  [[nodiscard]] Verdict verdict() const;
  // Every warning, in order: what the headline names beside the verdict, so
  // that nothing a reader must know stays below it (to_text, to_json).
  [[nodiscard]] std::vector<const Check*> warnings() const;
  // The verdict line: mark, input, verdict, number and, when there are any,
  // the alteration found and the warnings' codes. Terminal-safe, no newline.
  [[nodiscard]] std::string headline(bool color = false) const;

  [[nodiscard]] nlohmann::json to_json() const;
  // Human-readable: one line per check; `color` adds ANSI colours (TTY only).
  [[nodiscard]] std::string to_text(bool color = false) const;

 private:
  std::vector<Check> checks_;
};

}  // namespace pith
