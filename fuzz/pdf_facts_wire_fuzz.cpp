// SPDX-License-Identifier: GPL-3.0-or-later
// What a parsing child sends the checking process (pdf/facts: the
// binary wire of base/wire), as a child taken over by a parser exploit could
// write it: decoded strictly, then judged against the same bytes as if they
// were the file, with the pinned registry key. A message that decodes has
// exactly one encoding: encoding it again gives the same bytes. So has page
// 1's text alone, as the child reading it beside the facts sends it.
#include "broken_promise.hpp"
#include "pith/check/file.hpp"
#include "pith/pdf/facts.hpp"
#include "pith/registry/trust_store.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

// Page 1's text alone (the child reading it beside the facts: a run's one
// PDF) has the same promise.
void page_text_alone(std::string_view bytes) {
  auto page = pith::pdf::page_text_from_wire(bytes, {});
  if (page && pith::pdf::page_text_to_wire(*page) != bytes) {
    pith::fuzz::broken_promise("a decoded page 1 text encodes to the same bytes");
  }
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const pith::registry::TrustStore trust = pith::registry::TrustStore::with_pinned_key();
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  page_text_alone(bytes);
  auto facts = pith::pdf::PdfFacts::from_wire(bytes);
  if (!facts) return 0;
  if (facts->to_wire() != bytes) {
    pith::fuzz::broken_promise("a decoded message encodes to the same bytes");
  }
  (void)pith::check::judge_pdf_facts(bytes, std::move(*facts), trust, "fuzz.pdf");
  return 0;
}
