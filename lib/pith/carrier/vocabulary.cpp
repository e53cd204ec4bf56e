// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/carrier/vocabulary.hpp"

#include "pith/base/version.hpp"
#include "pith/registry/verify.hpp"

namespace pith::carrier {

std::string published_resolver(std::string_view base) {
  if (base.starts_with("https://") || base.starts_with("http://")) return std::string(base);
  return default_resolver_url;
}

PithProperties pith_properties_of(const registry::VerifiedRecord& record, std::string resolver_url, std::string tool) {
  PithProperties p;
  p.number = record.number().to_string();
  p.canonical_record = record.canonical_json;
  p.canonical_sha256 = record.canonical_sha256;
  p.receipt_signature = record.receipt_signature_b64;
  p.key_id = record.key_id;
  p.key_fingerprint = record.key_fingerprint;
  p.resolver_url = std::move(resolver_url);
  p.tool = std::move(tool);
  return p;
}

}  // namespace pith::carrier
