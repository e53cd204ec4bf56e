// SPDX-License-Identifier: GPL-3.0-or-later
// ASCIIHexDecode streams read back byte-exact through the lazy reader
// (PoDoFo 0.9.8 alone decodes the '>' end marker as one more byte).
#include "pith/pdf/reader.hpp"

#include <catch2/catch.hpp>

#include <cstdio>
#include <string>
#include <vector>

using namespace pith;

namespace {

// A minimal classic PDF: catalog, pages, and object 3 = a stream with the
// given dictionary entries and raw data.
std::string pdf_with_stream(const std::string& dict_entries, const std::string& raw) {
  std::vector<std::string> objects = {
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [] /Count 0 >>",
      "<< " + dict_entries + " /Length " + std::to_string(raw.size()) + " >>\nstream\n" + raw + "\nendstream",
  };
  std::string pdf = "%PDF-1.4\n";
  std::vector<std::size_t> offsets;
  for (std::size_t i = 0; i < objects.size(); ++i) {
    offsets.push_back(pdf.size());
    pdf += std::to_string(i + 1) + " 0 obj\n" + objects[i] + "\nendobj\n";
  }
  const std::size_t xref = pdf.size();
  pdf += "xref\n0 " + std::to_string(objects.size() + 1) + "\n0000000000 65535 f \n";
  for (const auto offset : offsets) {
    char line[32];
    std::snprintf(line, sizeof line, "%010zu 00000 n \n", offset);
    pdf += line;
  }
  pdf += "trailer\n<< /Size " + std::to_string(objects.size() + 1) + " /Root 1 0 R >>\nstartxref\n" +
         std::to_string(xref) + "\n%%EOF\n";
  return pdf;
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
