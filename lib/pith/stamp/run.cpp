#include "pith/stamp/run.hpp"

#include "pith/base/atomic_file.hpp"
#include "pith/base/exit_codes.hpp"
#include "pith/base/input_file.hpp"
#include "pith/base/mapped_file.hpp"
#include "pith/base/terminal_text.hpp"
#include "pith/pdf/extract.hpp"
#include "pith/pdf/reader.hpp"
#include "pith/pdf/stamp.hpp"
#include "pith/pdf/vocabulary.hpp"
#include "pith/registry/number.hpp"
#include "pith/registry/trust_store.hpp"
#include "pith/registry/verify.hpp"
#include "pith/resolver/resolver.hpp"
#include "pith/signed_json/strict.hpp"
#include "pith/tex/source.hpp"
#include "pith/tex/stamp.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>
#include <sys/stat.h>

namespace pith::stamp {
namespace {

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
Result<registry::DocumentVerification> obtain_record(const StampRunOptions& opt, const std::string& number, Outcome& outcome) {
  std::vector<std::string> warnings;
  registry::TrustStore trust = registry::TrustStore::with_defaults(&warnings);
  for (const auto& k : opt.trust_keys)
    if (auto ok = trust.add_key_file(k); !ok) return std::unexpected(ok.error());
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
    case Verdict::unverifiable: return ErrorKind::unverifiable;
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

// pith-stamp paper.tex: find the paper's \pithnumber, get and verify its
// record (--bundle or the resolver), then write pith.sty (tex/stamp.hpp).
Outcome stamp_tex_file(const StampRunOptions& opt) {
  auto found = tex::find_pith_number(opt.input);
  if (!found) {
    if (found.error().kind == ErrorKind::not_found)
      return failure(Status::no_number, ErrorKind::not_found, found.error().describe());
    return refused(found.error());
  }
  const std::string number =
      !opt.pith.empty() ? opt.pith : found->number.to_string();

  Outcome outcome;
  auto verification = obtain_record(opt, number, outcome);
  if (!verification) return not_obtained(verification.error());
  outcome.pith_number = verification->content().pith_number;  // derived from the record, as before
  if (!verification->record()) return unverified(opt, outcome, verification->report, number);
  const registry::VerifiedRecord& record = *verification->record();
  if (!tex::record_matches(*found, record)) {
    return wrong_record(opt, outcome, record.pith_number,
                        opt.input + " has \\pithnumber{" + found->number.body + "} at " + found->location());
  }

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

bool same_file_state(const std::string& path, const struct stat& before) {
  struct stat now {};
  return ::stat(path.c_str(), &now) == 0 && now.st_ino == before.st_ino && now.st_dev == before.st_dev &&
         now.st_size == before.st_size && now.st_mtim.tv_sec == before.st_mtim.tv_sec &&
         now.st_mtim.tv_nsec == before.st_mtim.tv_nsec;
}

bool same_path(const std::string& a, const std::string& b) { return fs::absolute(a) == fs::absolute(b); }

// Writes the plan's update: appended in place, or a new file renamed over the target.
Result<void> write_stamp(const StampRunOptions& opt, const MappedFile& file, const pdf::StampPlan& plan) {
  if (opt.append) return append_in_place(opt.input, plan.original_length, plan.update);
  const std::string target = opt.output.empty() ? opt.input : opt.output;
  FileAttributes attrs{file.mode()};
  if (opt.output.empty() || same_path(opt.output, opt.input)) {
    attrs.owner = file.owner();
    attrs.group = file.group();
  }
  return write_atomically(target, opt.input, plan.original_length, plan.update, attrs);
}

Outcome stamp_pdf(const StampRunOptions& opt) {
  struct stat before {};
  if (::stat(opt.input.c_str(), &before) != 0)
    return failure(Status::error, ErrorKind::io, opt.input + ": cannot open: " + std::strerror(errno));
  auto file = MappedFile::open(opt.input);
  if (!file) return failure(Status::error, file.error().kind, file.error().describe());
  auto reader = pdf::Reader::open(file->bytes(), opt.input);
  if (!reader) return refused(reader.error());
  // The metadata is read once: for the number here, and to stamp over in plan_stamp.
  const pdf::PdfMetadata metadata = pdf::read_pdf_metadata(*reader);
  if (metadata.pith_parts_unreadable) {
    std::string problems;
    for (const auto& p : metadata.read_problems) problems += (problems.empty() ? "" : "; ") + p;
    return refused(Error{ErrorKind::malformed, opt.input, problems});
  }
  // An XMP packet refused unread (too large, too deep) names no number here,
  // and plan_stamp refuses to merge into it.
  const pdf::PdfExtraction extraction = pdf::extract_pith_numbers(metadata).value_or(pdf::PdfExtraction{});

  std::string from;
  const auto number = wanted_number(opt, metadata, extraction, from);
  if (!number) {
    return failure(Status::no_number, ErrorKind::not_found,
                   opt.input + ": no Pith Number given or found. Give one with --pith ID, put \\pithnumber{ID} in " +
                       fs::path(opt.input).replace_extension(".tex").string() +
                       ", or build the PDF with the pith LaTeX package");
  }

  Outcome outcome;
  auto verification = obtain_record(opt, *number, outcome);
  if (!verification) return not_obtained(verification.error());
  outcome.pith_number = verification->content().pith_number;  // derived from the record, as before
  if (!verification->record()) return unverified(opt, outcome, verification->report, *number);
  const registry::VerifiedRecord& record = *verification->record();
  if (!registry::same_number(*number, record.pith_number))
    return wrong_record(opt, outcome, record.pith_number, from + " names " + *number);

  pdf::StampOptions so;
  so.resolver = link_base(opt);
  so.force = opt.force;
  so.badge = opt.badge;
  so.source_date_epoch = opt.source_date_epoch;
  so.original_sha256 = file->sha256_hex();
  auto plan = pdf::plan_stamp(*reader, metadata, extraction, record, so);
  if (!plan) return refused(plan.error());
  outcome.notes = plan->notes;
  outcome.output = opt.output.empty() ? opt.input : opt.output;

  switch (plan->outcome) {
    case pdf::StampOutcome::conflict:
      outcome.status = Status::conflict;
      outcome.failure = ErrorKind::conflict;
      outcome.message = opt.input + " already carries " + plan->previous_number.value_or("another Pith Number") +
                        "; refusing to stamp " + record.pith_number + " (use --force to replace it)";
      return outcome;
    case pdf::StampOutcome::already_stamped:
      outcome.status = Status::already_stamped;
      outcome.message = opt.input + ": already stamped with " + record.pith_number;
      if (!opt.output.empty() && !same_path(opt.output, opt.input)) {
        auto ok = write_atomically(opt.output, opt.input, file->bytes().size(), {}, FileAttributes{file->mode()});
        if (!ok) return failure(Status::error, ok.error().kind, ok.error().describe());
      }
      return outcome;
    case pdf::StampOutcome::stamped: break;
  }
  outcome.status = Status::stamped;
  outcome.original_length = plan->original_length;
  outcome.original_sha256 = plan->original_sha256;
  outcome.update_bytes = plan->update.size();

  if (!same_file_state(opt.input, before)) {
    return failure(Status::error, ErrorKind::io,
                   opt.input + ": the file changed while pith-stamp read it; nothing written");
  }
  if (auto written = write_stamp(opt, *file, *plan); !written) {
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
    case Status::error: return "error";
  }
  return "error";
}

int StampRunOutcome::exit_code() const { return failure ? exit_code_for(*failure) : exit_code::ok; }

nlohmann::json StampRunOutcome::to_json(const std::string& input) const {
  nlohmann::json j{{"input", input}, {"status", to_string(status)}, {"exit_code", exit_code()}};
  if (!message.empty()) j["message"] = message;
  if (!pith_number.empty()) j["pith_number"] = pith_number;
  if (!output.empty()) j["output"] = output;
  if (original_length) j["original_length"] = *original_length;
  if (!original_sha256.empty()) j["original_sha256"] = original_sha256;
  if (update_bytes) j["update_bytes"] = *update_bytes;
  if (!notes.empty()) j["notes"] = notes;
  if (!record_source.empty()) j["record_source"] = record_source;
  if (verification) j["verification"] = verification->to_json();
  return j;
}

StampRunOutcome run_stamp(const StampRunOptions& options) {
  if (options.append && !options.output.empty())
    return failure(Status::error, ErrorKind::usage, "--append updates FILE in place; it cannot be combined with -o");
  if (fs::path(options.input).extension() == ".tex") return stamp_tex_file(options);
  return stamp_pdf(options);
}

void print_stamp_outcome(const std::string& input, const StampRunOutcome& o, const StampPrintOptions& print,
                         std::ostream& out, std::ostream& err) {
  if (print.json) {
    out << o.to_json(input).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    return;
  }
  if (!o.succeeded()) {
    err << "pith-stamp: " << terminal_safe(o.message) << "\n";
    if (o.verification && print.verbose) err << o.verification->to_text(false);
    return;
  }
  if (!print.verbose) return;  // quiet on success (latexmk)
  if (o.status == Status::already_stamped) {
    err << "pith-stamp: " << terminal_safe(o.message) << " (nothing to do)\n";
    return;
  }
  err << "pith-stamp: " << terminal_safe(o.output.empty() ? input : o.output) << ": stamped with " << terminal_safe(o.pith_number);
  if (o.original_length) err << " (+" << *o.update_bytes << " bytes after the original " << *o.original_length << ")";
  err << "\n";
  for (const auto& n : o.notes) err << "pith-stamp: " << terminal_safe(n) << "\n";
}

}  // namespace pith::stamp
