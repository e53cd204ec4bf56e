// pith-stamp: write a verified, signed Pith record into a compiled PDF as one
// incremental update (or, for a .tex file, into a generated pith.sty).
//
// Exit codes (lib/pith/exit_codes.hpp): 0 stamped or already stamped;
// 1 verification failed, the record is not for this number, or the PDF
// already carries a different Pith Number (use --force to replace it);
// 2 usage, unreadable/encrypted/damaged PDF, write failure; 3 no Pith Number
// given or found; 4 nothing trusted to verify the record with.
#include "pith/base/atomic_file.hpp"
#include "pith/base/exit_codes.hpp"
#include "pith/base/mapped_file.hpp"
#include "pith/pdf/metadata.hpp"
#include "pith/pdf/reader.hpp"
#include "pith/pdf/stamp.hpp"
#include "pith/pdf/vocabulary.hpp"
#include "pith/base/report.hpp"
#include "pith/resolver/resolver.hpp"
#include "pith/tex/source.hpp"
#include "pith/tex/stamp.hpp"
#include "pith/registry/trust_store.hpp"
#include "pith/registry/verify.hpp"
#include "pith/base/version.hpp"

#include "resolver_cli.hpp"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>


namespace fs = std::filesystem;

namespace {

struct Options {
  std::string input;
  std::string output;  // -o; empty: in place
  std::string pith;
  std::string bundle;
  std::vector<std::string> trust_keys;
  pith::resolver::ResolverOptions registry = pith::resolver::ResolverOptions::from_environment();  // + the shared registry flags
  bool append = false;
  bool force = false;
  bool badge = false;
  bool verbose = false;
  bool json = false;
};

// The outcome of one run, printed as text (-v, errors) or JSON (--json).
struct Outcome {
  int exit_code = pith::exit_code::ok;
  std::string status;  // stamped, already_stamped, conflict, error, no_number, unverified
  std::string message;
  std::string pith_number;
  std::string output;
  std::optional<std::uint64_t> original_length;
  std::string original_sha256;
  std::optional<std::uint64_t> update_bytes;
  std::vector<std::string> notes;
  std::string source;  // where the record came from (resolver URL or cache), when resolved
  std::optional<pith::Report> verification;

