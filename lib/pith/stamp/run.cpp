// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/stamp/run.hpp"

#include "pith/base/check_codes.hpp"
#include "pith/base/input_file.hpp"
#include "pith/base/mapped_file.hpp"
#include "pith/base/terminal_text.hpp"
#include "pith/check/file.hpp"
#include "pith/pdf/stamp.hpp"
#include "pith/registry/number.hpp"
#include "pith/registry/record.hpp"
#include "pith/registry/title.hpp"
#include "pith/registry/visible_title.hpp"
#include "pith/registry/trust_store.hpp"
#include "pith/stamp/examine.hpp"
#include "pith/stamp/file_judgement.hpp"
#include "pith/stamp/run_steps.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <functional>
#include <ostream>
#include <sys/stat.h>
#include <unistd.h>

namespace pith::stamp {

using namespace detail;  // the steps shared with run_tex.cpp, pdf_output.cpp, record_steps.cpp

namespace {

namespace fs = std::filesystem;

// The number of the record the PDF carries when it verifies offline (as
// pith-check --offline would say: file_judgement.hpp) and is `number`'s.
std::optional<std::string> pdf_verifies_offline(const StampRunOptions& opt, Examiner& examiner, RunTrust& run_trust,
                                                const std::string& number) {
  const auto& trust = run_trust.get();
  if (!trust) return std::nullopt;
  const check::FileCheck checked = judge_as_pith_check(examiner, opt.input, *trust);
  const Report& report = checked.report;
  if (report.verdict() != Verdict::verified || !registry::same_number(number, report.pith_number)) return std::nullopt;
  return report.pith_number;
}

// A number page 1 only prints is a hint (pdf::where_is_the_number): the
// record it names is stamped only when its title binds the paper (the
// metadata's title, or page 1 showing it), as pith-check binds a resolved
// record; never on the printed text alone.
std::optional<Outcome> refuse_unbound_hint(const StampRunOptions& opt, const ExaminedPdf& examined,
                                           const registry::VerifiedRecord& record, Outcome& outcome) {
  if (examined.from != printed_number_from) return std::nullopt;
  const std::string expected = registry::read_record_metadata(record.canonical_record).title_canon_sha256;
  if (!expected.empty() && (registry::bind_title(examined.titles, expected).verdict == registry::TitleVerdict::match ||
                            registry::find_visible_span(examined.page_lines, expected))) {
    outcome.notes.push_back(StampNote{StampNote::Severity::info,
                                      "the number came from page 1's printed text (no metadata named it); its record's "
                                      "title binds the paper"});
    return std::nullopt;
  }
  outcome.status = Status::wrong_record;
  outcome.failure = ErrorKind::conflict;
  outcome.message = opt.input + ": page 1 prints " + *examined.number +
                    " (no metadata names a number), but the paper shows no title of that record: nothing written "
                    "(give --pith ID to stamp it anyway)";
  return outcome;
}

// "Already stamped" is pith-check's word, not the plan's (issue 22): the
// PDF carries this very record, and pith-check's own judgement of the file
// (as `pith-check --offline FILE`, from the examining worker's read:
// file_judgement.hpp) is verified. Returns that report when it is not (the
// record itself was just verified, and is the registry's current one: only
// the file can be wrong).
std::optional<Report> stamp_not_verified(const StampRunOptions& opt, Examiner& examiner, RunTrust& run_trust,
                                         const registry::PithNumber& number) {
  const auto& trust = run_trust.get();
  if (!trust) {
    Report report;
    report.error = Error{trust.error().kind, {}, trust.error().describe()};
    return report;
  }
  check::FileCheck checked = judge_as_pith_check(examiner, opt.input, *trust);
  if (checked.report.verdict() == Verdict::verified && registry::same_number(number, checked.report.pith_number))
    return std::nullopt;
  return std::move(checked.report);
}

// The first finding that keeps `report` from `verified`: a failure, else
// (altered, unbound, unverifiable) the alteration or the first warning, else the error.
std::string what_is_wrong(const Report& report) {
  if (report.error) return report.error->message;
  if (const Check* why = first_failure(report)) return why->code + ": " + why->detail;
  for (const auto& c : report.checks())
    if (c.shows_alteration) return c.code + ": " + c.detail;
  for (const auto& c : report.checks())
    if (c.status == CheckStatus::warn) return c.code + ": " + c.detail;
  return std::string("verdict ") + to_string(report.verdict());
}

bool failed_on(const Report& report, std::string_view code) {
  const Check* why = first_failure(report);
  return why && why->code == code;
}

// What to do about a stamped PDF that does not verify.
std::string how_to_fix(const StampRunOptions& opt, const Report& report) {
  const std::string again = "; or `pith-stamp --force " + opt.input + "` stamps it again as it is now";
  if (failed_on(report, check_code::pdf_title_mismatch) || report.verdict() == Verdict::unbound) {
    return "If the paper's title was edited after its pith.sty was generated, restore the record's title (or "
           "register the new one), then rebuild: `pith-stamp " + fs::path(opt.input).replace_extension(".tex").string() +
           "`, then LaTeX; if this PDF is another paper, give it its own number (--pith ID --force)" + again;
  }
  if (failed_on(report, check_code::pdf_arxiv_mismatch)) return "Its arXiv watermark names another paper: rebuild it from the paper's sources" + again;
  if (report.verdict() == Verdict::altered)
    return "Its text changed after stamping: if the change is the author's, rebuild the PDF and stamp it again, else use "
           "the PDF as stamped" + again;
  return "It was edited after stamping: rebuild the PDF and stamp it again" + again;
}

Outcome not_verified(const StampRunOptions& opt, Outcome outcome, const std::string& number, Report report) {
  outcome.status = Status::not_verified;
  outcome.failure = kind_of_unverified(report.verdict());
  outcome.message = opt.input + ": already carries the record of " + number + ", but pith-check says " +
                    to_string(report.verdict()) + " (" + what_is_wrong(report) + "); nothing written. " +
                    how_to_fix(opt, report);
  outcome.file_check = std::move(report);
  return outcome;
}

pdf::StampOptions stamp_options(const StampRunOptions& opt) {
  pdf::StampOptions so;
  so.resolver = link_base(opt);
  so.force = opt.force;
  so.badge = opt.badge;
  so.source_date_epoch = opt.source_date_epoch;
  return so;  // original_sha256 unset: hashed by this process (Examiner::plan), only when the plan stamps
}

// ---- stamp_pdf's steps. A step that may end the run returns the outcome
// then (a Stop), or nullopt to go on.
using Stop = std::optional<Outcome>;

// The file as it is before anything is read: there, writable when it is
// replaced in place, one name when a new file is renamed over it.
Stop refuse_input(const StampRunOptions& opt, struct stat& before) {
  if (::stat(opt.input.c_str(), &before) != 0)
    return failure(Status::error, ErrorKind::io, opt.input + ": cannot open: " + std::strerror(errno));
  if (auto refused_read_only = refuse_read_only(opt, before)) return refused_read_only;
  return refuse_hard_linked(opt, before);
}

Outcome no_number(const StampRunOptions& opt) {
  return failure(Status::no_number, ErrorKind::not_found,
                 opt.input + ": no Pith Number given or found. Give one with --pith ID, put \\pithnumber{ID} in " +
                     fs::path(opt.input).replace_extension(".tex").string() +
                     ", or build the PDF with the pith LaTeX package");
}

// The record of `number` (`obtained` first, unless --pith had it obtained
// already): verified, and the number's; otherwise what ends the run (what
// the PDF carries kept offline, not obtained, unverified, another number's).
Stop judge_record(const StampRunOptions& opt, Examiner& examiner, RunTrust& trust,
                  std::optional<Result<ObtainedRecord>>& obtained, const std::string& number, const std::string& from,
                  Outcome& outcome) {
  if (!obtained) obtained = obtain_record(opt, trust, number, outcome);
  if (!*obtained && registry_unreachable(opt, obtained->error())) {
    if (auto kept = pdf_verifies_offline(opt, examiner, trust, number)) return kept_offline(opt, obtained->error(), *kept, opt.input, "its record");
  }
  if (!*obtained) return not_obtained(obtained->error());
  if (const auto* refused = std::get_if<registry::DocumentVerification>(&**obtained))
    return unverified(opt, outcome, *refused, number);
  const registry::VerifiedRecord& record = std::get<registry::VerifiedRecord>(**obtained);
  outcome.pith_number = record.number().to_string();
  if (!registry::same_number(record.number(), number))
    return wrong_record(opt, outcome, outcome.pith_number, from + " names " + number);
  return std::nullopt;
}

// The copy of the original, begun when the examining worker says the plan
// stamps (a no-op costs no copy), and what went wrong beginning it.
struct Copy {
  std::optional<AtomicRewrite> rewrite;
  std::optional<Error> failed;
};

// The plan for `record` from the examining worker, into `examined`; a copy
// that could not begin is named as such.
Stop plan_with(Examiner& examiner, const registry::VerifiedRecord& record, bool restamp, const OnStamping& start_copy,
               const Copy& copy, Result<ExaminedPdf>& examined) {
  examined = examiner.plan(record, restamp, start_copy);
  if (!examined && copy.failed) return failure(Status::error, copy.failed->kind, copy.failed->describe());
  if (!examined) return refused(examined.error());
  return std::nullopt;
}

// "Already stamped" only when pith-check says verified (not_verified
// otherwise); --force plans again, over what pith-check said (`forced_over`).
Stop settle_already_stamped(const StampRunOptions& opt, Examiner& examiner, RunTrust& trust,
                            const registry::VerifiedRecord& record, Outcome& outcome,
                            const std::function<Stop()>& plan_again, std::optional<std::string>& forced_over) {
  auto report = stamp_not_verified(opt, examiner, trust, record.number());
  if (!report) return std::nullopt;
  if (!opt.force) return not_verified(opt, outcome, outcome.pith_number, std::move(*report));
  forced_over = std::string(to_string(report->verdict())) + " (" + what_is_wrong(*report) + ")";
  return plan_again();
}

// The plan's notes (and --force's warning) and where it writes.
void take_plan_notes(const StampRunOptions& opt, const pdf::StampPlan& plan, const std::optional<std::string>& forced_over,
                     Outcome& outcome) {
  outcome.notes.clear();
  for (const auto& note : plan.notes) outcome.notes.push_back(StampNote{StampNote::Severity::info, note});
  for (const auto& warning : plan.warnings) outcome.notes.push_back(StampNote{StampNote::Severity::warning, warning});
  if (forced_over) outcome.notes.push_back(warning_note("--force: stamped again although pith-check said " + *forced_over));
  outcome.output = opt.output.empty() ? opt.input : opt.output;
}

// The original, unchanged, to -o OUT or -o - (in place: nothing to write).
Outcome written_as_it_is(const StampRunOptions& opt, const OpenFile& file, Outcome outcome) {
  if (opt.dry_run || (!writes_to_stdout(opt) && in_place(opt))) return outcome;
  auto ok = writes_to_stdout(opt) ? write_to_descriptor(STDOUT_FILENO, opt.input, file.size(), {})
                                  : write_atomically(opt.output, opt.input, file.size(), {}, FileAttributes{file.mode()},
                                                     {}, AtTargetLink::replace);
  return ok ? outcome : failure(Status::error, ok.error().kind, ok.error().describe());
}

// A plan that writes no update: another number's stamp (conflict), or this
// record's already (then -o OUT and -o - still get the file as it is).
Outcome without_update(const StampRunOptions& opt, const OpenFile& file, const pdf::StampPlan& plan, Outcome outcome) {
  if (plan.outcome == pdf::StampOutcome::conflict) {
    outcome.status = Status::conflict;
    outcome.failure = ErrorKind::conflict;
    outcome.message = opt.input + " already carries " + plan.previous_number.value_or("another Pith Number") +
                      "; refusing to stamp " + outcome.pith_number + " (use --force to replace it)";
    return outcome;
  }
  outcome.status = Status::already_stamped;
  outcome.message = opt.input + ": already stamped with " + outcome.pith_number;
  return written_as_it_is(opt, file, std::move(outcome));
}

// A PDF kept as it is (its record still verifies offline) is still written
// where -o OUT or -o - asks: the user gets the file the exit code vouches for.
Outcome kept_where_asked(const StampRunOptions& opt, const OpenFile& file, Outcome outcome) {
  if (!outcome.kept_offline || (!writes_to_stdout(opt) && in_place(opt))) return outcome;
  if (!writes_to_stdout(opt)) outcome.output = opt.output;
  return written_as_it_is(opt, file, std::move(outcome));
}

// Before writing: the record's paper (its title, or page 1 showing it), a
// printed number's record bound by its title, and the file unchanged since it was read.
Stop refuse_before_writing(const StampRunOptions& opt, const ExaminedPdf& examined, const registry::VerifiedRecord& record,
                           const struct stat& before, Outcome& outcome) {
  if (auto refused_paper = refuse_other_paper(opt, examined.titles, examined.page_lines, record, outcome)) return refused_paper;
  if (auto refused_hint = refuse_unbound_hint(opt, examined, record, outcome)) return refused_hint;
  if (!same_file_state(opt.input, before))
    return failure(Status::error, ErrorKind::io, opt.input + ": the file changed while pith-stamp read it; nothing written");
  return std::nullopt;
}

// The update written (checked before it is kept: pdf_output.cpp).
Outcome written(const StampRunOptions& opt, const OpenFile& file, Examiner& examiner, const ExaminedPdf& examined,
                std::optional<AtomicRewrite>& copy, Outcome outcome) {
  const pdf::StampPlan& plan = *examined.plan;
  outcome.status = Status::stamped;
  outcome.original_length = plan.original_length;
  outcome.original_sha256 = plan.original_sha256;
  outcome.update_bytes = plan.update.size();
  if (auto ok = write_stamp(opt, file, examiner, examined, copy); !ok) {
    outcome.status = Status::error;
    outcome.failure = ok.error().kind;
    outcome.message = ok.error().describe();
  }
  return outcome;
}

// `pith`: --pith, parsed (the text goes to the resolver as typed).
Outcome stamp_pdf(const StampRunOptions& opt, const std::optional<registry::PithNumber>& pith) {
  struct stat before {};
  if (auto refused_input = refuse_input(opt, before)) return *refused_input;
  auto file = OpenFile::open(opt.input);  // not mapped here: the reading children map it (examine.hpp)
  if (!file) return failure(Status::error, file.error().kind, file.error().describe());

  Outcome outcome;
  Copy copy;
  OnStamping start_copy;
  if (copies_the_original(opt) && !opt.dry_run) {
    start_copy = [&]() -> Result<void> {
      auto begun = begin_copy(opt, *file);
      if (!begun) return std::unexpected(*(copy.failed = begun.error()));
      copy.rewrite.emplace(std::move(*begun));
      return {};
    };
  }
  // --pith names the number without reading the PDF: the record is obtained
  // first. What goes wrong is still reported in the order of the steps (the
  // PDF, its number, the record). The trust store is loaded before the
  // examining worker starts: it verifies the record it is handed with it.
  RunTrust trust(opt);
  const auto& loaded_trust = trust.get();
  Examiner examiner(opt, *file, loaded_trust ? &*loaded_trust : nullptr, stamp_options(opt));
  std::optional<Result<ObtainedRecord>> obtained;
  if (pith) obtained = obtain_record(opt, trust, opt.pith, outcome);
  auto examined = examiner.read();
  if (!examined) return refused(examined.error());
  if (!examined->number) return no_number(opt);
  if (auto stop = judge_record(opt, examiner, trust, obtained, *examined->number, examined->from, outcome))
    return kept_where_asked(opt, *file, std::move(*stop));
  const registry::VerifiedRecord& record = std::get<registry::VerifiedRecord>(**obtained);

  const auto plan_again = [&] { return plan_with(examiner, record, /*restamp=*/true, start_copy, copy, examined); };
  std::optional<std::string> forced_over;
  Stop stop = plan_with(examiner, record, /*restamp=*/false, start_copy, copy, examined);
  if (!stop && examined->plan->outcome == pdf::StampOutcome::already_stamped)
    stop = settle_already_stamped(opt, examiner, trust, record, outcome, plan_again, forced_over);
  if (stop) return *stop;
  take_plan_notes(opt, *examined->plan, forced_over, outcome);
  if (examined->plan->outcome != pdf::StampOutcome::stamped) return without_update(opt, *file, *examined->plan, outcome);
  if (auto refused_write = refuse_before_writing(opt, *examined, record, before, outcome)) return *refused_write;
  return written(opt, *file, examiner, *examined, copy.rewrite, outcome);
}

}  // namespace

const char* to_string(StampRunStatus status) {
  switch (status) {
    case Status::stamped: return "stamped";
    case Status::already_stamped: return "already_stamped";
    case Status::no_number: return "no_number";
    case Status::unverified: return "unverified";
    case Status::wrong_record: return "wrong_record";
    case Status::conflict: return "conflict";
    case Status::not_verified: return "not_verified";
    case Status::error: return "error";
  }
  return "error";
}

std::string StampNote::to_string() const { return severity == Severity::warning ? "warning: " + text : text; }

nlohmann::json StampRunOutcome::to_json(const std::string& input) const {
  nlohmann::json j{{"input", input}, {"status", to_string(status)}, {"exit_code", exit_code()}};
  if (!message.empty()) j["message"] = message;
  if (!pith_number.empty()) j["pith_number"] = pith_number;
  if (!output.empty()) j["output"] = output;
  if (original_length) j["original_length"] = *original_length;
  if (!original_sha256.empty()) j["original_sha256"] = original_sha256;
  if (update_bytes) j["update_bytes"] = *update_bytes;
  if (!notes.empty()) {
    j["notes"] = nlohmann::json::array();
    for (const auto& note : notes) j["notes"].push_back(note.to_string());
  }
  if (!warnings.empty()) j["warnings"] = warnings;
  if (kept_offline) j["offline"] = true;
  if (!record_source.empty()) j["record_source"] = record_source;
  if (verification) j["verification"] = verification->to_json();
  if (file_check) j["file_check"] = file_check->to_json();
  if (dry_run) j["dry_run"] = true;
  return j;
}

StampRunOutcome run_stamp(const StampRunOptions& options) {
  if (options.append && !options.output.empty())
    return failure(Status::error, ErrorKind::usage, "--append updates FILE in place; it cannot be combined with -o");
  if (options.output == "-" && fs::path(options.input).extension() == ".tex")
    return failure(Status::error, ErrorKind::usage, "-o - (standard output) is for PDFs; a .tex is stamped by writing pith.sty beside it");
  // --pith is parsed here, once; the steps compare the parsed number.
  std::optional<registry::PithNumber> pith;
  if (!options.pith.empty()) {
    auto parsed = registry::parse_pith_number(options.pith);
    if (!parsed) {
      return failure(Status::error, ErrorKind::usage,
                     "--pith " + options.pith + ": malformed Pith Number: " + parsed.error().message +
                         " (expected pith:YYYY:<26 characters A-Z 2-7>, pith:<26> or the bare 26 characters)");
    }
    pith = std::move(*parsed);
  }
  if (fs::path(options.input).extension() == ".tex") {
    if (options.dry_run)
      return failure(Status::error, ErrorKind::usage, "--dry-run is for PDFs; a .tex is stamped by writing pith.sty beside it");
    return stamp_tex_file(options, pith);
  }
  StampRunOutcome outcome = stamp_pdf(options, pith);
  outcome.dry_run = options.dry_run;
  return outcome;
}

void print_stamp_outcome(const std::string& input, const StampRunOutcome& o, const StampPrintOptions& print,
                         std::ostream& out, std::ostream& err) {
  if (print.json) {
    out << o.to_json(input).dump(print.each_in_a_line ? -1 : 2, ' ', false, nlohmann::json::error_handler_t::replace)
        << "\n";
    return;
  }
  for (const auto& w : o.warnings) err << "pith-stamp: warning: " << w << "\n";
  if (!o.succeeded()) {
    err << "pith-stamp: " << terminal_safe(o.message) << "\n";
    if (o.verification && print.verbose) err << o.verification->to_text(false);
    if (o.file_check && print.verbose) err << o.file_check->to_text(false);
    return;
  }
  const bool quiet = !print.verbose && !o.dry_run && !print.each_in_a_line;
  if (!print.verbose) {  // quiet on success (latexmk), but never about a warning
    for (const auto& n : o.notes)
      if (n.severity == StampNote::Severity::warning) err << "pith-stamp: " << n.to_string() << "\n";
  }
  if (quiet) return;
  if (o.status == Status::already_stamped) {
    err << "pith-stamp: " << terminal_safe(o.message) << " (nothing to do)\n";
    return;
  }
  err << "pith-stamp: " << terminal_safe(o.output.empty() ? input : o.output)
      << (o.dry_run ? ": would be stamped with " : ": stamped with ") << terminal_safe(o.pith_number);
  if (o.original_length) err << " (+" << *o.update_bytes << " bytes after the original " << *o.original_length << ")";
  err << (o.dry_run ? "; dry run: nothing written\n" : "\n");
  if (!print.verbose) return;
  for (const auto& n : o.notes) err << "pith-stamp: " << terminal_safe(n.to_string()) << "\n";
}

}  // namespace pith::stamp
