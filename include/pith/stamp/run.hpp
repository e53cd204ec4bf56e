// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One pith-stamp run, as a library call so the CLI stays a thin front end
// (the twin of check/job.hpp): find the Pith Number (--pith, the PDF's own
// metadata, the .tex beside it), obtain its record (a bundle file or the
// resolver) and verify it with the trust store only, check it is the
// number's record, then write it into the PDF as one incremental update
// (pdf/stamp.hpp, base/atomic_file.hpp) or, for a .tex, into the generated
// pith.sty beside it (tex/stamp.hpp). Nothing is written unless the record
// verified and is the paper's. The outcome is typed; printing it (human
// text, --json) is here too.
#include "pith/base/error.hpp"
#include "pith/base/job.hpp"
#include "pith/base/report.hpp"
#include "pith/runner/child_budget.hpp"
#include "pith/resolver/options.hpp"

#include <cstdint>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace pith::stamp {

struct StampRunOptions {
  std::string input;   // the PDF, or a .tex (by its extension)
  std::string output;  // -o: a stamped copy here; empty: in place
  std::string pith;    // --pith; empty: from the PDF's metadata or the .tex beside it
  std::string bundle;  // --bundle: a registry bundle or state file instead of the resolver
  std::vector<std::string> trust_keys;  // --trust-key files, added to the default trust store
  resolver::ResolverOptions registry;   // also the base written into the PDF when it is a web address
  bool append = false;  // append in place instead of the atomic copy (not with -o)
  bool force = false;   // replace a stamp for a different number; stamp although the paper's title is not the record's
  bool badge = false;   // a linked badge on page 1
  // --dry-run: everything but writing (the record resolved and verified, the
  // update planned and checked on the original and the update in one view),
  // the exit code of a real run; no file is created or changed.
  bool dry_run = false;
  std::optional<std::int64_t> source_date_epoch;  // the embedded file's /ModDate (SOURCE_DATE_EPOCH)
  runner::ChildBudget children;  // each child's limits (--child-memory, --child-time): runner/child_budget.hpp
};

enum class StampRunStatus {
  stamped,          // written
  already_stamped,  // the file (or pith.sty) already carries this very record, and (a PDF) pith-check says
                    // verified: nothing to do
  no_number,        // no Pith Number given or found
  unverified,       // the record did not verify (or was refused by the resolver)
  wrong_record,     // the record verified but is another paper's (its number, or the paper's title: no --force)
  conflict,         // the PDF already carries another Pith Number (no --force)
  not_verified,     // the PDF carries this record, but pith-check would not say verified (no --force)
  error,            // usage, unreadable or damaged input, registry unavailable, write failure
};
[[nodiscard]] const char* to_string(StampRunStatus status);  // "stamped", "already_stamped", ...

// A remark of the run, with its severity: a warning is printed even when the
// run is quiet; code decides by the severity, never by the text.
struct StampNote {
  enum class Severity { info, warning };
  Severity severity = Severity::info;
  std::string text;
  // As printed and in --json: the text, after "warning: " for a warning.
  [[nodiscard]] std::string to_string() const;
};

// failure: why the run failed (every status but stamped and already_stamped);
// message: what happened, or why nothing was written; pith_number: the
// record's full number, once known.
struct StampRunOutcome : JobOutcome<StampRunStatus> {
  std::string output;       // the file written (or that would have been)
  std::optional<std::uint64_t> original_length;  // a stamped PDF: the bytes before the update
  std::string original_sha256;
  std::optional<std::uint64_t> update_bytes;
  std::vector<StampNote> notes;  // remarks of the stamp plan (badge skipped, ...); warnings are always printed
  std::vector<std::string> warnings;  // printed even when quiet (e.g. the registry could not be reached)
  // The registry could not be reached and what the paper (pith.sty) or the
  // PDF already carries was kept because it still verifies offline.
  bool kept_offline = false;
  std::string record_source;       // where the resolver found the record (URL or cache path)
  std::optional<Report> verification;  // the record's verification report
  std::optional<Report> file_check;    // not_verified: pith-check's report of the file (--offline)
  bool dry_run = false;                // --dry-run: nothing was written (output: what would have been)

  // {input, status, exit_code, message, pith_number, output, original_length,
  // original_sha256, update_bytes, notes, warnings, offline (kept offline),
  // record_source, verification, file_check, dry_run}
  // (empty members left out).
  [[nodiscard]] nlohmann::json to_json(const std::string& input) const;
};

[[nodiscard]] StampRunOutcome run_stamp(const StampRunOptions& options);

struct StampPrintOptions {
  bool json = false;     // the outcome as JSON on `out`
  bool verbose = false;  // say what was done (quiet on success otherwise, for latexmk)
  // Several files: one line each, success included (without -v's notes),
  // and with json one object a line (JSON Lines).
  bool each_in_a_line = false;
};
// Human text on `err` ("pith-stamp: ..."), or JSON on `out`; JSON is always
// valid UTF-8 (bytes that are not, e.g. in a file name, are replaced).
void print_stamp_outcome(const std::string& input, const StampRunOutcome& outcome, const StampPrintOptions& print,
                         std::ostream& out, std::ostream& err);

}  // namespace pith::stamp
