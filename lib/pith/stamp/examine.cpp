// SPDX-License-Identifier: GPL-3.0-or-later
// The parent's half of stamp/examine.hpp: the Examiner that asks the
// examining worker (its handler, the child's half, is examine_worker.cpp),
// the child drawing page 1 beside it, and the .tex beside the PDF.
#include "pith/stamp/examine.hpp"
#include "pith/stamp/examine_worker.hpp"

#include "pith/base/child_process.hpp"
#include "pith/pdf/page_fingerprint.hpp"
#include "pith/pdf/update.hpp"
#include "pith/runner/child_scheduler.hpp"
#include "pith/stamp/examine_wire.hpp"
#include "pith/tex/source.hpp"

#include <filesystem>
#include <map>
#include <memory>

namespace pith::stamp {

using detail::examining_worker;
using detail::page_text_needed;

namespace {

namespace fs = std::filesystem;

// \pithnumber{...} in the .tex beside the PDF (same base name), ignoring
// comments, read in this process: the examining child's sandbox opens only
// the PDF (a relative path made it call getcwd, and it was killed). nullopt
// when there is no such file or no \pithnumber in it; an error when it is
// there and cannot be read (not a regular file, unreadable, larger than
// tex::tex_max_file_bytes: read_bounded reads no more) or names a malformed
// number or two.
Result<std::optional<tex::TexNumber>> number_beside(const fs::path& pdf) {
  fs::path tex = pdf;
  tex.replace_extension(".tex");
  const auto cannot = [&](ErrorKind kind, const std::string& why) -> Result<std::optional<tex::TexNumber>> {
    return fail(kind, pdf.string(),
                "no Pith Number in the PDF, and " + tex.string() + " beside it, where pith-stamp looks next, " + why +
                    ". Give the number with --pith ID, or mend or move " + tex.string());
  };
  std::error_code ec;
  const fs::file_status status = fs::status(tex, ec);
  if (status.type() == fs::file_type::not_found) return std::nullopt;
  if (ec) return cannot(ErrorKind::io, "cannot be read (" + ec.message() + ")");
  if (status.type() != fs::file_type::regular) return cannot(ErrorKind::io, "is not a regular file");
  auto found = tex::find_pith_number(tex);
  if (!found && found.error().kind == ErrorKind::not_found) return std::nullopt;
  if (!found) return cannot(found.error().kind, "cannot be read for one: " + found.error().describe());
  return std::optional<tex::TexNumber>(std::move(*found));
}

// The child's limits, the budget of every child (runner/child_budget.hpp):
// what it maps counts against the memory limit (this process maps nothing
// of the PDF, so it is counted once, whatever its size). `file`: the
// descriptor of the PDF, kept open in the child, which maps it and hashes
// it with pread.
ChildLimits child_limits(const runner::ChildBudget& budget, std::uint64_t mapped_bytes, const OpenFile* file = nullptr) {
  ChildLimits limits = budget.limits(mapped_bytes);
  if (file) limits.keep_descriptor = file->fd();
  return limits;
}

// What the parent makes of the examining child's answer.
Result<ExaminedPdf> examined_from_wire(std::string_view sent, const std::string& input) {
  auto answer = decode_examine_answer(sent, input);
  if (!answer) return std::unexpected(answer.error());
  ExaminedPdf examined;
  examined.number = std::move(answer->read.number);
  examined.from = std::move(answer->read.from);
  examined.titles = std::move(answer->read.titles);
  if (!answer->plan) return examined;
  ExaminePlan& sent_plan = *answer->plan;
  pdf::StampPlan plan;
  plan.outcome = *answer->read.outcome;
  plan.original_sha256 = std::move(sent_plan.original_sha256);
  plan.original_length = sent_plan.original_length;
  plan.notes = std::move(sent_plan.notes);
  plan.warnings = std::move(sent_plan.warnings);
  plan.previous_number = std::move(sent_plan.previous_number);
  plan.badge_rect = sent_plan.badge_rect;
  plan.update = std::move(sent_plan.update);
  examined.pages = sent_plan.pages;
  examined.page_one = std::move(sent_plan.page_one);
  examined.page_lines = std::move(sent_plan.page_lines);
  examined.plan = std::move(plan);
  return examined;
}

}  // namespace

// Page 1 of the original drawn in a child of its own (runner::ChildScheduler:
// a child forked for this work, under the run's child budget), started when
// the plan is known to stamp: it runs beside the examining worker's reading
// of the pages and the parent's copy and hash instead of after them. Then
// it reads `share` of the pages (of the original: pages after the first
// read the same with the badge). Ending it kills the child.
class PageOneDrawing {
 public:
  PageOneDrawing(const runner::ChildBudget& budget, const OpenFile& file, std::optional<pdf::PdfRect> badge_rect,
                 pdf::PageShare share)
      : children_(runner::SchedulerOptions{.children = 1, .limits = child_limits(budget, file.size(), &file),
                                           .subject = "drawing page 1"}) {
    children_.start(0, [&file, badge_rect, share]() -> std::string {
      const auto mapped = MappedFile::map(file);  // in the child, as the examining worker maps it
      if (!mapped) return encode(PageOneDrawn{});  // nothing drawn: no picture to keep
      PageOneDrawn drawn{pdf::page_one_fingerprint(mapped->bytes(), pdf::page_check_dpi, badge_rect), std::nullopt};
      drawn.pages = pdf::fingerprint_page_share(mapped->bytes(), share);
      return encode(drawn);
    });
  }
  // A drawing that failed (poppler crashed or hit a limit) draws nothing: as
  // for a page 1 poppler cannot draw, there is no picture to keep (and the
  // pages it was to read are read by the worker).
  PageOneDrawn finish() {
    for (;;) {
      for (auto& done : children_.wait().done) return done.answer ? decode_page_one(*done.answer) : PageOneDrawn{};
    }
  }

