// SPDX-License-Identifier: GPL-3.0-or-later
// pith-stamp's examining worker, the child's half of stamp/examine.hpp: one
// process that maps and parses the PDF once and answers the parent's
// requests about it in turn (examine_wire.hpp: read, plan with the record,
// pages, finish, check, facts), keeping what it read between them. The
// parent's half (the Examiner, the child drawing page 1) is examine.cpp.
#include "pith/stamp/examine_worker.hpp"

#include "pith/base/wire.hpp"
#include "pith/pdf/extract.hpp"
#include "pith/pdf/facts.hpp"
#include "pith/pdf/page_fingerprint.hpp"
#include "pith/pdf/page_text.hpp"
#include "pith/pdf/reader.hpp"
#include "pith/pdf/update.hpp"
#include "pith/registry/record.hpp"
#include "pith/registry/verify.hpp"
#include "pith/registry/visible_title.hpp"
#include "pith/stamp/examine.hpp"
#include "pith/stamp/examine_wire.hpp"

#include <memory>

namespace pith::stamp::detail {
namespace {

// What a child sends in place of its answer when its work failed (examine_wire.hpp).
std::string sent_error(const Error& e) { return encode_error_message(e); }

// The number the user wants, as far as the PDF tells: --pith, else where
// the PDF names it (its metadata or badge link: pdf::where_is_the_number,
// the reader pith-check uses), else the number page 1 only prints (a hint:
// run.cpp stamps it only when the record's title binds the paper). The .tex
// beside the PDF comes between the two, read by the parent: number_beside.
std::optional<std::string> wanted_number(const StampRunOptions& opt, const pdf::PdfExtraction& extraction,
                                         bool printed_number_wanted,
                                         const std::function<std::vector<std::string>()>& page_one_lines,
                                         std::string& from) {
  if (!opt.pith.empty()) return from = "--pith", opt.pith;
  if (auto place = pdf::where_is_the_number(extraction, {})) return from = "the PDF's " + place->where, place->number.to_string();
  if (!printed_number_wanted) return std::nullopt;
  if (auto place = pdf::where_is_the_number(extraction, pdf::printed_numbers(page_one_lines())))
    return from = std::string(printed_number_from), place->number.to_string();
  return std::nullopt;
}

// The reader pith-stamp writes with: a file whose cross-reference data had
// to be rebuilt by scanning is refused with the command that repairs it.
Result<pdf::Reader> open_for_stamping(const std::string& input, std::string_view bytes) {
  pdf::ReaderLimits limits;
  limits.recover_damaged_xref = true;
  auto reader = pdf::Reader::open(bytes, input, limits);
  if (reader && reader->recovered()) {
    return fail(ErrorKind::malformed, input,
                "damaged cross-reference data (" + reader->recovery_reason() +
                    "); readers repair it as they open the file, but an update must not be written on top of "
                    "that guess. Repair it first (`qpdf '" + input + "' repaired.pdf`), then stamp repaired.pdf");
  }
  return reader;
}

struct PdfReadout {
  pdf::Reader reader;
  pdf::PdfMetadata metadata;
  pdf::PdfExtraction extraction;
};

// In the child: the reader, the metadata read once (for the number, and to
// stamp over in plan_stamp) and the numbers it names.
Result<PdfReadout> read_pdf(const std::string& input, std::string_view bytes) {
  auto reader = open_for_stamping(input, bytes);
  if (!reader) return std::unexpected(reader.error());
  pdf::PdfMetadata metadata = pdf::read_pdf_metadata(*reader);
  if (metadata.pith_parts_unreadable) {
    std::string problems;
    for (const auto& p : metadata.read_problems) problems += (problems.empty() ? "" : "; ") + p;
    return fail(ErrorKind::malformed, input, problems);
  }
  // An XMP packet refused unread (too large, too deep) names no number here,
  // and plan_stamp refuses to merge into it.
  pdf::PdfExtraction extraction = pdf::extract_pith_numbers(metadata).value_or(pdf::PdfExtraction{});
  return PdfReadout{std::move(*reader), std::move(metadata), std::move(extraction)};
}

std::vector<registry::TitleCandidate> title_metadata(const PdfReadout& readout) {
  std::vector<registry::TitleCandidate> titles;
  const auto& xmp = readout.extraction.xmp;
  if (xmp && xmp->title) titles.push_back({"XMP dc:title", *xmp->title});
  if (readout.metadata.info_title) titles.push_back({"Info /Title", *readout.metadata.info_title});
  return titles;
}


// ---- What the examining child sends (examine_wire.hpp): an ExamineRead
// (early, when there is a plan), then with a plan an ExaminePlan holding the
// update's bytes; an error in place of either.

ExamineRead read_message(const ExaminedPdf& examined) {
  ExamineRead read{examined.number, examined.from, examined.titles, std::nullopt, std::nullopt};
  if (examined.plan) read.outcome = examined.plan->outcome;
  if (examined.plan) read.badge_rect = examined.plan->badge_rect;
  return read;
}

ExaminePlan plan_message(const ExaminedPdf& examined) {
  const pdf::StampPlan& plan = *examined.plan;
  return ExaminePlan{plan.original_sha256, plan.original_length, plan.notes, plan.warnings, examined.page_lines,
                     plan.previous_number, examined.pages, plan.badge_rect, examined.page_one, plan.update};
}

// A share of the pages' text as stamped, fingerprinted for telling a later
// re-save from an edit. The badge's appearance is text on page 1 (poppler
// reads annotations too): with one, the pages are read with the badge
// appended (pdf::badge_update: the only part of the update on a page), in
// one view of the file and those bytes, as the written check reads them: no
// copy of the whole file. Pages after the first read the same either way.
Result<pdf::PageTextRun> fingerprint_as_stamped(const OpenFile& file, std::string_view original, const PdfReadout& readout,
                                                const registry::VerifiedRecord& record, const pdf::StampOptions& options,
                                                const pdf::StampPlan& decided, pdf::PageShare share) {
  if (!decided.adds_badge) return pdf::fingerprint_page_share(original, share);
  auto badge = pdf::badge_update(readout.reader, record, options);
  if (!badge) return std::unexpected(badge.error());
  const auto with_badge = MappedFile::map(file, *badge);
  if (!with_badge) return std::unexpected(with_badge.error());
  return pdf::fingerprint_page_share(with_badge->bytes(), share);
}

std::string framed(const std::string& message) {
  std::string out;
  append_framed(out, message);
  return out;
}

// ---- The examining worker: one process that maps and parses the PDF once
// and answers pith-stamp's questions about it in turn (examine_wire.hpp:
// read, plan with the record, finish), keeping what it read between them.

// What the worker keeps between questions (in the worker only: in this
// process it stays empty).
struct WorkerState {
  std::optional<MappedFile> mapped;
  std::optional<PdfReadout> readout;
  ExaminedPdf examined;
  std::optional<registry::VerifiedRecord> record;
  pdf::StampOptions options;
  bool page_lines_read = false;  // examined.page_lines holds page 1's lines (answer_pages read them)
  std::optional<std::vector<std::string>> seen_lines;  // page 1's lines, once read (seen_page_one)
};

// Page 1's lines as pith-check reads them, read once: for a number page 1
// prints (answer_read) and for a title the metadata does not bind
// (read_page_lines) alike.
const std::vector<std::string>& seen_page_one(WorkerState& s) {
  if (!s.seen_lines) s.seen_lines = pdf::read_page_text(s.mapped->bytes(), s.readout->metadata.link_uris).seen_lines();
  return *s.seen_lines;
}

std::string worker_error(const std::string& input, const std::string& why) {
  return framed(sent_error(Error{ErrorKind::internal, input, why}));
}

// What the PDF names (the number, the title metadata).
std::string answer_read(const StampRunOptions& opt, const OpenFile& file, const ExamineRequest& request, WorkerState& s) {
  auto mapped = MappedFile::map(file);
  if (!mapped) return framed(sent_error(mapped.error()));
  s.mapped.emplace(std::move(*mapped));
  auto readout = read_pdf(opt.input, s.mapped->bytes());
  if (!readout) return framed(sent_error(readout.error()));
  s.readout.emplace(std::move(*readout));
  s.examined = ExaminedPdf{};
  s.seen_lines.reset();
  const auto page_one_lines = [&] { return seen_page_one(s); };
  s.examined.number = wanted_number(opt, s.readout->extraction, request.printed_number_wanted, page_one_lines, s.examined.from);
  s.examined.titles = title_metadata(*s.readout);
  return framed(encode(read_message(s.examined)));
}

// Whether there is anything to write (it does not depend on the hash):
// decided first and answered at once, so that this process can start
// copying and hashing while the worker reads the pages (answer_pages). The record is verified
// again here, with the run's trust store: only a verification makes one.
std::string answer_plan(const std::string& input, const registry::TrustStore* trust, const pdf::StampOptions& base,
                        const ExamineRequest& request, WorkerState& s) {
  if (!s.readout) return worker_error(input, "the examining worker was asked to plan before it read the PDF");
  if (!trust) return worker_error(input, "the examining worker has no trust store to verify the record with");
  auto verified = registry::verify_document(request.document, *trust, input);
  if (!verified || !verified->record()) return worker_error(input, "the record handed to the examining worker does not verify");
  s.record.emplace(*std::move(*verified).record());
  s.options = base;
  s.options.restamp = request.restamp;
  auto decided = pdf::decide_stamp(s.readout->reader, s.readout->metadata, s.readout->extraction, *s.record, s.options);
  if (!decided) return framed(sent_error(decided.error()));
  s.examined.plan = std::move(*decided);
  s.examined.page_lines.clear();
  s.page_lines_read = false;
  s.examined.page_one.reset();
  return framed(encode(read_message(s.examined)));
}

// Page 1's lines as pith-check reads them, when they can tell more than the
// title metadata (and not yet read).
void read_page_lines(WorkerState& s) {
  if (s.page_lines_read || !page_text_needed(s.examined.titles, *s.record)) return;
  s.examined.page_lines = seen_page_one(s);
  s.page_lines_read = true;
}

// A share of the pages' text fingerprinted as stamped (the longest part of
// a stamp's work on a long paper), asked for as soon as the plan stamps:
// this process copies and hashes the original meanwhile, and the child
// drawing page 1 reads the other share. Page 1's lines are read first,
// beside that child's drawing rather than after both (the shares' heads
// count them: stamp_share).
std::string answer_pages(const std::string& input, const OpenFile& file, const ExamineRequest& request, WorkerState& s) {
  if (!s.readout || !s.record || !s.examined.plan) return worker_error(input, "the examining worker was asked for the pages of a plan it has not made");
  read_page_lines(s);
  auto pages = fingerprint_as_stamped(file, s.mapped->bytes(), *s.readout, *s.record, s.options, *s.examined.plan, request.share);
  if (!pages) return sent_error(pages.error());
  return encode(*pages);
}

// The rest of the plan: with a stamp, the original's hash and the pages'
// fingerprint (this process's, from the request), the one plan made, page
// 1's text when it can tell more than the title metadata, page 1 drawn when
// asked.
std::string answer_finish(const std::string& input, const ExamineRequest& request, WorkerState& s) {
  if (!s.readout || !s.record || !s.examined.plan) return worker_error(input, "the examining worker was asked to finish a plan it has not made");
  ExaminedPdf& examined = s.examined;
  const registry::VerifiedRecord& record = *s.record;
  pdf::StampOptions& options = s.options;
  const std::string_view bytes = s.mapped->bytes();
  if (examined.plan->outcome == pdf::StampOutcome::stamped) {
    if (request.original_sha256.empty()) return worker_error(input, "the examining worker was asked to finish a stamp without the original's hash");
    options.original_sha256 = request.original_sha256;
    options.page_text_sha256.reset();
    if (!request.page_text_sha256.empty()) options.page_text_sha256 = request.page_text_sha256;
    auto plan = pdf::plan_stamp(s.readout->reader, s.readout->metadata, s.readout->extraction, record, options);
    if (!plan) return framed(sent_error(plan.error()));
    examined.plan = std::move(*plan);
    read_page_lines(s);
    if (request.draw_page_one)
      examined.page_one = pdf::page_one_fingerprint(bytes, pdf::page_check_dpi, examined.plan->badge_rect);
  }
  if (auto pages = s.readout->reader.page_count()) examined.pages = *pages;
  return framed(encode(plan_message(examined)));
}

// What was written, re-read from disk (or, for -o -, the original and the
// update in one view): the PDF read and its plan are let go first, so that
// what this maps is the budget's one file.
std::string answer_check(const std::string& input, const OpenFile& file, const ExamineRequest& request, WorkerState& s) {
  if (!s.examined.plan) return worker_error(input, "the examining worker was asked to check a plan it has not made");
  s.readout.reset();
  s.mapped.reset();
  ExaminedPdf& examined = s.examined;
  examined.page_one = request.page_one;
  const auto checked = [&]() -> Result<void> {
    auto written = request.written_path.empty() ? MappedFile::map(file, examined.plan->update)
                                                : MappedFile::open(request.written_path);
    if (!written) return std::unexpected(written.error());
    return check_stamped_bytes(written->bytes(), request.name, examined);
  }();
  return checked ? encode_written_checked() : sent_error(checked.error());
}

// What pith-check's parsing child would send (pdf/facts.hpp), from the
// reader the worker stamps with: no second parse, no second child.
std::string answer_facts(const WorkerState& s) {
  if (s.mapped && s.readout) return pdf::read_pdf_facts(s.readout->reader, s.mapped->bytes()).to_wire();
  pdf::PdfFacts none;
  none.error = "internal error: the examining worker was asked for facts before it read the PDF";
  return none.to_wire();
}

}  // namespace

// Whether page 1's text can tell anything the title metadata does not: the
// record has a title hash and the metadata does not match it (stamp/run's
// refuse_other_paper reads the text only then).
bool page_text_needed(const std::vector<registry::TitleCandidate>& titles, const registry::VerifiedRecord& record) {
  const std::string expected = registry::read_record_metadata(record.canonical_record).title_canon_sha256;
  return !expected.empty() && registry::bind_title(titles, expected).verdict != registry::TitleVerdict::match;
}

runner::ChildScheduler::Handler examining_worker(const StampRunOptions& opt, const OpenFile& file,
                                                 const registry::TrustStore* trust, const pdf::StampOptions& base) {
  auto state = std::make_shared<WorkerState>();
  return [&opt, &file, trust, base, state](std::string_view message) -> std::string {
    auto request = decode_examine_request(message);
    if (!request) return framed(sent_error(request.error()));
    switch (request->ask) {
      case ExamineAsk::read: return answer_read(opt, file, *request, *state);
      case ExamineAsk::plan: return answer_plan(opt.input, trust, base, *request, *state);
      case ExamineAsk::pages: return answer_pages(opt.input, file, *request, *state);
      case ExamineAsk::finish: return answer_finish(opt.input, *request, *state);
      case ExamineAsk::check: return answer_check(opt.input, file, *request, *state);
      case ExamineAsk::facts: return answer_facts(*state);
    }
    return worker_error(opt.input, "the examining worker was asked something it does not know");
  };
}

}  // namespace pith::stamp::detail
