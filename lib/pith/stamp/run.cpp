// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/stamp/run.hpp"

#include "pith/base/atomic_file.hpp"
#include "pith/base/check_codes.hpp"
#include "pith/base/child_process.hpp"
#include "pith/base/exit_codes.hpp"
#include "pith/base/input_file.hpp"
#include "pith/base/mapped_file.hpp"
#include "pith/check/file.hpp"
#include "pith/base/terminal_text.hpp"
#include "pith/pdf/stamp.hpp"
#include "pith/pdf/vocabulary.hpp"
#include "pith/registry/documents.hpp"
#include "pith/registry/identifier.hpp"
#include "pith/registry/number.hpp"
#include "pith/registry/title.hpp"
#include "pith/registry/visible_title.hpp"
#include "pith/registry/trust_store.hpp"
#include "pith/registry/verify.hpp"
#include "pith/resolver/resolver.hpp"
#include "pith/signed_json/strict.hpp"
#include "pith/stamp/examine.hpp"
#include "pith/tex/source.hpp"
#include "pith/tex/stamp.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <ostream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace pith::stamp {
namespace {

StampNote warning_note(std::string text) { return StampNote{StampNote::Severity::warning, std::move(text)}; }

namespace fs = std::filesystem;
using Status = StampRunStatus;
using Outcome = StampRunOutcome;

Outcome failure(Status status, ErrorKind kind, std::string message) {
  Outcome o;
  o.status = status;
  o.failure = kind;
  o.message = std::move(message);
  return o;
}

// A failed step: nothing was written.
Outcome refused(const Error& e) { return failure(Status::error, e.kind, e.describe() + "; nothing written"); }

// The base written into the PDF or pith.sty (/PithURL, XMP resolverUrl, the
// badge link): --resolver when it is a web address, else the public default.
std::string link_base(const StampRunOptions& opt) { return pdf::meta::published_resolver(opt.registry.resolver_url); }

// A state alone is not signed (only its record's receipt is): embedding it
// would carry its unsigned lists into the PDF as if they were the record's.
// pith-stamp embeds only signed bundles.
std::unexpected<Error> refuse_state(const StampRunOptions& opt, const std::string& origin, const std::string& number) {
  return fail(ErrorKind::usage, origin,
              "is a state document (state.json), which is not signed: pith-stamp embeds only a signed bundle; give "
              "the record's bundle.json (" + pdf::resolver_url(link_base(opt), number) + "/bundle.json)");
}

// The verification of the record for `number`: from --bundle, else from the
// resolver (which hands out only verified records). Verification uses only
// the tool's trust store: the pinned key, the user's key directory and
// --trust-key files; never a key shipped in the data.
Result<registry::TrustStore> trust_store(const StampRunOptions& opt) { return registry::TrustStore::load(opt.trust_keys); }

Result<registry::DocumentVerification> obtain_record(const StampRunOptions& opt, const std::string& number, Outcome& outcome) {
  auto trusted = trust_store(opt);
  if (!trusted) return std::unexpected(trusted.error());
  const registry::TrustStore& trust = *trusted;
  if (!opt.bundle.empty()) {
    // Read with the bound of signed JSON (8 MiB), not whole and then checked.
    auto bytes = read_input_file(opt.bundle, signed_json::StrictJsonLimits{}.max_bytes);
    if (!bytes) return fail(bytes.error().kind, opt.bundle, "cannot read the bundle file: " + bytes.error().message);
    auto record = registry::verify_document(*bytes, trust, opt.bundle);
    if (record) outcome.verification = record->report;
    if (record && record->kind() == registry::DocumentKind::state) return refuse_state(opt, opt.bundle, number);
    return record;
  }
  resolver::Resolver resolver(opt.registry, resolver::verifier_using(trust));
  auto resolution = resolver.resolve(number);
  if (!resolution) return std::unexpected(resolution.error());
  outcome.verification = resolution->record.report;
  outcome.record_source = resolution->source;
  if (resolution->record.kind == registry::DocumentKind::state) return refuse_state(opt, resolution->source, number);
  Report report = resolution->record.report;  // verified: the resolver hands out only verified records
  return registry::DocumentVerification(std::move(resolution->record), std::move(report));
}

// A record that could not be obtained. One the resolver refused (forged,
// tampered, substituted, untrusted) is an unverified record, as it is
// through --bundle; the rest is an error.
Outcome not_obtained(const Error& e) {
  const bool refused_record = e.kind == ErrorKind::rejected || e.kind == ErrorKind::unverifiable;
  Outcome o = refused(e);
  if (refused_record) o.status = Status::unverified;
  return o;
}

const Check* first_failure(const Report& report) {
  for (const auto& check : report.checks())
    if (check.status == CheckStatus::fail) return &check;
  return nullptr;
}

// What a record that is not `verified` means: tampered or forged data, or
// nothing trusted to verify it with.
ErrorKind kind_of_unverified(Verdict verdict) {
  switch (verdict) {
    case Verdict::unverifiable:
    case Verdict::unbound: return ErrorKind::unverifiable;
    case Verdict::error: return ErrorKind::malformed;
    case Verdict::not_found: return ErrorKind::not_found;
    case Verdict::verified:
    case Verdict::failed: break;
  }
  return ErrorKind::rejected;
}

// The outcome for a record whose report is not `verified`, naming the first failed check.
Outcome unverified(const StampRunOptions& opt, Outcome outcome, const Report& report, const std::string& number) {
  outcome.failure = kind_of_unverified(report.verdict());
  outcome.status = Status::unverified;
  const std::string origin = !opt.bundle.empty() ? opt.bundle : !outcome.record_source.empty() ? outcome.record_source : number;
  outcome.message = origin + ": the record did not verify (" + to_string(report.verdict()) + ")";
  if (const Check* why = first_failure(report)) outcome.message += ": " + why->code + ": " + why->detail;
  else if (report.verdict() == Verdict::unverifiable)
    outcome.message += ": no signature by a trusted key (add the registry key with --trust-key FILE)";
  outcome.message += "; nothing written (-v shows every check)";
  return outcome;
}

Outcome wrong_record(const StampRunOptions& opt, Outcome outcome, const std::string& record_number,
                     const std::string& wanted) {
  outcome.status = Status::wrong_record;
  outcome.failure = ErrorKind::conflict;
  outcome.message = (opt.bundle.empty() ? std::string("the resolved record") : opt.bundle) + " is the record of " +
                    record_number + ", but " + wanted + "; nothing written";
  return outcome;
}

// The registry could not be reached (a network error, never a refused
// record, and never with --bundle).
bool registry_unreachable(const StampRunOptions& opt, const Error& e) {
  return opt.bundle.empty() && e.kind == ErrorKind::network;
}

// Offline is not an error when what is already there still verifies: the
// warning says so, unless the user asked for --offline.
Outcome kept_offline(const StampRunOptions& opt, const Error& unreachable, std::string pith_number, std::string output,
                     const std::string& what) {
  Outcome o;
  o.status = Status::already_stamped;
  o.kept_offline = true;
  o.pith_number = std::move(pith_number);
  o.output = std::move(output);
  o.message = o.output + ": kept; " + what + " of " + o.pith_number + " still verifies offline";
  if (!opt.registry.offline)
    o.warnings.push_back("the registry could not be reached (" + unreachable.describe() + "); " + o.message);
  return o;
}

// pith-stamp paper.tex with the registry out of reach: keep a pith.sty
// whose record still verifies for the paper's number, else say what to do.
Outcome stamp_tex_offline(const StampRunOptions& opt, const tex::TexNumber& number, const Error& unreachable) {
  const std::string sty = tex::sty_path_for(opt.input).string();
  auto trust = trust_store(opt);
  if (!trust) return refused(trust.error());
  auto kept = tex::verify_existing_sty(opt.input, number, *trust);
  if (kept) return kept_offline(opt, unreachable, kept->pith_number, sty, "its record");
  Outcome o = refused(unreachable);
  o.message = unreachable.describe() + "; and " + kept.error().describe() +
              ". Connect to the registry and run 'pith-stamp " + opt.input + "' again, or give the paper's registry "
              "bundle with --bundle FILE";
  return o;
}

// A name for the record's paper: its number, and its arXiv id when it has one.
std::string record_paper(const registry::VerifiedRecord& record) {
  const auto arxiv = registry::record_arxiv_source(record.canonical_record);
  return arxiv ? record.pith_number + " (arXiv:" + arxiv->to_string() + ")" : record.pith_number;
}

// Before writing: is this the record's paper? The paper's titles against the
// record's title hash. A mismatch refuses (exit 1, unless --force), unless
// page 1 shows the record's title (then the metadata is wrong: a warning,
// as pith-check says); nothing to compare with is a warning note
// (pith-check would say `unbound`).
// `no_title`: why there is no title to compare, when the caller knows better
// than "the PDF has no title" (a .tex whose \title is not plain text).
std::optional<Outcome> refuse_other_paper(const StampRunOptions& opt, const std::vector<registry::TitleCandidate>& titles,
                                          const std::vector<std::string>& visible_lines, const registry::VerifiedRecord& record,
                                          Outcome& outcome, const std::string& no_title = {}) {
  const std::string expected = registry::read_record_metadata(record.canonical_record).title_canon_sha256;
  if (expected.empty()) {
    outcome.notes.push_back(warning_note("the record has no title hash: " + opt.input + " was not compared with it"));
    return std::nullopt;
  }
  const auto metadata = registry::bind_title(titles, expected);
  const bool visible = registry::find_visible_span(visible_lines, expected).has_value();
  if (metadata.verdict == registry::TitleVerdict::mismatch && visible) {
    // The paper a reader sees is the record's; its producer wrote a wrong
    // title into the metadata (acmart: `\title{\vspace{-10pt}...}` gives
    // "-10pt..."). Metadata is a hint: pith-check warns, so do we.
    outcome.notes.push_back(warning_note(opt.input + ": " + metadata.detail +
                                         ", but page 1 shows the record's title: stamped (pith-check will warn "
                                         "pdf.title.mismatch)"));
    return std::nullopt;
  }
  if (metadata.verdict == registry::TitleVerdict::mismatch) {
    const std::string why =
        opt.input + ": " + metadata.detail + "; the record " + record_paper(record) + " has another title";
    if (opt.force) {
      outcome.notes.push_back(warning_note("--force: stamped although " + why));
      return std::nullopt;
    }
    outcome.status = Status::wrong_record;
    outcome.failure = ErrorKind::conflict;
    outcome.message = why + "; nothing written (use --force to stamp anyway)";
    return outcome;
  }
  if (metadata.verdict == registry::TitleVerdict::match || visible) return std::nullopt;
  if (titles.empty() && !no_title.empty()) {
    outcome.notes.push_back(warning_note("could not confirm that " + opt.input + " is the paper of " + record_paper(record) +
                            ": " + no_title + " (pith-check on the built PDF compares the title it shows)"));
    return std::nullopt;
  }
  outcome.notes.push_back(warning_note("could not confirm that " + opt.input + " is the paper of " + record_paper(record) +
                          ": " + metadata.detail + (visible_lines.empty() ? "" : ", and its text does not show the record's title") +
                          " (pith-check will call it unbound unless its arXiv id ties them)"));
  return std::nullopt;
}

// pith-stamp paper.tex: find the paper's \pithnumber, get and verify its
// record (--bundle or the resolver), then write pith.sty (tex/stamp.hpp).
// --pith on a .tex is honoured only as the number the paper names: pith.sty
// is read by the paper's \pithnumber, so another number would be written
// for nothing (or contradict it). Disagreeing, or no \pithnumber: exit 2.
Outcome stamp_tex_file(const StampRunOptions& opt) {
  auto found = tex::find_pith_number(opt.input);
  if (!found) {
    if (found.error().kind == ErrorKind::not_found) {
      if (!opt.pith.empty()) {
        return failure(Status::error, ErrorKind::usage,
                       opt.input + ": --pith " + opt.pith + " given, but the paper has no \\pithnumber{...}: add " +
                           "\\pithnumber{" + registry::parse_pith_number(opt.pith)->body +
                           "} to it (pith.sty is written for the number the paper names)");
      }
      return failure(Status::no_number, ErrorKind::not_found, found.error().describe());
    }
    return refused(found.error());
  }
  if (!opt.pith.empty() && !registry::same_number(opt.pith, found->number.to_string())) {
    return failure(Status::error, ErrorKind::usage,
                   opt.input + " has \\pithnumber{" + found->number.body + "} at " + found->location() +
                       ", but --pith names " + opt.pith + ": change one so both name the same number");
  }
  const std::string number = found->number.to_string();

  Outcome outcome;
  auto verification = obtain_record(opt, number, outcome);
  if (!verification && registry_unreachable(opt, verification.error()))
    return stamp_tex_offline(opt, *found, verification.error());
  if (!verification) return not_obtained(verification.error());
  outcome.pith_number = verification->content().pith_number;  // derived from the record, as before
  if (!verification->record()) return unverified(opt, outcome, verification->report, number);
  const registry::VerifiedRecord& record = *verification->record();
  if (!tex::record_matches(*found, record)) {
    return wrong_record(opt, outcome, record.pith_number,
                        opt.input + " has \\pithnumber{" + found->number.body + "} at " + found->location());
  }

  std::vector<registry::TitleCandidate> titles;
  const auto title = tex::read_plain_title(opt.input);
  if (title) titles.push_back({"\\title", *title});
  const std::string no_title = title ? std::string() : title.error().describe();
  if (auto refused_paper = refuse_other_paper(opt, titles, {}, record, outcome, no_title)) return *refused_paper;

  tex::TexStampOptions options;
  options.sty.resolver_base = link_base(opt);
  auto result = tex::stamp_tex(opt.input, record, options);
  if (!result) {
    // The number and the record were checked above: what is left is writing pith.sty.
    Outcome o = refused(result.error());
    o.pith_number = record.pith_number;
    o.verification = outcome.verification;
    return o;
  }
  outcome.status = result->written ? Status::stamped : Status::already_stamped;
  outcome.message = result->sty_path.string() + (result->written ? ": written" : ": already up to date");
  outcome.output = result->sty_path.string();
  return outcome;
}

bool same_file_state(const std::string& path, const struct stat& before) {
  struct stat now {};
  return ::stat(path.c_str(), &now) == 0 && now.st_ino == before.st_ino && now.st_dev == before.st_dev &&
         now.st_size == before.st_size && now.st_mtim.tv_sec == before.st_mtim.tv_sec &&
         now.st_mtim.tv_nsec == before.st_mtim.tv_nsec;
}

bool same_path(const std::string& a, const std::string& b) { return fs::absolute(a) == fs::absolute(b); }

bool writes_to_stdout(const StampRunOptions& opt) { return opt.output == "-"; }

bool in_place(const StampRunOptions& opt) { return opt.output.empty() || same_path(opt.output, opt.input); }

// Whether the stamp copies the original (in place or -o OUT) rather than
// appending to it or writing it to standard output.
bool copies_the_original(const StampRunOptions& opt) { return !opt.append && !writes_to_stdout(opt); }

// The copy of the original beside the target, made in the kernel while the
// examining child hashes the original (examine.hpp). In place, a link is
// followed to the PDF the user named (and we read); an -o path that is a
// link is replaced, never written through.
Result<AtomicRewrite> begin_copy(const StampRunOptions& opt, const OpenFile& file) {
  const std::string target = in_place(opt) ? opt.input : opt.output;
  return AtomicRewrite::begin(target, opt.input, file.size(),
                              in_place(opt) ? AtTargetLink::follow : AtTargetLink::replace, PrefixHash::none);
}

// Writes the plan's update: after the copy of the original (renamed over
// the target), appended in place, or (-o -) with the original on standard
// output. Each is checked before it is kept.
Result<void> write_stamp(const StampRunOptions& opt, const OpenFile& file, const ExaminedPdf& examined,
                         std::optional<AtomicRewrite>& copy) {
  const pdf::StampPlan& plan = *examined.plan;
  if (writes_to_stdout(opt)) {
    if (auto ok = check_in_memory(opt.input, file, examined); !ok) return ok;
    std::cout.flush();
    return write_to_descriptor(STDOUT_FILENO, opt.input, plan.original_length, plan.update);
  }
  if (opt.append) return append_in_place(opt.input, plan.original_length, plan.update, written_check(opt.input, examined));
  if (!copy) return fail(ErrorKind::internal, opt.input, "internal: the copy of the original was not made");
  FileAttributes attrs{file.mode()};
  if (in_place(opt)) {
    attrs.owner = file.owner();
    attrs.group = file.group();
    attrs.extended_attributes_from = opt.input;
  }
  return copy->finish(plan.update, attrs, written_check(in_place(opt) ? opt.input : opt.output, examined));
}

// In place (not --append) replaces the file: a read-only one is refused as
// --append's open for writing would be.
std::optional<Outcome> refuse_read_only(const StampRunOptions& opt, const struct stat& st) {
  if (writes_to_stdout(opt) || !in_place(opt) || opt.append) return std::nullopt;
  if ((st.st_mode & 0222) != 0 && ::access(opt.input.c_str(), W_OK) == 0) return std::nullopt;
  return failure(Status::error, ErrorKind::io,
                 opt.input + ": the file is read-only; nothing written (make it writable with `chmod u+w`, "
                             "or write a stamped copy with -o OUT)");
}

// In place (not --append) replaces the file by a new one renamed over its
// name: a file with other names (hard links) would keep the unstamped bytes
// under those, silently. Refused, naming the two ways that keep every name
// right (issue 23).
std::optional<Outcome> refuse_hard_linked(const StampRunOptions& opt, const struct stat& st) {
  if (writes_to_stdout(opt) || !in_place(opt) || opt.append || st.st_nlink <= 1) return std::nullopt;
  return failure(Status::error, ErrorKind::usage,
                 opt.input + ": the file has " + std::to_string(st.st_nlink) +
                     " names (hard links), and stamping in place replaces it under this name only, leaving the "
                     "others unstamped; nothing written (use --append to stamp it in place under every name, or "
                     "-o OUT to write a stamped copy)");
}

// The number of the record the PDF carries when it verifies offline (as
// pith-check --offline would say, in a child process) and is `number`'s.
std::optional<std::string> pdf_verifies_offline(const StampRunOptions& opt, const std::string& number) {
  auto trust = trust_store(opt);
  if (!trust) return std::nullopt;
  const check::FileCheck checked = check::check_file(opt.input, *trust);
  const Report& report = checked.report;
  if (report.verdict() != Verdict::verified || !registry::same_number(number, report.pith_number)) return std::nullopt;
  return report.pith_number;
}

// "Already stamped" is pith-check's word, not the plan's (issue 22): the
// PDF carries this very record, and pith-check's own judgement of the file
// (check::check_file, as `pith-check --offline FILE`, in a child) is
// verified. Returns that report when it is not (the record itself was just
// verified, and is the registry's current one: only the file can be wrong).
std::optional<Report> stamp_not_verified(const StampRunOptions& opt, const std::string& number) {
  auto trust = trust_store(opt);
  if (!trust) {
    Report report;
    report.error = Error{trust.error().kind, {}, trust.error().describe()};
    return report;
  }
  check::FileCheck checked = check::check_file(opt.input, *trust);
  if (checked.report.verdict() == Verdict::verified && registry::same_number(number, checked.report.pith_number))
    return std::nullopt;
  return std::move(checked.report);
}

// The first finding that keeps `report` from `verified`: a failure, else
// (unbound, unverifiable) the first warning or skip, else the error.
std::string what_is_wrong(const Report& report) {
  if (report.error) return report.error->message;
  if (const Check* why = first_failure(report)) return why->code + ": " + why->detail;
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
  return so;  // original_sha256 unset: hashed in the examining child, only when the plan stamps
}

// The record to plan with when it was obtained before the PDF was read:
// verified, and the record of the number --pith names.
const registry::VerifiedRecord* record_for_pith(const StampRunOptions& opt,
                                                const std::optional<Result<registry::DocumentVerification>>& obtained) {
  if (!obtained || !*obtained || !(*obtained)->record()) return nullptr;
  const registry::VerifiedRecord& record = *(*obtained)->record();
  return registry::same_number(opt.pith, record.pith_number) ? &record : nullptr;
}

Outcome stamp_pdf(const StampRunOptions& opt) {
  struct stat before {};
  if (::stat(opt.input.c_str(), &before) != 0)
    return failure(Status::error, ErrorKind::io, opt.input + ": cannot open: " + std::strerror(errno));
  if (auto refused_read_only = refuse_read_only(opt, before)) return *refused_read_only;
  if (auto refused_links = refuse_hard_linked(opt, before)) return *refused_links;
  auto file = OpenFile::open(opt.input);  // not mapped here: the reading children map it (examine.hpp)
  if (!file) return failure(Status::error, file.error().kind, file.error().describe());

  Outcome outcome;
  const pdf::StampOptions so = stamp_options(opt);
  // The copy starts when the examining child says the plan stamps, and runs
  // while the child hashes the original: a no-op costs no copy.
  std::optional<AtomicRewrite> copy;
  std::optional<Error> copy_failed;
  OnStamping start_copy;
  if (copies_the_original(opt)) {
    start_copy = [&]() -> Result<void> {
      auto begun = begin_copy(opt, *file);
      if (!begun) return std::unexpected(*(copy_failed = begun.error()));
      copy.emplace(std::move(*begun));
      return {};
    };
  }
  // --pith names the number without reading the PDF: the record is obtained
  // first, and one child reads the PDF and plans. What goes wrong is still
  // reported in the order of the steps (the PDF, its number, the record).
  std::optional<Result<registry::DocumentVerification>> verification;
  if (!opt.pith.empty()) verification = obtain_record(opt, opt.pith, outcome);
  auto examined = examine_pdf(opt, *file, record_for_pith(opt, verification), so, start_copy);
  if (!examined && copy_failed) return failure(Status::error, copy_failed->kind, copy_failed->describe());
  if (!examined) return refused(examined.error());
  if (!examined->number) {
    return failure(Status::no_number, ErrorKind::not_found,
                   opt.input + ": no Pith Number given or found. Give one with --pith ID, put \\pithnumber{ID} in " +
                       fs::path(opt.input).replace_extension(".tex").string() +
                       ", or build the PDF with the pith LaTeX package");
  }
  const std::string number = *examined->number;
  const std::string from = examined->from;

  if (!verification) verification = obtain_record(opt, number, outcome);
  if (!*verification && registry_unreachable(opt, verification->error())) {
    if (auto kept = pdf_verifies_offline(opt, number)) return kept_offline(opt, verification->error(), *kept, opt.input, "its record");
  }
  if (!*verification) return not_obtained(verification->error());
  outcome.pith_number = (*verification)->content().pith_number;  // derived from the record, as before
  if (!(*verification)->record()) return unverified(opt, outcome, (*verification)->report, number);
  const registry::VerifiedRecord& record = *(*verification)->record();
  if (!registry::same_number(number, record.pith_number))
    return wrong_record(opt, outcome, record.pith_number, from + " names " + number);

  if (!examined->plan) {  // the number was the PDF's: now plan with its record
    examined = examine_pdf(opt, *file, &record, so, start_copy);
    if (!examined && copy_failed) return failure(Status::error, copy_failed->kind, copy_failed->describe());
    if (!examined) return refused(examined.error());
  }
  // Already stamped: so only when pith-check says verified; --force stamps again.
  std::optional<std::string> forced_over;
  if (examined->plan->outcome == pdf::StampOutcome::already_stamped) {
    if (auto report = stamp_not_verified(opt, record.pith_number)) {
      if (!opt.force) return not_verified(opt, outcome, record.pith_number, std::move(*report));
      forced_over = std::string(to_string(report->verdict())) + " (" + what_is_wrong(*report) + ")";
      pdf::StampOptions again = so;
      again.restamp = true;
      examined = examine_pdf(opt, *file, &record, again, start_copy);
      if (!examined && copy_failed) return failure(Status::error, copy_failed->kind, copy_failed->describe());
      if (!examined) return refused(examined.error());
    }
  }
  const pdf::StampPlan& plan = *examined->plan;
  outcome.notes.clear();
  for (const auto& note : plan.notes) outcome.notes.push_back(StampNote{StampNote::Severity::info, note});
  for (const auto& warning : plan.warnings) outcome.notes.push_back(StampNote{StampNote::Severity::warning, warning});
  if (forced_over) outcome.notes.push_back(warning_note("--force: stamped again although pith-check said " + *forced_over));
  outcome.output = opt.output.empty() ? opt.input : opt.output;

  switch (plan.outcome) {
    case pdf::StampOutcome::conflict:
      outcome.status = Status::conflict;
      outcome.failure = ErrorKind::conflict;
      outcome.message = opt.input + " already carries " + plan.previous_number.value_or("another Pith Number") +
                        "; refusing to stamp " + record.pith_number + " (use --force to replace it)";
      return outcome;
    case pdf::StampOutcome::already_stamped:
      outcome.status = Status::already_stamped;
      outcome.message = opt.input + ": already stamped with " + record.pith_number;
      if (writes_to_stdout(opt)) {
        if (auto ok = write_to_descriptor(STDOUT_FILENO, opt.input, file->size(), {}); !ok)
          return failure(Status::error, ok.error().kind, ok.error().describe());
      } else if (!in_place(opt)) {
        auto ok = write_atomically(opt.output, opt.input, file->size(), {}, FileAttributes{file->mode()}, {},
                                   AtTargetLink::replace);
        if (!ok) return failure(Status::error, ok.error().kind, ok.error().describe());
      }
      return outcome;
    case pdf::StampOutcome::stamped: break;
  }
  if (auto refused_paper = refuse_other_paper(opt, examined->titles, examined->page_lines, record, outcome)) return *refused_paper;
  outcome.status = Status::stamped;
  outcome.original_length = plan.original_length;
  outcome.original_sha256 = plan.original_sha256;
  outcome.update_bytes = plan.update.size();

  if (!same_file_state(opt.input, before)) {
    return failure(Status::error, ErrorKind::io,
                   opt.input + ": the file changed while pith-stamp read it; nothing written");
  }
  if (auto written = write_stamp(opt, *file, *examined, copy); !written) {
    outcome.status = Status::error;
    outcome.failure = written.error().kind;
    outcome.message = written.error().describe();
  }
  return outcome;
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
  return j;
}

StampRunOutcome run_stamp(const StampRunOptions& options) {
  if (options.append && !options.output.empty())
    return failure(Status::error, ErrorKind::usage, "--append updates FILE in place; it cannot be combined with -o");
  if (options.output == "-" && fs::path(options.input).extension() == ".tex")
    return failure(Status::error, ErrorKind::usage, "-o - (standard output) is for PDFs; a .tex is stamped by writing pith.sty beside it");
  if (!options.pith.empty()) {
    if (auto parsed = registry::parse_pith_number(options.pith); !parsed) {
      return failure(Status::error, ErrorKind::usage,
                     "--pith " + options.pith + ": malformed Pith Number: " + parsed.error().message +
                         " (expected pith:YYYY:<26 characters A-Z 2-7>, pith:<26> or the bare 26 characters)");
    }
  }
  if (fs::path(options.input).extension() == ".tex") return stamp_tex_file(options);
  return stamp_pdf(options);
}

void print_stamp_outcome(const std::string& input, const StampRunOutcome& o, const StampPrintOptions& print,
                         std::ostream& out, std::ostream& err) {
  if (print.json) {
    out << o.to_json(input).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    return;
  }
  for (const auto& w : o.warnings) err << "pith-stamp: warning: " << w << "\n";
  if (!o.succeeded()) {
    err << "pith-stamp: " << terminal_safe(o.message) << "\n";
    if (o.verification && print.verbose) err << o.verification->to_text(false);
    if (o.file_check && print.verbose) err << o.file_check->to_text(false);
    return;
  }
  if (!print.verbose) {  // quiet on success (latexmk), but never about a warning
    for (const auto& n : o.notes)
      if (n.severity == StampNote::Severity::warning) err << "pith-stamp: " << n.to_string() << "\n";
    return;
  }
  if (o.status == Status::already_stamped) {
    err << "pith-stamp: " << terminal_safe(o.message) << " (nothing to do)\n";
    return;
  }
  err << "pith-stamp: " << terminal_safe(o.output.empty() ? input : o.output) << ": stamped with " << terminal_safe(o.pith_number);
  if (o.original_length) err << " (+" << *o.update_bytes << " bytes after the original " << *o.original_length << ")";
  err << "\n";
  for (const auto& n : o.notes) err << "pith-stamp: " << terminal_safe(n.to_string()) << "\n";
}

}  // namespace pith::stamp