 private:
  runner::ChildScheduler children_;
};

namespace {

// Page 1 of the stamped bytes against the original's, in the checking
// child: the same picture apart from the badge, or nothing is kept.
Result<void> check_page_one(std::string_view stamped, const std::string& name, const ExaminedPdf& examined) {
  if (!examined.page_one) return {};  // poppler could not draw the original's page 1: nothing to keep
  const pdf::StampPlan& plan = *examined.plan;
  const auto after = pdf::page_one_fingerprint(stamped, pdf::page_check_dpi, plan.badge_rect);
  if (after == examined.page_one) return {};
  // The original's picture was drawn in another child, with its own memory
  // headroom: a page whose drawing nears the memory limit (a huge image:
  // pdf.js's issue6127.pdf takes 1.2 GB at 36 dpi) can come out otherwise
  // there. Before calling it a change, the original is drawn again here, from
  // its bytes (the stamped file's prefix), under the limits `after` had.
  if (after && plan.original_length <= stamped.size() &&
      pdf::page_one_fingerprint(stamped.substr(0, plan.original_length), pdf::page_check_dpi, plan.badge_rect) == after) {
    return {};
  }
  return fail(ErrorKind::internal, name,
              std::string("the stamped file's page 1 ") +
                  (after ? "would look different from the original's" : "could not be drawn, though the original's could") +
                  " (poppler, " + std::to_string(static_cast<int>(pdf::page_check_dpi)) +
                  " dpi" + (examined.plan->badge_rect ? ", outside the badge" : "") +
                  "); pith-stamp keeps only updates that change no page. Please report it to pith's authors with the file");
}


}  // namespace

Result<void> check_stamped_bytes(std::string_view written, const std::string& name, const ExaminedPdf& examined) {
  const pdf::StampPlan& plan = *examined.plan;
  if (auto ok = pdf::check_written_update(written, name, plan.original_length, examined.pages); !ok) return ok;
  return check_page_one(written, name, examined);
}

struct Examiner::Worker {
  Worker(runner::SchedulerOptions options, runner::ChildScheduler::Handler handler)
      : scheduler(std::move(options), std::move(handler)) {}
  runner::ChildScheduler scheduler;
  std::uint64_t next_ticket = 0;
  std::map<std::uint64_t, Result<std::string>> answered;  // answers come in while another is awaited
};

namespace {

ExamineRequest asking(ExamineAsk ask) {
  ExamineRequest request;
  request.ask = ask;
  return request;
}

// The shares of the pages the examining worker and the child drawing page
// 1 read: halves moved by what else each does first, in pages' worth. On
// ten real papers (their authors' builds), page 1's lines (its text and
// what of it is seen) took the time of 3.5-16.5 pages' text (median 11.4),
// page 1's picture 1.2-6.3 (median 3.5); on lipsum 6.9 and 2.6. Without
// the drawing child, the worker reads every page.
std::pair<pdf::PageShare, pdf::PageShare> stamp_shares(bool beside, bool reads_page_lines) {
  constexpr unsigned page_lines_head = 10, picture_head = 4;
  if (!beside) return {pdf::PageShare{0, 1}, pdf::PageShare{0, 1}};
  const std::array<unsigned, 2> head{reads_page_lines ? page_lines_head : 0, picture_head};
  return {pdf::PageShare{0, 2, head}, pdf::PageShare{1, 2, head}};
}

ExamineRequest asking_pages(pdf::PageShare share) {
  ExamineRequest request = asking(ExamineAsk::pages);
  request.share = share;
  return request;
}

}  // namespace

Examiner::Examiner(const StampRunOptions& opt, const OpenFile& file, const registry::TrustStore* trust,
                   const pdf::StampOptions& options)
    : opt_(opt), file_(file) {
  runner::SchedulerOptions scheduling;
  scheduling.limits = child_limits(opt.children, file.size(), &file);
  scheduling.subject = "reading the PDF";
  scheduling.requests_per_worker = 64;  // read, plan, finish, and --force's plan and finish again
  worker_ = std::make_unique<Worker>(std::move(scheduling), examining_worker(opt, file, trust, options));
}

Examiner::~Examiner() = default;

// `request` given to the worker (queued behind the one it is at, if any):
// its ticket, for await_answer.
std::uint64_t Examiner::submit(const ExamineRequest& request) {
  const std::uint64_t ticket = worker_->next_ticket++;
  worker_->scheduler.submit(ticket, encode(request));
  return ticket;
}

// The worker's answer to `ticket`, or why none came (a crash, a limit), for the input.
Result<std::string> Examiner::await_answer(std::uint64_t ticket) {
  auto& answered = worker_->answered;
  while (!answered.contains(ticket)) {
    for (auto& done : worker_->scheduler.wait().done) answered.emplace(done.ticket, std::move(done.answer));
  }
  auto answer = std::move(answered.at(ticket));
  answered.erase(ticket);
  if (!answer) return fail(ErrorKind::malformed, opt_.input, answer.error().message);
  return answer;
}

Result<std::string> Examiner::ask(const ExamineRequest& request) { return await_answer(submit(request)); }

Result<pdf::PageTextRun> Examiner::pages_answer(std::uint64_t ticket) {
  auto sent = await_answer(ticket);
  if (!sent) return std::unexpected(sent.error());
  return decode_pages_read(*sent, opt_.input);
}

// The pages' fingerprint joined from the worker's share (`first`) and the
// drawing child's (whose page 1, drawn or not, goes to `page_one`); the
// worker reads the rest when the drawing child read nothing.
Result<pdf::PageFingerprints> Examiner::read_pages(std::uint64_t first, pdf::PageShare rest,
                                                   std::optional<PageOneDrawing>& drawing,
                                                   std::optional<pdf::PageFingerprint>& page_one) {
  auto runs = std::vector<pdf::PageTextRun>{};
  auto worker_share = pages_answer(first);
  if (!worker_share) return std::unexpected(worker_share.error());
  runs.push_back(std::move(*worker_share));
  if (drawing) {
    PageOneDrawn drawn = drawing->finish();
    page_one = std::move(drawn.page_one);
    auto read = drawn.pages ? Result<pdf::PageTextRun>(std::move(*drawn.pages)) : pages_answer(submit(asking_pages(rest)));
    if (!read) return std::unexpected(read.error());
    runs.push_back(std::move(*read));
  }
  return pdf::join_page_runs(runs);
}

Result<ExaminedPdf> Examiner::read() {
  // The .tex beside is read first (here: the worker's sandbox opens only the
  // PDF). When it names a number, the worker need not look for one page 1
  // prints, which it outranks: page 1's lines are then read beside the
  // drawing child, not before the plan. What it says counts only as below.
  const auto beside = opt_.pith.empty() ? number_beside(opt_.input) : Result<std::optional<tex::TexNumber>>(std::nullopt);
  ExamineRequest reading = asking(ExamineAsk::read);
  reading.printed_number_wanted = !(beside && *beside);
  auto sent = ask(reading);
  if (!sent) return std::unexpected(sent.error());
  auto examined = examined_from_wire(*sent, opt_.input);
  if (!examined) return examined;
  // Without --pith and a number in the metadata, the worker looked for one
  // page 1 prints: it has page 1's lines already (wanted_number).
  page_lines_read_ = opt_.pith.empty() && reading.printed_number_wanted &&
                     !(examined->number && examined->from != printed_number_from);
  // The .tex beside outranks a number page 1 only prints (a hint), not one the PDF's metadata names.
  const bool only_printed = examined->number && examined->from == printed_number_from;
  if (!examined->number || only_printed) {
    if (!beside && !only_printed) return std::unexpected(beside.error());
    if (beside && *beside) {
      examined->number = (*beside)->number.to_string();
      examined->from = "the .tex beside the PDF (" + (*beside)->location() + ")";
    }
  }
  read_ = *examined;
  return examined;
}

Result<ExaminedPdf> Examiner::plan(const registry::VerifiedRecord& record, bool restamp, const OnStamping& on_stamping) {
  // With a parent that acts on the outcome, page 1 is drawn in a child of
  // its own beside the hashing; otherwise the worker draws it at the end.
  ExamineRequest planning = asking(ExamineAsk::plan);
  planning.document = record.document_bytes;
  planning.restamp = restamp;
  auto decided = ask(planning);
  if (!decided) return std::unexpected(decided.error());
  const auto outcome = decode_early_read(*decided);
  if (!outcome) {  // the worker's error, or a malformed answer
    auto examined = examined_from_wire(*decided, opt_.input);
    if (!examined) return examined;
    return fail(ErrorKind::internal, opt_.input, "reading the PDF sent back a malformed result (a plan with no outcome)");
  }
  // With a stamp: the worker reads the first share of the pages' text while
  // this process starts the child that draws page 1 and reads the rest,
  // copies the original and hashes it.
  const bool stamps = outcome->outcome == pdf::StampOutcome::stamped;
  const bool beside = on_stamping && stamps;
  const bool lines_to_read = read_ && !page_lines_read_ && page_text_needed(read_->titles, record);
  const auto [first_share, second_share] = stamp_shares(beside, lines_to_read);
  const std::optional<std::uint64_t> reading_pages =
      stamps ? std::optional(submit(asking_pages(first_share))) : std::nullopt;
  std::optional<PageOneDrawing> drawing;
  if (beside) {
    drawing.emplace(opt_.children, file_, outcome->badge_rect, second_share);
    if (auto started = on_stamping(); !started) return std::unexpected(started.error());  // the children are killed
  }
  ExamineRequest finish = asking(ExamineAsk::finish);
  finish.draw_page_one = !on_stamping;
  std::optional<pdf::PageFingerprint> page_one;
  if (stamps) {
    auto hashed = file_.sha256_hex();  // streamed, in this process: the hash the stamp vouches for is its own
    if (!hashed) return std::unexpected(hashed.error());
    finish.original_sha256 = std::move(*hashed);
    auto pages = read_pages(*reading_pages, second_share, drawing, page_one);
    if (!pages) return std::unexpected(pages.error());
    if (!pages->sha256.empty()) finish.page_text_sha256 = pages->to_property();
  }
  auto finished = ask(finish);
  if (!finished) return std::unexpected(finished.error());
  auto examined = examined_from_wire(*decided + *finished, opt_.input);
  if (examined && examined->plan && drawing) examined->page_one = std::move(page_one);
  if (examined && read_) {  // where the number came from is the read's word (the .tex beside included)
    examined->number = read_->number;
    examined->from = read_->from;
  }
  return examined;
}

Result<void> Examiner::check(const std::string& written_path, const std::string& name, const ExaminedPdf& examined) {
  ExamineRequest checking = asking(ExamineAsk::check);
  checking.written_path = written_path;
  checking.name = name;
  checking.page_one = examined.page_one;
  auto sent = ask(checking);
  if (!sent) return fail(ErrorKind::malformed, name, sent.error().message);
  return decode_written_checked(*sent, name);
}

Result<std::string> Examiner::facts() { return ask(asking(ExamineAsk::facts)); }

WrittenCheck written_check(Examiner& examiner, const std::string& target, const ExaminedPdf& examined) {
  return [&examiner, target, &examined](const std::string& written_path) {
    return examiner.check(written_path, target, examined);
  };
}

Result<void> check_in_memory(Examiner& examiner, const std::string& input, const ExaminedPdf& examined) {
  return examiner.check({}, input, examined);
}

}  // namespace pith::stamp
