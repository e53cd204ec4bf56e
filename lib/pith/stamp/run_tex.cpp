// SPDX-License-Identifier: GPL-3.0-or-later
// pith-stamp paper.tex (run_steps.hpp): the paper's \pithnumber, its record
// verified, then the generated pith.sty beside the paper (tex/stamp.hpp).
#include "pith/stamp/run_steps.hpp"

#include "pith/registry/number.hpp"
#include "pith/registry/trust_store.hpp"
#include "pith/tex/source.hpp"
#include "pith/tex/stamp.hpp"

#include <filesystem>

namespace pith::stamp::detail {

namespace fs = std::filesystem;

namespace {

// pith-stamp paper.tex with the registry out of reach: keep a pith.sty
// whose record still verifies for the paper's number, else say what to do.
Outcome stamp_tex_offline(const StampRunOptions& opt, RunTrust& run_trust, const tex::TexNumber& number,
                          const Error& unreachable) {
  const std::string sty = tex::sty_path_for(opt.input).string();
  const auto& trust = run_trust.get();
  if (!trust) return refused(trust.error());
  auto kept = tex::verify_existing_sty(opt.input, number, *trust);
  if (kept) return kept_offline(opt, unreachable, kept->number().to_string(), sty, "its record");
  Outcome o = refused(unreachable);
  o.message = unreachable.describe() + "; and " + kept.error().describe() +
              ". Connect to the registry and run 'pith-stamp " + opt.input + "' again, or give the paper's registry "
              "bundle with --bundle FILE";
  return o;
}

}  // namespace

// pith-stamp paper.tex: find the paper's \pithnumber, get and verify its
// record (--bundle or the resolver), then write pith.sty (tex/stamp.hpp).
// --pith on a .tex is honoured only as the number the paper names: pith.sty
// is read by the paper's \pithnumber, so another number would be written
// for nothing (or contradict it). Disagreeing, or no \pithnumber: exit 2.
Outcome stamp_tex_file(const StampRunOptions& opt, const std::optional<registry::PithNumber>& pith) {
  auto found = tex::find_pith_number(opt.input);
  if (!found) {
    if (found.error().kind == ErrorKind::not_found) {
      if (pith) {
        return failure(Status::error, ErrorKind::usage,
                       opt.input + ": --pith " + opt.pith + " given, but the paper has no \\pithnumber{...}: add " +
                           "\\pithnumber{" + pith->body +
                           "} to it (pith.sty is written for the number the paper names)");
      }
      return failure(Status::no_number, ErrorKind::not_found, found.error().describe());
    }
    return refused(found.error());
  }
  if (pith && !pith->matches(found->number)) {
    return failure(Status::error, ErrorKind::usage,
                   opt.input + " has \\pithnumber{" + found->number.body + "} at " + found->location() +
                       ", but --pith names " + opt.pith + ": change one so both name the same number");
  }
  const std::string number = found->number.to_string();

  Outcome outcome;
  RunTrust trust(opt);
  auto obtained = obtain_record(opt, trust, number, outcome);
  if (!obtained && registry_unreachable(opt, obtained.error()))
    return stamp_tex_offline(opt, trust, *found, obtained.error());
  if (!obtained) return not_obtained(obtained.error());
  if (const auto* refused = std::get_if<registry::DocumentVerification>(&*obtained))
    return unverified(opt, outcome, *refused, number);
  const registry::VerifiedRecord& record = std::get<registry::VerifiedRecord>(*obtained);
  outcome.pith_number = record.number().to_string();
  if (!tex::record_matches(*found, record)) {
    return wrong_record(opt, outcome, record.number().to_string(),
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
    o.pith_number = record.number().to_string();
    o.verification = outcome.verification;
    return o;
  }
  outcome.status = result->written ? Status::stamped : Status::already_stamped;
  outcome.message = result->sty_path.string() + (result->written ? ": written" : ": already up to date");
  outcome.output = result->sty_path.string();
  return outcome;
}

}  // namespace pith::stamp::detail