  [[nodiscard]] nlohmann::json to_json(const std::string& input) const {
    nlohmann::json j{{"input", input}, {"status", status}, {"exit_code", exit_code}};
    if (!message.empty()) j["message"] = message;
    if (!pith_number.empty()) j["pith_number"] = pith_number;
    if (!output.empty()) j["output"] = output;
    if (original_length) j["original_length"] = *original_length;
    if (!original_sha256.empty()) j["original_sha256"] = original_sha256;
    if (update_bytes) j["update_bytes"] = *update_bytes;
    if (!notes.empty()) j["notes"] = notes;
    if (!source.empty()) j["record_source"] = source;
    if (verification) j["verification"] = verification->to_json();
    return j;
  }
};

Outcome failure(int code, std::string status, std::string message) {
  Outcome o;
  o.exit_code = code;
  o.status = std::move(status);
  o.message = std::move(message);
  return o;
}

std::optional<std::int64_t> source_date_epoch() {
  const char* v = std::getenv("SOURCE_DATE_EPOCH");
  if (!v || !*v) return std::nullopt;
  char* end = nullptr;
  const long long n = std::strtoll(v, &end, 10);
  if (*end != '\0' || n < 0) return std::nullopt;
  return n;
}

// The body of a number as the user may write it: pith:YYYY:<26>, pith:<prefix>, <prefix>.
std::string number_body(std::string text) {
  std::string out;
  for (char c : text)
    if (!std::isspace(static_cast<unsigned char>(c))) out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (out.starts_with("PITH:")) out = out.substr(5);
  if (out.size() > 5 && out[4] == ':') out = out.substr(5);
  return out;
}

// The year of `pith:YYYY:...`, if written.
std::optional<std::string> number_year(const std::string& text) {
  std::string up;
  for (char ch : text)
    if (!std::isspace(static_cast<unsigned char>(ch))) up += static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  if (up.starts_with("PITH:")) up = up.substr(5);
  if (up.size() > 5 && up[4] == ':') return up.substr(0, 4);
  return std::nullopt;
}

// A user-given number (full, or a short form of 8+ characters) names this record.
bool record_is_for(const std::string& given, const std::string& record_number) {
  const std::string want = number_body(given);
  if (want.size() < 8 || !number_body(record_number).starts_with(want)) return false;
  const auto year = number_year(given);
  return !year || year == number_year(record_number);
}

// \pithnumber{...} in the .tex beside the PDF (same base name), ignoring comments.
std::optional<std::string> number_from_tex_beside(const fs::path& pdf) {
  fs::path tex = pdf;
  tex.replace_extension(".tex");
  std::error_code ec;
  if (!fs::is_regular_file(tex, ec)) return std::nullopt;
  auto found = pith::tex::find_pith_number(tex);
  if (!found) return std::nullopt;
  return found->number.to_string();
}

std::optional<std::string> read_whole_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The base written into the PDF or pith.sty (/PithURL, XMP resolverUrl, the
// badge link): --resolver when it is a web address, else the public default.
std::string link_base(const Options& opt) { return pith::pdf::meta::published_resolver(opt.registry.resolver_url); }

// The verified record for `number`: from --bundle, else from the resolver.
// Verification uses only the tool's trust store: the pinned key, the user's
// key directory and --trust-key files; never a key shipped in the data.
pith::Result<pith::registry::VerifiedRecord> obtain_record(const Options& opt, const std::string& number, Outcome& outcome) {
  std::vector<std::string> warnings;
  pith::registry::TrustStore trust = pith::registry::TrustStore::with_defaults(&warnings);
  for (const auto& k : opt.trust_keys)
    if (auto ok = trust.add_key_file(k); !ok) return std::unexpected(ok.error());
  if (!opt.bundle.empty()) {
    auto bytes = read_whole_file(opt.bundle);
    if (!bytes) return pith::fail(opt.bundle, "cannot read the bundle file");
    auto record = pith::registry::verify_document(*bytes, trust, opt.bundle);
    if (record) outcome.verification = record->report;
    return record;
  }
  pith::resolver::Resolver resolver(opt.registry, pith::resolver::verifier_using(trust));
  auto resolution = resolver.resolve(number);
  if (!resolution) return std::unexpected(resolution.error());
  outcome.verification = resolution->record.report;
  outcome.source = resolution->source;
  return std::move(resolution->record);
}

const pith::Check* first_failure(const pith::Report& report) {
  for (const auto& check : report.checks())
    if (check.status == pith::CheckStatus::fail) return &check;
  return nullptr;
}

int verdict_exit(const pith::Report& report) { return pith::exit_code_for(report.verdict()); }

// The outcome for a record whose report is not `verified`: the verdict's exit
// code (at least 1), naming the first failed check.
Outcome unverified(const Options& opt, Outcome outcome, const pith::Report& report, const std::string& number) {
  outcome.exit_code = verdict_exit(report);
  if (outcome.exit_code == pith::exit_code::ok) outcome.exit_code = pith::exit_code::verification_failed;
  outcome.status = "unverified";
  const std::string origin = !opt.bundle.empty() ? opt.bundle : !outcome.source.empty() ? outcome.source : number;
  outcome.message = origin + ": the record did not verify (" + pith::to_string(report.verdict()) + ")";
  if (const pith::Check* why = first_failure(report)) outcome.message += ": " + why->code + ": " + why->detail;
  else if (report.verdict() == pith::Verdict::unverifiable)
    outcome.message += ": no signature by a trusted key (add the registry key with --trust-key FILE)";
  outcome.message += "; nothing written (-v shows every check)";
  return outcome;
}

// pith-stamp paper.tex: find the paper's \pithnumber, get and verify its
// record (--bundle or the resolver), then write pith.sty (tex_stamp.hpp).
// Exit 3 when the paper has no \pithnumber; 1 when the record does not verify
// or is not the paper's; 2 for an unreadable paper, a malformed or ambiguous
// \pithnumber, or a pith.sty that cannot (or must not) be written.
Outcome stamp_tex_file(const Options& opt) {
  auto found = pith::tex::find_pith_number(opt.input);
  if (!found) {
    if (found.error().message.starts_with("no \\pithnumber"))
      return failure(pith::exit_code::not_found, "no_number", found.error().describe());
    return failure(pith::exit_code::usage_or_io, "error", found.error().describe() + "; nothing written");
  }
  const std::string number =
      !opt.pith.empty() ? opt.pith : found->number.to_string();

  Outcome outcome;
  auto record = obtain_record(opt, number, outcome);
  if (!record) return failure(pith::exit_code::usage_or_io, "error", record.error().describe() + "; nothing written");
  outcome.pith_number = record->pith_number;
  if (record->report.verdict() != pith::Verdict::verified) return unverified(opt, outcome, record->report, number);
  if (!pith::tex::record_matches(*found, *record)) {
    outcome.exit_code = pith::exit_code::verification_failed;
    outcome.status = "wrong_record";
    outcome.message = (opt.bundle.empty() ? std::string("the resolved record") : opt.bundle) + " is the record of " +
                      record->pith_number + ", but " + opt.input + " has \\pithnumber{" + found->number.body + "} at " +
                      found->location() + "; nothing written";
    return outcome;
  }

  pith::tex::TexStampOptions options;
  options.sty.resolver_base = link_base(opt);
  auto result = pith::tex::stamp_tex(opt.input, *record, options);
  if (!result) {
    // The number and the record were checked above: what is left is writing pith.sty.
    auto o = failure(pith::exit_code::usage_or_io, "error", result.error().describe() + "; nothing written");
    o.pith_number = record->pith_number;
    o.verification = outcome.verification;
    return o;
  }
  outcome.status = result->written ? "stamped" : "already_stamped";
  outcome.message = result->sty_path.string() + (result->written ? ": written" : ": already up to date");
  outcome.output = result->sty_path.string();
  return outcome;
}

// The number the user wants: --pith, else the PDF's own metadata, else the .tex beside it.
std::optional<std::string> wanted_number(const Options& opt, const pith::pdf::PithMetadata& meta, std::string& from) {
  if (!opt.pith.empty()) return from = "--pith", opt.pith;
  if (meta.info_number && !meta.info_number->empty()) return from = "the PDF's Info /PithNumber", *meta.info_number;
  if (meta.xmp_number && !meta.xmp_number->empty()) return from = "the PDF's XMP pith:number", *meta.xmp_number;
  if (auto n = number_from_tex_beside(opt.input)) return from = "the .tex beside the PDF", *n;
  return std::nullopt;
}

bool same_file_state(const std::string& path, const struct stat& before) {
  struct stat now {};
  return ::stat(path.c_str(), &now) == 0 && now.st_ino == before.st_ino && now.st_dev == before.st_dev &&
         now.st_size == before.st_size && now.st_mtim.tv_sec == before.st_mtim.tv_sec &&
         now.st_mtim.tv_nsec == before.st_mtim.tv_nsec;
}

Outcome stamp_pdf(const Options& opt) {
  struct stat before {};
  if (::stat(opt.input.c_str(), &before) != 0)
    return failure(pith::exit_code::usage_or_io, "error", opt.input + ": cannot open: " + std::strerror(errno));
  auto file = pith::MappedFile::open(opt.input);
  if (!file) return failure(pith::exit_code::usage_or_io, "error", file.error().describe());
  auto reader = pith::pdf::Reader::open(file->bytes(), opt.input);
  if (!reader) return failure(pith::exit_code::usage_or_io, "error", reader.error().describe() + "; nothing written");
  auto meta = pith::pdf::read_pith_metadata(*reader);
  if (!meta) return failure(pith::exit_code::usage_or_io, "error", meta.error().describe() + "; nothing written");

  std::string from;
  auto number = wanted_number(opt, *meta, from);
  if (!number) {
    auto o = failure(pith::exit_code::not_found, "no_number",
                     opt.input + ": no Pith Number given or found. Give one with --pith ID, put \\pithnumber{ID} in " +
                         fs::path(opt.input).replace_extension(".tex").string() +
                         ", or build the PDF with the pith LaTeX package");
    return o;
  }

  Outcome outcome;
  auto record = obtain_record(opt, *number, outcome);
  if (!record) {
    auto o = failure(pith::exit_code::usage_or_io, "error", record.error().describe() + "; nothing written");
    return o;
  }
  outcome.pith_number = record->pith_number;
  if (record->report.verdict() != pith::Verdict::verified) return unverified(opt, outcome, record->report, *number);
  if (!record_is_for(*number, record->pith_number)) {
    outcome.exit_code = pith::exit_code::verification_failed;
    outcome.status = "wrong_record";
    outcome.message = (opt.bundle.empty() ? std::string("the resolved record") : opt.bundle) + " is the record of " +
                      record->pith_number + ", but " + from + " names " + *number +
                      "; nothing written";
    return outcome;
  }

  pith::pdf::StampOptions so;
  so.resolver = link_base(opt);
  so.force = opt.force;
  so.badge = opt.badge;
  so.source_date_epoch = source_date_epoch();
  so.original_sha256 = file->sha256_hex();
  auto plan = pith::pdf::plan_stamp(*reader, *record, so);
  if (!plan) return failure(pith::exit_code::usage_or_io, "error", plan.error().describe() + "; nothing written");
  outcome.notes = plan->notes;
  const std::string target = opt.output.empty() ? opt.input : opt.output;
  outcome.output = target;

  switch (plan->outcome) {
    case pith::pdf::StampOutcome::conflict:
      outcome.exit_code = pith::exit_code::verification_failed;
      outcome.status = "conflict";
      outcome.message = opt.input + " already carries " + plan->previous_number.value_or("another Pith Number") +
                        "; refusing to stamp " + record->pith_number + " (use --force to replace it)";
      return outcome;
    case pith::pdf::StampOutcome::already_stamped:
      outcome.status = "already_stamped";
      outcome.message = opt.input + ": already stamped with " + record->pith_number;
      if (!opt.output.empty() && fs::absolute(opt.output) != fs::absolute(opt.input)) {
        auto ok = pith::write_atomically(target, opt.input, file->bytes().size(), {}, pith::FileAttributes{file->mode()});
        if (!ok) return failure(pith::exit_code::usage_or_io, "error", ok.error().describe());
      }
      return outcome;
    case pith::pdf::StampOutcome::stamped: break;
  }
  outcome.status = "stamped";
  outcome.original_length = plan->original_length;
  outcome.original_sha256 = plan->original_sha256;
  outcome.update_bytes = plan->update.size();

  if (!same_file_state(opt.input, before))
    return failure(pith::exit_code::usage_or_io, "error", opt.input + ": the file changed while pith-stamp read it; nothing written");
  const bool in_place = opt.output.empty() || fs::absolute(opt.output) == fs::absolute(opt.input);
  pith::Result<void> written;
  if (opt.append) {
    written = pith::append_in_place(opt.input, plan->original_length, plan->update);
  } else {
    pith::FileAttributes attrs{file->mode()};
    if (in_place) {
      attrs.owner = file->owner();
      attrs.group = file->group();
    }
    written = pith::write_atomically(target, opt.input, plan->original_length, plan->update, attrs);
  }
  if (!written) {
    outcome.exit_code = pith::exit_code::usage_or_io;
    outcome.status = "error";
    outcome.message = written.error().describe();
  }
  return outcome;
}

void print(const Options& opt, const Outcome& o) {
  if (opt.json) {
    std::cout << o.to_json(opt.input).dump(2) << "\n";
    return;
  }
  if (o.exit_code != pith::exit_code::ok) {
    std::cerr << "pith-stamp: " << o.message << "\n";
    if (o.verification && opt.verbose) std::cerr << o.verification->to_text(false);
    return;
  }
  if (!opt.verbose) return;  // quiet on success (latexmk)
  if (o.status == "already_stamped") {
    std::cerr << "pith-stamp: " << o.message << " (nothing to do)\n";
    return;
  }
  std::cerr << "pith-stamp: " << (o.output.empty() ? opt.input : o.output) << ": stamped with " << o.pith_number;
  if (o.original_length) std::cerr << " (+" << *o.update_bytes << " bytes after the original " << *o.original_length << ")";
  std::cerr << "\n";
  for (const auto& n : o.notes) std::cerr << "pith-stamp: " << n << "\n";
}

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  CLI::App app{"Write a verified, signed Pith record into a PDF (one incremental update) or a LaTeX paper's pith.sty.\n"
               "Exit codes: 0 stamped/already stamped, 1 verification failed or conflicting number,\n"
               "2 usage or I/O error, 3 no Pith Number, 4 nothing trusted to verify with.",
               "pith-stamp"};
  app.set_version_flag("--version", std::string("pith-stamp ") + pith::version_string);
  app.add_option("file", opt.input, "the PDF (or .tex) to stamp")->required();
  app.add_option("--pith", opt.pith, "the Pith Number (default: from the PDF's metadata or the .tex beside it)");
  app.add_option("--bundle", opt.bundle,
                 "registry bundle or state file to stamp with, instead of asking the resolver (fully verified)");
  app.add_option("-o,--output", opt.output, "write a stamped copy here instead of updating FILE in place");
  app.add_flag("--append", opt.append,
               "append the update to FILE directly (cost independent of size; a crash can leave a partial "
               "update after the intact original bytes)");
  app.add_flag("--force", opt.force, "replace a stamp for a different Pith Number");
  app.add_flag("--badge", opt.badge, "add a linked badge to page 1 (top right) unless page 1 already links to this number");
  app.add_option("--trust-key", opt.trust_keys, "also trust this registry key file (pith-signing-key.json format)");
  pith::cli::add_resolver_options(app, opt.registry);
  app.add_flag("-v,--verbose", opt.verbose, "say what was done");
  app.add_flag("--json", opt.json, "print the outcome as JSON on stdout");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : pith::exit_code::usage_or_io;
  }
  if (opt.append && !opt.output.empty()) {
    std::cerr << "pith-stamp: --append updates FILE in place; it cannot be combined with -o\n";
    return pith::exit_code::usage_or_io;
  }

  Outcome outcome;
  if (fs::path(opt.input).extension() == ".tex") {
    outcome = stamp_tex_file(opt);
  } else {
    outcome = stamp_pdf(opt);
  }
  print(opt, outcome);
  return outcome.exit_code;
}
