// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/resolver/acceptance.hpp"

#include "pith/registry/number.hpp"

namespace pith::resolver::detail {

std::string first_failure(const Report& report) {
  for (const auto& c : report.checks()) {
    if (c.status == CheckStatus::fail) return c.code + (c.detail.empty() ? "" : ": " + c.detail);
  }
  return std::string("verdict ") + to_string(report.verdict());
}

std::optional<Refusal> rejection_reason(const registry::DocumentVerification& verification, const registry::Identifier& id) {
  if (!verification.record()) {
    const Verdict verdict = verification.report.verdict();
    return Refusal{verdict == Verdict::unverifiable ? ErrorKind::unverifiable : ErrorKind::rejected,
                   "failed verification (" + first_failure(verification.report) + ")", {}};
  }
  const registry::VerifiedRecord& record = *verification.record();
  // The body is the record's hash, so an answer with the asked body under
  // another year is the record asked for with the year mistyped: the
  // asker's typo (exit 2, like any number no registry serves), not a
  // substitution by whoever answered.
  const registry::PithNumber* asked = id.number();
  if (asked && asked->has_whole_body() && asked->body == record.number().body &&
      !id.matches(record.number(), record.canonical_record)) {
    return Refusal{ErrorKind::not_served, "the year differs: the record with this body is " + record.number().to_string(),
                   record.number().to_string()};
  }
  if (!id.matches(record.number(), record.canonical_record)) {
    return Refusal{ErrorKind::rejected, "substitution: " + id.mismatch(record.number(), record.canonical_record), {}};
  }
  return std::nullopt;
}

std::vector<std::string> arxiv_aliases_of(const nlohmann::json& record) {
  std::vector<std::string> out;
  const auto arxiv = registry::record_arxiv_source(record);
  if (!arxiv) return out;
  out.push_back(arxiv->id);
  if (arxiv->version) out.push_back(arxiv->to_string());
  return out;
}

std::optional<HeldEntry> sound_entry_for(const RecordCache& cache, const registry::TrustStore& trust,
                                         const registry::PithNumber& full_number) {
  if (!full_number.has_whole_body()) return std::nullopt;
  auto doc = cache.load_body(full_number.body);
  if (!doc) return std::nullopt;
  auto verified = registry::verify_document(doc->bytes, trust, doc->path.string());
  if (!verified || !verified->record() || verified->record()->number() != full_number) return std::nullopt;
  if (!doc->full_number.empty() && doc->full_number != full_number.to_string()) return std::nullopt;
  return HeldEntry{std::move(*doc), *std::move(*verified).record()};
}

bool cacheable(registry::DocumentKind kind) { return kind == registry::DocumentKind::bundle; }

}  // namespace pith::resolver::detail
