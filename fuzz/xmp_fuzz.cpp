// SPDX-License-Identifier: GPL-3.0-or-later
// XMP: a PDF's packet read for its pith properties, and merged with a
// record's properties as pith-stamp does. A merged packet must read back
// with the number written, and merging again must give the same bytes
// (merge_pith_xmp's promise).
#include "broken_promise.hpp"
#include "pith/pdf/xmp.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

using pith::fuzz::broken_promise;

namespace {
const pith::carrier::PithProperties& properties() {
  static const pith::carrier::PithProperties props = [] {
    pith::carrier::PithProperties p;
    p.number = "pith:2020:WXNI57C2SJ24QK62DB7DTUREA3";
    p.canonical_record = R"({"pith_number":"pith:2020:WXNI57C2SJ24QK62DB7DTUREA3","title":"T <&> \"x\""})";
    p.canonical_sha256 = std::string(64, 'a');
    p.receipt_signature = "c2lnbmF0dXJl";
    p.key_id = "pith-v1-2026-05";
    p.key_fingerprint = std::string(64, 'b');
    p.resolver_url = "https://example.org/pith/WXNI57C2SJ24QK62DB7DTUREA3";
    p.tool = "pith-stamp fuzz";
    p.original_sha256 = std::string(64, 'c');
    p.original_length = 12345;
    return p;
  }();
  return props;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view packet(reinterpret_cast<const char*>(data), size);
  if (auto readout = pith::pdf::read_xmp(packet)) (void)readout->has_pith_properties();

  auto merged = pith::pdf::merge_pith_xmp(packet, properties());
  if (!merged) return 0;
  auto back = pith::pdf::read_xmp(*merged);
  if (!back || !back->parsed || back->number != properties().number) broken_promise("a merged packet reads back");
  auto twice = pith::pdf::merge_pith_xmp(*merged, properties());
  if (!twice || *twice != *merged) broken_promise("merging again gives the same bytes");
  return 0;
}
