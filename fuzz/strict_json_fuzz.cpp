// SPDX-License-Identifier: GPL-3.0-or-later
// Strict JSON: whatever parse_strict accepts has a canonical form, so canon()
// of it must not throw (canonical.hpp promises this), and canonical JSON is
// itself strict JSON that canonicalises to the same bytes.
#include "broken_promise.hpp"
#include "pith/signed_json/canonical.hpp"
#include "pith/signed_json/strict.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

using pith::fuzz::broken_promise;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto parsed = pith::signed_json::parse_strict(bytes);
  if (!parsed) return 0;
  const std::string canonical = pith::signed_json::canon(*parsed);  // throws = crash
  auto again = pith::signed_json::parse_strict(canonical);
  if (!again) broken_promise("canon() output parses strictly");
  if (pith::signed_json::canon(*again) != canonical) broken_promise("canon() is a fixed point");
  return 0;
}
