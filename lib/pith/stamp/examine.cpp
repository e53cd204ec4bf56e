// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/stamp/examine.hpp"

#include "pith/base/child_process.hpp"
#include "pith/pdf/extract.hpp"
#include "pith/pdf/page_fingerprint.hpp"
#include "pith/pdf/page_text.hpp"
#include "pith/pdf/reader.hpp"
#include "pith/pdf/update.hpp"
#include "pith/registry/record.hpp"
#include "pith/registry/visible_title.hpp"
#include "pith/tex/source.hpp"

#include <filesystem>
#include <sstream>

namespace pith::stamp {
namespace {

namespace fs = std::filesystem;

// \pithnumber{...} in the .tex beside the PDF (same base name), ignoring comments.
std::optional<std::string> number_from_tex_beside(const fs::path& pdf) {
  fs::path tex = pdf;
  tex.replace_extension(".tex");
  std::error_code ec;
  if (!fs::is_regular_file(tex, ec)) return std::nullopt;
  auto found = tex::find_pith_number(tex);
  if (!found) return std::nullopt;
  return found->number.to_string();
}

// The number the user wants: --pith, else the PDF's own metadata, else the .tex beside it.
std::optional<std::string> wanted_number(const StampRunOptions& opt, const pdf::PdfMetadata& metadata,
                                         const pdf::PdfExtraction& extraction, std::string& from) {
  if (!opt.pith.empty()) return from = "--pith", opt.pith;
  if (metadata.info_number && !metadata.info_number->empty())
    return from = "the PDF's Info /PithNumber", *metadata.info_number;
  const auto& xmp = extraction.xmp;
  if (xmp && xmp->parsed && xmp->number && !xmp->number->empty()) return from = "the PDF's XMP pith:number", *xmp->number;
  if (auto n = number_from_tex_beside(opt.input)) return from = "the .tex beside the PDF", *n;
  return std::nullopt;
}

std::string to_wire(const nlohmann::json& j) { return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); }

// Enums travel by name, never by number (their order is no protocol), and
// a name that spells none is a malformed message.
nlohmann::json error_to_wire(const Error& e) {
  return {{"error", {{"kind", to_string(e.kind)}, {"where", e.where}, {"message", e.message}}}};
}

const char* outcome_name(pdf::StampOutcome outcome) {
  switch (outcome) {
    case pdf::StampOutcome::stamped: return "stamped";
    case pdf::StampOutcome::already_stamped: return "already_stamped";
    case pdf::StampOutcome::conflict: return "conflict";
  }
  return "conflict";  // not reached: the switch covers every outcome
}

std::optional<pdf::StampOutcome> outcome_named(const nlohmann::json& name) {
  if (!name.is_string()) return std::nullopt;
  for (const auto outcome : {pdf::StampOutcome::stamped, pdf::StampOutcome::already_stamped, pdf::StampOutcome::conflict})
    if (name.get<std::string>() == outcome_name(outcome)) return outcome;
  return std::nullopt;
}

// An error sent by a child, or nullopt when `wire` holds none.
std::optional<Error> error_from_wire(const nlohmann::json& wire) {
  if (!wire.is_object() || !wire.contains("error")) return std::nullopt;
  const auto& e = wire["error"];
  Error error{ErrorKind::internal, "", "malformed error from the child process"};
  const auto kind = e.is_object() && e.contains("kind") && e["kind"].is_string()
                        ? error_kind_named(e["kind"].get<std::string>())
                        : std::nullopt;
  if (kind && e.contains("where") && e["where"].is_string() && e.contains("message") && e["message"].is_string()) {
    error = Error{*kind, e["where"].get<std::string>(), e["message"].get<std::string>()};
  }
  return error;
}

// The child's limits: what it maps counts against the memory limit (this
// process maps nothing of the PDF, so it is counted once, whatever its
// size). `file`: the descriptor of the PDF, kept open in the child, which
// maps it and hashes it with pread.
ChildLimits child_limits(std::uint64_t mapped_bytes, const OpenFile* file = nullptr) {
  ChildLimits limits;
  limits.memory_bytes = (std::uint64_t{1} << 30) + mapped_bytes;
  if (file) limits.keep_descriptor = file->fd();
  return limits;
}

// A child's result as JSON, or why there is none (the crash or limit, named for `input`).
Result<nlohmann::json> run_reading_child(const std::string& subject, const std::string& input, std::uint64_t mapped_bytes,
                                         const std::function<nlohmann::json()>& work, const OpenFile* file = nullptr) {
  auto sent = run_in_child(subject, [&work] { return to_wire(work()); }, child_limits(mapped_bytes, file));
  if (!sent) return fail(ErrorKind::malformed, input, sent.error().message);
  auto wire = nlohmann::json::parse(*sent, nullptr, /*allow_exceptions=*/false);
  if (wire.is_discarded()) return fail(ErrorKind::internal, input, subject + " sent back no complete result");
  if (auto error = error_from_wire(wire)) return std::unexpected(*error);
  return wire;
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

// Whether page 1's text can tell anything the title metadata does not: the
// record has a title hash and the metadata does not match it (stamp/run's
// refuse_other_paper reads the text only then).
bool page_text_needed(const std::vector<registry::TitleCandidate>& titles, const registry::VerifiedRecord& record) {
  const std::string expected = registry::read_record_metadata(record.canonical_record).title_canon_sha256;
  return !expected.empty() && registry::bind_title(titles, expected).verdict != registry::TitleVerdict::match;
}

// ---- The wire between the examining child and the parent: a first line
// (sent early when there is a plan) with what was read and the plan's
// outcome; with a plan, a second line with the rest of it, then the update's
// bytes (they need not be UTF-8). Either line may be an error instead.

nlohmann::json first_line(const ExaminedPdf& examined) {
  nlohmann::json titles = nlohmann::json::array();
  for (const auto& t : examined.titles) titles.push_back({{"where", t.where}, {"title", t.title}});
  nlohmann::json wire{{"from", examined.from}, {"titles", titles}};
  if (examined.number) wire["number"] = *examined.number;
  if (examined.plan) wire["outcome"] = outcome_name(examined.plan->outcome);
  if (examined.plan && examined.plan->badge_rect) wire["badge_rect"] = *examined.plan->badge_rect;
  return wire;
}

nlohmann::json second_line(const ExaminedPdf& examined) {
  const pdf::StampPlan& plan = *examined.plan;
  nlohmann::json wire{{"original_sha256", plan.original_sha256},
                      {"original_length", plan.original_length},
                      {"notes", plan.notes},
                      {"warnings", plan.warnings},
                      {"page_lines", examined.page_lines}};
  if (plan.previous_number) wire["previous_number"] = *plan.previous_number;
  if (examined.pages) wire["pages"] = *examined.pages;
  if (plan.badge_rect) wire["badge_rect"] = *plan.badge_rect;
  if (examined.page_one) {
    wire["page_one"] = {{"width", examined.page_one->width},
                        {"height", examined.page_one->height},
                        {"sha256", examined.page_one->sha256}};
  }
  return wire;
}

// In the child. Sends the first line early when there is a plan: the
// parent may start copying while the original is hashed here.
std::string examine_in_child(const StampRunOptions& opt, const OpenFile& file, const registry::VerifiedRecord* record,
                             pdf::StampOptions options, const EarlySend& send_early, bool draw_page_one) {
  const auto mapped = MappedFile::map(file);
  if (!mapped) return to_wire(error_to_wire(mapped.error())) + "\n";
  auto readout = read_pdf(opt.input, mapped->bytes());
  if (!readout) return to_wire(error_to_wire(readout.error())) + "\n";
  ExaminedPdf examined;
  examined.number = wanted_number(opt, readout->metadata, readout->extraction, examined.from);
  examined.titles = title_metadata(*readout);
  if (!record) return to_wire(first_line(examined)) + "\n";

  const bool hash_later = !options.original_sha256;
  // Whether there is anything to write does not depend on the hash: decided first.
  if (hash_later) options.original_sha256 = std::string(64, '0');
  auto plan = pdf::plan_stamp(readout->reader, readout->metadata, readout->extraction, *record, options);
  if (!plan) return to_wire(error_to_wire(plan.error())) + "\n";
  examined.plan = std::move(*plan);
  send_early(to_wire(first_line(examined)) + "\n");
  if (examined.plan->outcome == pdf::StampOutcome::stamped) {
    if (hash_later) {
      auto hashed_original = file.sha256_hex();  // streamed: the mapping is for what the update reads
      if (!hashed_original) return to_wire(error_to_wire(hashed_original.error())) + "\n";
      options.original_sha256 = std::move(*hashed_original);
    }
    // Every page's text as stamped, fingerprinted for telling a later re-save
    // from an edit. The badge's appearance is text on page 1 (poppler reads
    // annotations too): with one, the pages are read with the update appended.
    // (One view of the file and the update, as the written check reads
    // them: no copy of the whole file.)
    pdf::PageFingerprints pages;
    if (examined.plan->adds_badge) {
      const auto with_update = MappedFile::map(file, examined.plan->update);
      if (!with_update) return to_wire(error_to_wire(with_update.error())) + "\n";
      pages = pdf::fingerprint_pages(with_update->bytes());
    } else {
      pages = pdf::fingerprint_pages(mapped->bytes());
    }
    if (!pages.sha256.empty()) options.page_text_sha256 = pages.to_property();
    auto hashed = pdf::plan_stamp(readout->reader, readout->metadata, readout->extraction, *record, options);
    if (!hashed) return to_wire(error_to_wire(hashed.error())) + "\n";
    examined.plan = std::move(*hashed);
    if (page_text_needed(examined.titles, *record))
      examined.page_lines = pdf::read_page_text(mapped->bytes(), readout->metadata.link_uris).seen_lines();  // as pith-check
    if (draw_page_one)
      examined.page_one = pdf::page_one_fingerprint(mapped->bytes(), pdf::page_check_dpi, examined.plan->badge_rect);
  }
  if (auto pages = readout->reader.page_count()) examined.pages = *pages;
  return to_wire(second_line(examined)) + "\n" + examined.plan->update;
}

// The next line of `sent` from `at` (moved past it), or nullopt when there is none.
std::optional<std::string_view> next_line(std::string_view sent, std::size_t& at) {
  const std::size_t newline = sent.find('\n', at);
  if (newline == std::string_view::npos) return std::nullopt;
  const std::string_view line = sent.substr(at, newline - at);
  at = newline + 1;
  return line;
}

Result<nlohmann::json> parse_line(std::optional<std::string_view> line, const std::string& input) {
  if (!line) return fail(ErrorKind::internal, input, "reading the PDF sent back no complete result");
  auto wire = nlohmann::json::parse(*line, nullptr, /*allow_exceptions=*/false);
  if (wire.is_discarded() || !wire.is_object())
    return fail(ErrorKind::internal, input, "reading the PDF sent back a malformed result");
  if (auto error = error_from_wire(wire)) return std::unexpected(*error);
  return wire;
}

Result<ExaminedPdf> examined_from_wire(std::string_view sent, const std::string& input) {
  std::size_t at = 0;
  auto first = parse_line(next_line(sent, at), input);
  if (!first) return std::unexpected(first.error());
  ExaminedPdf examined;
  try {
    if (first->contains("number")) examined.number = first->at("number").get<std::string>();
    examined.from = first->at("from").get<std::string>();
    for (const auto& t : first->at("titles"))
      examined.titles.push_back({t.at("where").get<std::string>(), t.at("title").get<std::string>()});
    if (!first->contains("outcome")) return examined;
    auto second = parse_line(next_line(sent, at), input);
    if (!second) return std::unexpected(second.error());
    pdf::StampPlan plan;
    const auto outcome = outcome_named(first->at("outcome"));
    if (!outcome) return fail(ErrorKind::internal, input, "reading the PDF sent back a malformed result");
    plan.outcome = *outcome;
    plan.original_sha256 = second->at("original_sha256").get<std::string>();
    plan.original_length = second->at("original_length").get<std::uint64_t>();
    plan.notes = second->at("notes").get<std::vector<std::string>>();
    plan.warnings = second->at("warnings").get<std::vector<std::string>>();
    if (second->contains("previous_number")) plan.previous_number = second->at("previous_number").get<std::string>();
    if (second->contains("pages")) examined.pages = second->at("pages").get<std::uint64_t>();
    if (second->contains("badge_rect")) plan.badge_rect = second->at("badge_rect").get<std::array<double, 4>>();
    if (second->contains("page_one")) {
      const auto& p = second->at("page_one");
      examined.page_one = pdf::PageFingerprint{p.at("width").get<int>(), p.at("height").get<int>(),
                                               p.at("sha256").get<std::string>()};
    }
    examined.page_lines = second->at("page_lines").get<std::vector<std::string>>();
    plan.update = std::string(sent.substr(at));
    examined.plan = std::move(plan);
  } catch (const nlohmann::json::exception&) {
    return fail(ErrorKind::internal, input, "reading the PDF sent back a malformed result");
  }
  return examined;
}

// What the early first line says, once it has arrived whole: the plan's
// outcome and the badge's rectangle.
struct EarlyPlan {
  pdf::StampOutcome outcome = pdf::StampOutcome::stamped;
  std::optional<pdf::PdfRect> badge_rect;
};

std::optional<EarlyPlan> early_plan(std::string_view received) {
  const std::size_t newline = received.find('\n');
  if (newline == std::string_view::npos) return std::nullopt;
  const auto wire = nlohmann::json::parse(received.substr(0, newline), nullptr, /*allow_exceptions=*/false);
  if (!wire.is_object() || !wire.contains("outcome")) return std::nullopt;
  const auto outcome = outcome_named(wire["outcome"]);
  if (!outcome) return std::nullopt;
  EarlyPlan early{*outcome, std::nullopt};
  try {
    if (wire.contains("badge_rect")) early.badge_rect = wire["badge_rect"].get<pdf::PdfRect>();
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
  return early;
}

// Page 1 of the original drawn in a child of its own, started when the plan
// is known to stamp: it runs beside the planning child's hashing and the
// parent's copy instead of after them.
std::string fingerprint_to_wire(const std::optional<pdf::PageFingerprint>& f) {
  return f ? std::to_string(f->width) + " " + std::to_string(f->height) + " " + f->sha256 : std::string();
}

std::optional<pdf::PageFingerprint> fingerprint_from_wire(const std::string& sent) {
  std::istringstream in(sent);
  pdf::PageFingerprint f;
  if (!(in >> f.width >> f.height >> f.sha256) || f.width <= 0 || f.height <= 0 || f.sha256.size() != 64) return std::nullopt;
  return f;
}

ChildProcess start_drawing(const OpenFile& file, const std::optional<pdf::PdfRect>& badge_rect) {
  return ChildProcess::start(
      "drawing page 1",
      [&file, badge_rect]() -> std::string {
        const auto mapped = MappedFile::map(file);  // in the child, as the planning child maps it
        if (!mapped) return {};                     // nothing drawn: no picture to keep
        return fingerprint_to_wire(pdf::page_one_fingerprint(mapped->bytes(), pdf::page_check_dpi, badge_rect));
      },
      child_limits(file.size(), &file));
}

// A drawing that failed (poppler crashed or hit a limit) draws nothing: as
// for a page 1 poppler cannot draw, there is no picture to keep.
std::optional<pdf::PageFingerprint> finish_drawing(ChildProcess& drawing) {
  read_until_done_or_deadline(drawing);
  auto sent = drawing.finish();
  return sent ? fingerprint_from_wire(*sent) : std::nullopt;
}

// Page 1 of the stamped bytes against the original's, in the checking
// child: the same picture apart from the badge, or nothing is kept.
Result<void> check_page_one(std::string_view stamped, const std::string& name, const ExaminedPdf& examined) {
  if (!examined.page_one) return {};  // poppler could not draw the original's page 1: nothing to keep
  const auto after = pdf::page_one_fingerprint(stamped, pdf::page_check_dpi, examined.plan->badge_rect);
  if (after == examined.page_one) return {};
  return fail(ErrorKind::internal, name,
              std::string("the stamped file's page 1 ") +
                  (after ? "would look different from the original's" : "could not be drawn, though the original's could") +
                  " (poppler, " + std::to_string(static_cast<int>(pdf::page_check_dpi)) +
                  " dpi" + (examined.plan->badge_rect ? ", outside the badge" : "") +
                  "); pith-stamp keeps only updates that change no page. Please report it to pith's authors with the file");
}

Result<void> check_written(std::string_view written, const std::string& name, const ExaminedPdf& examined) {
  const pdf::StampPlan& plan = *examined.plan;
  if (auto ok = pdf::check_written_update(written, name, plan.original_length, examined.pages); !ok) return ok;
  return check_page_one(written, name, examined);
}

}  // namespace

Result<ExaminedPdf> examine_pdf(const StampRunOptions& opt, const OpenFile& file, const registry::VerifiedRecord* record,
                                const pdf::StampOptions& options, const OnStamping& on_stamping) {
  const std::string subject = record ? "reading the PDF and planning the update" : "reading the PDF";
  // With a parent that acts on the early line, page 1 is drawn in a child of
  // its own; otherwise the planning child draws it at the end.
  const bool parent_draws = static_cast<bool>(on_stamping);
  ChildProcess child = ChildProcess::start(
      subject,
      [&](const EarlySend& send_early) {
        return examine_in_child(opt, file, record, options, send_early, /*draw_page_one=*/!parent_draws);
      },
      child_limits(file.size(), &file));
  std::optional<ChildProcess> drawing;
  if (on_stamping) {
    read_until_or_deadline(child, [&] { return child.received().find('\n') != std::string_view::npos; });
    if (const auto early = early_plan(child.received()); early && early->outcome == pdf::StampOutcome::stamped) {
      drawing.emplace(start_drawing(file, early->badge_rect));
      if (auto started = on_stamping(); !started) return std::unexpected(started.error());  // the children are killed
    }
  }
  read_until_done_or_deadline(child);
  auto sent = child.finish();
  if (!sent) return fail(ErrorKind::malformed, opt.input, sent.error().message);
  auto examined = examined_from_wire(*sent, opt.input);
  if (examined && examined->plan && drawing) examined->page_one = finish_drawing(*drawing);
  return examined;
}

WrittenCheck written_check(const std::string& target, const ExaminedPdf& examined) {
  return [target, &examined](const std::string& written_path) -> Result<void> {
    const pdf::StampPlan& plan = *examined.plan;
    auto wire = run_reading_child("checking the written file", target, plan.original_length, [&]() -> nlohmann::json {
      auto written = MappedFile::open(written_path);
      if (!written) return error_to_wire(written.error());
      auto ok = check_written(written->bytes(), target, examined);
      return ok ? nlohmann::json::object() : error_to_wire(ok.error());
    });
    if (!wire) return std::unexpected(wire.error());
    return {};
  };
}

Result<void> check_in_memory(const std::string& input, const OpenFile& file, const ExaminedPdf& examined) {
  const pdf::StampPlan& plan = *examined.plan;
  auto wire = run_reading_child("checking the stamped bytes", input, file.size() + plan.update.size(),
                                [&]() -> nlohmann::json {
                                  auto whole = MappedFile::map(file, plan.update);
                                  if (!whole) return error_to_wire(whole.error());
                                  auto ok = check_written(whole->bytes(), input, examined);
                                  return ok ? nlohmann::json::object() : error_to_wire(ok.error());
                                }, &file);
  if (!wire) return std::unexpected(wire.error());
  return {};
}

}  // namespace pith::stamp
