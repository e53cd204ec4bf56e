// SPDX-License-Identifier: GPL-3.0-or-later
// ASCIIHexDecode streams read back byte-exact through the lazy reader
// (PoDoFo 0.9.8 alone decodes the '>' end marker as one more byte).
#include "pith/pdf/reader.hpp"
#include "support/pdf_samples.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace pith;

namespace {

// A minimal classic PDF: catalog, pages, and object 3 = a stream with the
// given dictionary entries and raw data.
std::string pdf_with_stream(const std::string& dict_entries, const std::string& raw) {
  return pith::test::classic_pdf({
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [] /Count 0 >>",
      "<< " + dict_entries + " /Length " + std::to_string(raw.size()) + " >>\nstream\n" + raw + "\nendstream",
  });
}

std::string decoded(const std::string& dict_entries, const std::string& raw) {
  const std::string pdf = pdf_with_stream(dict_entries, raw);
  auto reader = pdf::Reader::open(pdf, "hex.pdf");
  REQUIRE(reader);
  auto stream = reader->stream(pdf::ObjectId{3, 0});
  REQUIRE(stream);
  return stream->data;
}

}  // namespace

TEST_CASE("ASCIIHexDecode: the '>' end marker adds no byte", "[pdf][hex]") {
  CHECK(decoded("/Filter /ASCIIHexDecode", "7b7d>") == "{}");
  CHECK(decoded("/Filter /AHx", "7b 7d\n>") == "{}");
  CHECK(decoded("/Filter [/ASCIIHexDecode]", "7B7D>\n") == "{}");
}

TEST_CASE("ASCIIHexDecode: an odd final digit is completed with 0", "[pdf][hex]") {
  CHECK(decoded("/Filter /ASCIIHexDecode", "7b7>") == std::string("{\x70", 2));
}

TEST_CASE("ASCIIHexDecode: text after the end marker is ignored", "[pdf][hex]") {
  CHECK(decoded("/Filter /ASCIIHexDecode", "7b7d>7e7e") == "{}");
}
