// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// pith-stamp's look at a PDF, in limited child processes: PoDoFo and poppler
// parse the hostile PDF only there; the children send back plain values and
// the parent keeps every write.
//
// One examining worker (Examiner) parses the PDF once and is asked in turn:
// what the PDF names (the parent then obtains the record), then the plan
// with the record. It says first whether the plan stamps, then hashes the
// original (the hash goes into the update) while the parent copies it: the
// copy in the kernel and the hash run on two cores at once, and a no-op
// (already stamped, conflict) costs neither. Page 1's text (poppler) is read
// only when the plan stamps and the title metadata does not already bind the
// paper to the record.
#include "pith/base/atomic_file.hpp"
#include "pith/base/error.hpp"
#include "pith/base/mapped_file.hpp"
#include "pith/pdf/page_fingerprint.hpp"
#include "pith/pdf/page_image.hpp"
#include "pith/pdf/stamp.hpp"
#include "pith/registry/title.hpp"
#include "pith/registry/verify.hpp"
#include "pith/stamp/run.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pith::stamp {

// ExaminedPdf::from for a number found only as page 1's printed text
// (`pith:YYYY:BODY`, latex/pith.sty's badge on a printed-to-PDF copy): a
// hint, stamped only when the record's title binds the paper.
inline constexpr std::string_view printed_number_from = "the PDF's page 1 text (printed, no metadata names it)";

struct ExaminedPdf {
  std::optional<std::string> number;  // the number the user wants: --pith, the PDF's, or the .tex beside it
  std::string from;                   // where it was found ("--pith", "the PDF's Info /PithNumber", ...)
  std::vector<registry::TitleCandidate> titles;  // the PDF's title metadata
  std::vector<std::string> page_lines;           // page 1's text, when it was needed (see above)
  std::optional<pdf::StampPlan> plan;            // with a record: the update (original_sha256 filled in)
  std::optional<std::uint64_t> pages;            // with a plan: the original's page count
  // With a plan that stamps: page 1 of the original as poppler draws it (the
  // badge's rectangle blanked), drawn in a child of its own beside the
  // planning child's hashing and the parent's copy (by the planning child
  // when nothing is copied: --append, -o -); nullopt when poppler cannot
  // draw it (then there is nothing to keep).
  std::optional<pdf::PageFingerprint> page_one;
};

// Called in the parent when the child has decided that the plan stamps, while
// it goes on hashing: the moment to start copying the original. An error
// stops the child and is returned by examine_pdf.
using OnStamping = std::function<Result<void>()>;

struct ExamineRequest;  // examine_wire.hpp
class PageOneDrawing;   // examine.cpp: the child that draws page 1

// The examining worker: ONE child process (runner/child_scheduler.hpp, under
// the run's child budget) that maps `file` (opt.input) and parses it once,
// then answers in turn: what the PDF names (read), and with the record the
// plan of the update (plan). Only the worker maps the file: this process
// never holds the whole of it, whatever its size. The worker starts with the
// first question; `trust` (the run's trust store, loaded before it) is what
// it verifies the record it is handed with again.
class Examiner {
 public:
  Examiner(const StampRunOptions& opt, const OpenFile& file, const registry::TrustStore* trust,
           const pdf::StampOptions& options);
  Examiner(const Examiner&) = delete;
  Examiner& operator=(const Examiner&) = delete;
  ~Examiner();  // ends the worker

  // The number the user wants and where it is from (the .tex beside the PDF
  // read here, when the PDF names none or only prints one), the title metadata.
  [[nodiscard]] Result<ExaminedPdf> read();
  // The update for `record` (its original_sha256 hashed by this process,
  // while the worker reads the pages' text, when the plan stamps); `restamp`: --force over a stamp pith-check does not call
  // verified. `on_stamping` is called once the worker says the plan stamps,
  // while it reads the pages.
  [[nodiscard]] Result<ExaminedPdf> plan(const registry::VerifiedRecord& record, bool restamp,
                                         const OnStamping& on_stamping = {});
  // What was written at `written_path` (empty: the original and the plan's
  // update in one view), checked against the plan, named `name`. The
  // worker lets the PDF it read go first: ask nothing after.
  [[nodiscard]] Result<void> check(const std::string& written_path, const std::string& name, const ExaminedPdf& examined);
  // After read (before check): what pith-check's parsing child would send
  // for the PDF (pdf/facts.hpp's wire), read by the worker from the PDF it
  // holds open, for this process to judge as pith-check does
  // (stamp/file_judgement.hpp); or why none came (a crash, a limit).
  [[nodiscard]] Result<std::string> facts();

 private:
  [[nodiscard]] std::uint64_t submit(const ExamineRequest& request);
  [[nodiscard]] Result<std::string> await_answer(std::uint64_t ticket);
  [[nodiscard]] Result<std::string> ask(const ExamineRequest& request);
  [[nodiscard]] Result<pdf::PageTextRun> pages_answer(std::uint64_t ticket);
  [[nodiscard]] Result<pdf::PageFingerprints> read_pages(std::uint64_t first, pdf::PageShare rest,
                                                         std::optional<PageOneDrawing>& drawing,
                                                         std::optional<pdf::PageFingerprint>& page_one);
  struct Worker;
  const StampRunOptions& opt_;
  const OpenFile& file_;
  std::unique_ptr<Worker> worker_;
  std::optional<ExaminedPdf> read_;
  bool page_lines_read_ = false;  // the worker read page 1's lines to find a number it prints
};

// The check before anything written is kept, by the examining worker: the
// result, re-read from disk, has the update as its newest section, resolves
// /Root and has the original's page count (pdf::check_written_update), and
// its page 1 is the same picture as the original's, apart from the badge
// (page_one). `target`: the name messages give it.
[[nodiscard]] WrittenCheck written_check(Examiner& examiner, const std::string& target, const ExaminedPdf& examined);

// That check on `written` (the written file's bytes), named `name`, against
// `examined` (its plan, page count and original page 1): in the examining
// worker only (poppler draws the hostile page there).
[[nodiscard]] Result<void> check_stamped_bytes(std::string_view written, const std::string& name,
                                               const ExaminedPdf& examined);

// `-o -`: the same check on the original followed by the update, one mapped
// view of both (the original is not copied).
[[nodiscard]] Result<void> check_in_memory(Examiner& examiner, const std::string& input, const ExaminedPdf& examined);

}  // namespace pith::stamp
