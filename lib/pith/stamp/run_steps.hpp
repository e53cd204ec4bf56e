// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The steps of one pith-stamp run (stamp/run.hpp) that its pieces share:
// not installed, not for callers of the library.
//   record_steps.cpp  obtaining the record (--bundle or the resolver) and
//                     judging it: the number's, verified, the paper's title
//   run_tex.cpp       pith-stamp paper.tex: pith.sty beside the paper
//   pdf_output.cpp    writing the stamped PDF: in place, -o OUT, -o -, --append
//   run.cpp           pith-stamp paper.pdf, the entry point and the outcome
#include "pith/base/atomic_file.hpp"
#include "pith/base/error.hpp"
#include "pith/base/report.hpp"
#include "pith/registry/title.hpp"
#include "pith/registry/trust_store.hpp"
#include "pith/registry/verify.hpp"
#include "pith/stamp/examine.hpp"
#include "pith/stamp/run.hpp"

#include <optional>
#include <string>
#include <sys/stat.h>
#include <variant>
#include <vector>

namespace pith {
class OpenFile;
}

namespace pith::stamp::detail {

using Status = StampRunStatus;
using Outcome = StampRunOutcome;

// ---------------------------------------------------------- record_steps.cpp

[[nodiscard]] StampNote warning_note(std::string text);
// The number a document's record derives to, as text ("" when it derives none).
[[nodiscard]] std::string derived_number(const registry::DocumentContent& content);
[[nodiscard]] Outcome failure(Status status, ErrorKind kind, std::string message);
// A failed step: nothing was written.
[[nodiscard]] Outcome refused(const Error& e);
// The base written into the PDF or pith.sty (/PithURL, XMP resolverUrl, the
// badge link): --resolver when it is a web address, else the public default.
[[nodiscard]] std::string link_base(const StampRunOptions& opt);
// The run's trust store (the pinned key, the user's key directory and
// --trust-key files), loaded once, by the first step that needs it; each
// step reports a failure to load it where it did.
class RunTrust {
 public:
  explicit RunTrust(const StampRunOptions& opt) : opt_(opt) {}
  [[nodiscard]] const Result<registry::TrustStore>& get();

 private:
  const StampRunOptions& opt_;
  std::optional<Result<registry::TrustStore>> loaded_;
};
// The record of a run, once obtained: verified, or the verification of a
// --bundle that did not verify (it holds no record; its report says why).
// Both come from the registry's verification as they are: never re-wrapped.
using ObtainedRecord = std::variant<registry::VerifiedRecord, registry::DocumentVerification>;
// The record for `number`: from --bundle, else from the resolver (which
// hands out only verified records), with the tool's trust store only. Sets
// outcome.verification (and record_source).
[[nodiscard]] Result<ObtainedRecord> obtain_record(const StampRunOptions& opt, RunTrust& trust, const std::string& number,
                                                   Outcome& outcome);
// A record that could not be obtained: unverified when the resolver refused
// it, else an error.
[[nodiscard]] Outcome not_obtained(const Error& e);
[[nodiscard]] const Check* first_failure(const Report& report);
// What a record that is not `verified` means.
[[nodiscard]] ErrorKind kind_of_unverified(Verdict verdict);
// A record that did not verify: its derived number and the first failed check of its report.
[[nodiscard]] Outcome unverified(const StampRunOptions& opt, Outcome outcome, const registry::DocumentVerification& refused,
                                 const std::string& number);
[[nodiscard]] Outcome wrong_record(const StampRunOptions& opt, Outcome outcome, const std::string& record_number,
                                   const std::string& wanted);
// A network error, never a refused record, and never with --bundle.
[[nodiscard]] bool registry_unreachable(const StampRunOptions& opt, const Error& e);
// What is already there still verifies offline: kept, with a warning unless --offline.
[[nodiscard]] Outcome kept_offline(const StampRunOptions& opt, const Error& unreachable, std::string pith_number,
                                   std::string output, const std::string& what);
// Before writing: is this the record's paper? (its titles, page 1's lines).
// An outcome when the run must stop; otherwise notes are added to `outcome`.
[[nodiscard]] std::optional<Outcome> refuse_other_paper(const StampRunOptions& opt,
                                                        const std::vector<registry::TitleCandidate>& titles,
                                                        const std::vector<std::string>& visible_lines,
                                                        const registry::VerifiedRecord& record, Outcome& outcome,
                                                        const std::string& no_title = {});

// ---------------------------------------------------------------- run_tex.cpp

// pith-stamp paper.tex: pith.sty beside it. `pith`: --pith, parsed.
[[nodiscard]] Outcome stamp_tex_file(const StampRunOptions& opt, const std::optional<registry::PithNumber>& pith);

// ------------------------------------------------------------- pdf_output.cpp

[[nodiscard]] bool writes_to_stdout(const StampRunOptions& opt);
[[nodiscard]] bool in_place(const StampRunOptions& opt);
// Whether the stamp copies the original (in place or -o OUT) rather than
// appending to it or writing it to standard output.
[[nodiscard]] bool copies_the_original(const StampRunOptions& opt);
[[nodiscard]] Result<AtomicRewrite> begin_copy(const StampRunOptions& opt, const OpenFile& file);
[[nodiscard]] Result<void> write_stamp(const StampRunOptions& opt, const OpenFile& file, Examiner& examiner,
                                       const ExaminedPdf& examined, std::optional<AtomicRewrite>& copy);
[[nodiscard]] std::optional<Outcome> refuse_read_only(const StampRunOptions& opt, const struct stat& st);
[[nodiscard]] std::optional<Outcome> refuse_hard_linked(const StampRunOptions& opt, const struct stat& st);

}  // namespace pith::stamp::detail
