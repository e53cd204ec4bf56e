// SPDX-License-Identifier: GPL-3.0-or-later
// Registry documents: a bundle, state, record or resolver answer verified
// against the pinned registry key, as pith-check and pith-stamp do with what
// a resolver serves or a PDF embeds.
#include "pith/registry/trust_store.hpp"
#include "pith/registry/verify.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const pith::registry::TrustStore trust = pith::registry::TrustStore::with_pinned_key();
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  (void)pith::registry::verify_document(bytes, trust, "fuzz.json");
  return 0;
}
