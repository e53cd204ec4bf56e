// SPDX-License-Identifier: GPL-3.0-or-later
// Obtaining the record of one pith-stamp run and judging it (run_steps.hpp):
// --bundle or the resolver, the tool's trust store only, then whether it is
// the number's record and the paper's.
#include "pith/stamp/run_steps.hpp"

#include "pith/base/input_file.hpp"
#include "pith/pdf/stamp.hpp"
#include "pith/carrier/vocabulary.hpp"
#include "pith/registry/documents.hpp"
#include "pith/registry/identifier.hpp"
#include "pith/registry/number.hpp"
#include "pith/registry/trust_store.hpp"
#include "pith/registry/visible_title.hpp"
#include "pith/resolver/resolver.hpp"
#include "pith/signed_json/strict.hpp"

#include <filesystem>

namespace pith::stamp::detail {

namespace fs = std::filesystem;

StampNote warning_note(std::string text) { return StampNote{StampNote::Severity::warning, std::move(text)}; }

std::string derived_number(const registry::DocumentContent& content) {
  return content.pith_number ? content.pith_number->to_string() : std::string();
}

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
std::string link_base(const StampRunOptions& opt) { return carrier::published_resolver(opt.registry.resolver_url); }

namespace {

// A state alone is not signed (only its record's receipt is): embedding it
// would carry its unsigned lists into the PDF as if they were the record's.
// pith-stamp embeds only signed bundles.
std::unexpected<Error> refuse_state(const StampRunOptions& opt, const std::string& origin, const std::string& number) {
  return fail(ErrorKind::usage, origin,
              "is a state document (state.json), which is not signed: pith-stamp embeds only a signed bundle; give "
              "the record's bundle.json (" + pdf::resolver_url(link_base(opt), number) + "/bundle.json)");
}

}  // namespace

// The verification of the record for `number`: from --bundle, else from the
// resolver (which hands out only verified records). Verification uses only
// the tool's trust store: the pinned key, the user's key directory and
// --trust-key files; never a key shipped in the data.
const Result<registry::TrustStore>& RunTrust::get() {
  if (!loaded_) loaded_ = registry::TrustStore::load(opt_.trust_keys);
  return *loaded_;
}

Result<ObtainedRecord> obtain_record(const StampRunOptions& opt, RunTrust& run_trust, const std::string& number,
                                     Outcome& outcome) {
  const auto& trusted = run_trust.get();
  if (!trusted) return std::unexpected(trusted.error());
  const registry::TrustStore& trust = *trusted;
  if (!opt.bundle.empty()) {
    // Read with the bound of signed JSON (8 MiB), not whole and then checked.
    auto bytes = read_input_file(opt.bundle, signed_json::StrictJsonLimits{}.max_bytes);
    if (!bytes) return fail(bytes.error().kind, opt.bundle, "cannot read the bundle file: " + bytes.error().message);
    auto verification = registry::verify_document(*bytes, trust, opt.bundle);
    if (!verification) return std::unexpected(verification.error());
    outcome.verification = verification->report;
    if (verification->kind() == registry::DocumentKind::state) return refuse_state(opt, opt.bundle, number);
    if (!verification->record()) return ObtainedRecord(std::move(*verification));
    return ObtainedRecord(*std::move(*verification).record());
  }
  resolver::Resolver resolver(opt.registry, trust);
  auto resolution = resolver.resolve(number);
  if (!resolution) return std::unexpected(resolution.error());
  outcome.verification = resolution->record.report;
  outcome.record_source = resolution->source;
  if (resolution->record.kind == registry::DocumentKind::state) return refuse_state(opt, resolution->source, number);
  return ObtainedRecord(std::move(resolution->record));
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
    case Verdict::altered:  // the record is fine; the file is not the paper as stamped: refused like a failure
    case Verdict::failed: break;
  }
  return ErrorKind::rejected;
}

// The outcome for a record whose report is not `verified`, naming the first failed check.
Outcome unverified(const StampRunOptions& opt, Outcome outcome, const registry::DocumentVerification& refused,
                   const std::string& number) {
  outcome.pith_number = derived_number(refused.content());
  const Report& report = refused.report;
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

namespace {

// A name for the record's paper: its number, and its arXiv id when it has one.
std::string record_paper(const registry::VerifiedRecord& record) {
  const auto arxiv = registry::record_arxiv_source(record.canonical_record);
  const std::string number = record.number().to_string();
  return arxiv ? number + " (arXiv:" + arxiv->to_string() + ")" : number;
}

}  // namespace

// Before writing: is this the record's paper? The paper's titles against the
// record's title hash. A mismatch refuses (exit 1, unless --force), unless
// page 1 shows the record's title (then the metadata is wrong: a warning,
// as pith-check says); nothing to compare with is a warning note
// (pith-check would say `unbound`).
// `no_title`: why there is no title to compare, when the caller knows better
// than "the PDF has no title" (a .tex whose \title is not plain text).
std::optional<Outcome> refuse_other_paper(const StampRunOptions& opt, const std::vector<registry::TitleCandidate>& titles,
                                          const std::vector<std::string>& visible_lines, const registry::VerifiedRecord& record,
                                          Outcome& outcome, const std::string& no_title) {
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

}  // namespace pith::stamp::detail
