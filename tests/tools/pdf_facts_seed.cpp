// SPDX-License-Identifier: GPL-3.0-or-later
// pith-test-facts-seed: TEST ONLY. Writes a seed of the pdf_facts_wire fuzz
// target (fuzz/corpus/pdf_facts_wire/, docs/fuzzing.md): the message a
// parsing child sends for a real PDF (pith::pdf::read_pdf_facts, then
// PdfFacts::to_wire), with the XMP packet's and the embedded bundle's spans
// pointed at their bytes inside the message itself, because the fuzz target
// judges a message as if it were the file: so the seed reaches verification.
//
//   pith-test-facts-seed PDF OUT      the facts of PDF
//   pith-test-facts-seed --empty OUT  the facts of a PDF that carries nothing
#include "pith/pdf/facts.hpp"
#include "support/test_data.hpp"

#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

namespace {

// Where `data` lies in `message` (its first occurrence), as a span.
std::optional<pith::pdf::StreamSpan> span_in(std::string_view message, const std::optional<std::string>& data) {
  if (!data || data->empty()) return std::nullopt;
  const auto at = message.find(*data);
  if (at == std::string_view::npos) return std::nullopt;
  return pith::pdf::StreamSpan{at, data->size()};
}

// Spans are fixed-width on the wire, so pointing one elsewhere moves no byte:
// after a pass the spans point at the data in the final message.
std::string self_contained(pith::pdf::PdfFacts facts) {
  for (int pass = 0; pass < 3; ++pass) {
    const std::string message = facts.to_wire();
    auto& m = facts.metadata;
    if (auto span = span_in(message, m.xmp_packet)) m.xmp_span = span;
    if (auto span = span_in(message, m.embedded_bundle)) m.embedded_bundle_span = span;
    if (facts.to_wire() == message) return message;
  }
  return facts.to_wire();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: pith-test-facts-seed PDF|--empty OUT\n");
    return 2;
  }
  const std::string input = argv[1];
  pith::pdf::PdfFacts facts;
  if (input != "--empty") {
    const std::string bytes = pith::test::read_file(input);
    facts = pith::pdf::read_pdf_facts(bytes, input);
    if (facts.error) {
      std::fprintf(stderr, "pith-test-facts-seed: %s: %s\n", input.c_str(), facts.error->c_str());
      return 2;
    }
  }
  const std::string message = self_contained(std::move(facts));
  if (!pith::pdf::PdfFacts::from_wire(message)) {
    std::fprintf(stderr, "pith-test-facts-seed: the message does not decode\n");
    return 2;
  }
  pith::test::write_file(argv[2], message);
  return 0;
}
