// SPDX-License-Identifier: GPL-3.0-or-later
// Pulling Pith Numbers out of PDF metadata: every place, where each was
// found, and conflicts naming both sides.
#include "pith/pdf/extract.hpp"
#include "pith/pdf/xmp.hpp"
#include "pith/registry/number.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace pith;

namespace {

constexpr const char* bundle_number = "pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65";
constexpr const char* other_number = "pith:2020:WXNI57C2SJ24QK62DB7DTUREA3";

std::string fixture_bundle() {
  std::ifstream in(std::filesystem::path(PITH_TEST_DATA_DIR) / "JFLLIOJUI2M3KX3FLLGP4N2V65.bundle.json",
                   std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string stamped_xmp(const std::string& number, const std::string& resolver_url) {
  pith::carrier::PithProperties props;
  props.number = number;
  props.resolver_url = resolver_url;
  props.tool = "pith-stamp test";
  auto packet = pdf::merge_pith_xmp("", props);
  REQUIRE(packet);
  return *packet;
}

// Metadata as pith-stamp writes it, in every place.
pdf::PdfMetadata stamped_everywhere() {
  pdf::PdfMetadata m;
  m.xmp_packet = stamped_xmp(bundle_number, "https://pith.science/pith/JFLLIOJUI2M3KX3FLLGP4N2V65");
  m.info_number = bundle_number;
  m.info_url = "https://pith.science/pith/JFLLIOJUI2M3KX3FLLGP4N2V65";
  m.info_title = "Layered gradient accumulation";
  m.embedded_bundle = fixture_bundle();
  m.link_uris = {"https://example.org/paper", "https://pith.science/pith/JFLLIOJUI2M3KX3FLLGP4N2V65"};
  return m;
}

std::vector<pdf::NumberSource> sources_of(const pdf::PdfExtraction& e) {
  std::vector<pdf::NumberSource> out;
  for (const auto& s : e.sightings) out.push_back(s.source);
  return out;
}

}  // namespace

TEST_CASE("Pith Numbers are recognised in the forms a PDF carries", "[extract]") {
  const auto full = registry::parse_pith_number("  pith:2021:jfllioJUI2M3KX3FLLGP4N2V65\n");
  REQUIRE(full);
  CHECK(full->body == "JFLLIOJUI2M3KX3FLLGP4N2V65");
  CHECK(full->year == 2021);
  const auto body = registry::parse_pith_number("JFLLIOJUI2M3KX3FLLGP4N2V65");
  REQUIRE(body);
  CHECK_FALSE(body->year);
  const auto short_form = registry::parse_pith_number("pith:JFLLIOJU");
  REQUIRE(short_form);
  CHECK(short_form->body == "JFLLIOJU");
  CHECK(registry::parse_pith_number("PITH:JFLLIOJUI2M3KX3FLLGP4N2V65"));

  CHECK_FALSE(registry::parse_pith_number(""));
  CHECK_FALSE(registry::parse_pith_number("pith:"));
  CHECK_FALSE(registry::parse_pith_number("pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V6"));   // 25 characters
  CHECK_FALSE(registry::parse_pith_number("pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V650"));  // 27
  CHECK_FALSE(registry::parse_pith_number("pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V61"));   // 1 is not base32
  CHECK_FALSE(registry::parse_pith_number("pith:2021:JFLLIOJU"));  // a short form has no year
  CHECK_FALSE(registry::parse_pith_number("pith:20x1:JFLLIOJUI2M3KX3FLLGP4N2V65"));
  CHECK_FALSE(registry::parse_pith_number("doi:10.1234/abcd"));
}

TEST_CASE("resolver URLs give the <ID> after /pith/", "[extract]") {
  CHECK(pdf::resolver_url_id("https://pith.science/pith/JFLLIOJUI2M3KX3FLLGP4N2V65") == "JFLLIOJUI2M3KX3FLLGP4N2V65");
  CHECK(pdf::resolver_url_id("https://mirror.example/x/pith/JFLLIOJU/bundle.json?a=1#top") == "JFLLIOJU");
  CHECK(pdf::resolver_url_id("https://pith.science/pith/pith%3A2021%3AJFLLIOJUI2M3KX3FLLGP4N2V65") ==
        "pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65");
  CHECK_FALSE(pdf::resolver_url_id("https://pith.science/"));
  CHECK_FALSE(pdf::resolver_url_id("https://pith.science/pith/"));
  CHECK_FALSE(pdf::resolver_url_id("https://example.org/?q=/pith/JFLLIOJU"));
  CHECK(pdf::resolver_url_id("https://x/pith/%zz%4") == "%zz%4");  // malformed escapes kept as they are
}

TEST_CASE("a stamped PDF's number is found in every place, and they agree", "[extract]") {
  const auto extraction = pdf::extract_pith_numbers(stamped_everywhere());
  REQUIRE(extraction);
  CHECK(extraction->found());
  CHECK(extraction->problems.empty());
  CHECK(sources_of(*extraction) ==
        std::vector<pdf::NumberSource>{pdf::NumberSource::xmp_number, pdf::NumberSource::xmp_resolver_url, pdf::NumberSource::info_number,
                                  pdf::NumberSource::info_url, pdf::NumberSource::embedded_bundle,
                                  pdf::NumberSource::link_annotation});
  CHECK(extraction->conflicts().empty());
  CHECK(extraction->number().value().to_string() == bundle_number);
  REQUIRE(extraction->xmp);
  CHECK(extraction->xmp->number == bundle_number);
  // Where: the ordinary link is not a sighting; the pith link is quoted.
  CHECK(extraction->sightings.back().where ==
        "page 1 link 'https://pith.science/pith/JFLLIOJUI2M3KX3FLLGP4N2V65'");
}

TEST_CASE("a different number in the Info dictionary is a conflict naming both", "[extract]") {
  auto metadata = stamped_everywhere();
  metadata.info_number = other_number;
  const auto extraction = pdf::extract_pith_numbers(metadata);
  REQUIRE(extraction);
  const auto conflicts = extraction->conflicts();
  REQUIRE_FALSE(conflicts.empty());
  const auto text = conflicts.front().describe();
  CHECK(text.find("XMP pith:number names pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65") != std::string::npos);
  CHECK(text.find("Info /PithNumber names pith:2020:WXNI57C2SJ24QK62DB7DTUREA3") != std::string::npos);
  CHECK_FALSE(extraction->number());
}

TEST_CASE("the same body with another year is a conflict", "[extract]") {
  pdf::PdfMetadata metadata;
  metadata.info_number = "pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65";
  metadata.xmp_packet = stamped_xmp("pith:2022:JFLLIOJUI2M3KX3FLLGP4N2V65", "");
  const auto extraction = pdf::extract_pith_numbers(metadata);
  REQUIRE(extraction);
  CHECK(extraction->conflicts().size() == 1);
}

TEST_CASE("a short form agrees with the full number it starts", "[extract]") {
  pdf::PdfMetadata metadata;
  metadata.info_number = bundle_number;
  metadata.link_uris = {"https://pith.science/pith/JFLLIOJU", "https://pith.science/pith/WXNI57C2"};
  const auto extraction = pdf::extract_pith_numbers(metadata);
  REQUIRE(extraction);
  REQUIRE(extraction->sightings.size() == 3);
  const auto conflicts = extraction->conflicts();
  REQUIRE(conflicts.size() == 2);  // WXNI57C2 against both others
  CHECK(conflicts[0].second.number.body == "WXNI57C2");
}

TEST_CASE("dc:identifier values of the form pith:… are sightings", "[extract]") {
  const std::string packet = R"(<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">
   <dc:identifier><rdf:Bag><rdf:li>doi:10.1/x</rdf:li><rdf:li>pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65</rdf:li><rdf:li>pith:not-a-number</rdf:li></rdf:Bag></dc:identifier>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>)";
  pdf::PdfMetadata metadata;
  metadata.xmp_packet = packet;
  const auto extraction = pdf::extract_pith_numbers(metadata);
  REQUIRE(extraction);
  REQUIRE(extraction->sightings.size() == 1);
  CHECK(extraction->sightings[0].source == pdf::NumberSource::xmp_identifier);
  CHECK(extraction->number().value().to_string() == bundle_number);
  REQUIRE(extraction->problems.size() == 1);
  CHECK(extraction->problems[0] == "XMP dc:identifier holds 'pith:not-a-number', which is not a Pith Number");
}

TEST_CASE("values that are not numbers are problems, quoted safely", "[extract]") {
  pdf::PdfMetadata metadata;
  metadata.info_number = "\x1b[2Jpwned";
  metadata.info_url = "https://pith.science/about";
  metadata.embedded_bundle = "{not json";
  metadata.link_uris = {"https://github.com/someone/pith/issues", "javascript:alert(1)"};
  const auto extraction = pdf::extract_pith_numbers(metadata);
  REQUIRE(extraction);
  CHECK_FALSE(extraction->found());
  REQUIRE(extraction->problems.size() == 3);
  CHECK(extraction->problems[0] == "Info /PithNumber holds '\\x1b[2Jpwned', which is not a Pith Number");
  CHECK(extraction->problems[1].find("Info /PithURL") == 0);
  CHECK(extraction->problems[2] == "embedded pith-bundle.json is not a JSON object");
}

TEST_CASE("a hostile embedded bundle is refused by the strict, bounded parser", "[extract]") {
  // A lenient parse of 16 MiB of `[` took over a gigabyte; the strict parser
  // stops at its depth bound.
  pdf::PdfMetadata metadata;
  metadata.embedded_bundle = std::string(std::size_t{4} << 20, '[');
  const auto extraction = pdf::extract_pith_numbers(metadata);
  REQUIRE(extraction);
  CHECK_FALSE(extraction->found());
  REQUIRE(extraction->problems.size() == 1);
  CHECK(extraction->problems[0] == "embedded pith-bundle.json is not a JSON object");
  // Duplicate keys may name two numbers: not a bundle either.
  metadata.embedded_bundle = R"({"pith_number":"a","pith_number":"b"})";
  const auto duplicate = pdf::extract_pith_numbers(metadata);
  REQUIRE(duplicate);
  CHECK(duplicate->problems.at(0) == "embedded pith-bundle.json is not a JSON object");
}

TEST_CASE("a PDF without pith metadata yields nothing", "[extract]") {
  pdf::PdfMetadata metadata;
  metadata.info_title = "A paper";
  metadata.xmp_packet = R"(<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/></x:xmpmeta>)";
  const auto extraction = pdf::extract_pith_numbers(metadata);
  REQUIRE(extraction);
  CHECK_FALSE(extraction->found());
  CHECK(extraction->problems.empty());
  CHECK_FALSE(extraction->number());
}

TEST_CASE("an unparseable XMP packet is a problem, other places still count", "[extract]") {
  pdf::PdfMetadata metadata;
  metadata.xmp_packet = "<x:xmpmeta><rdf:RDF><broken";
  metadata.info_number = bundle_number;
  const auto extraction = pdf::extract_pith_numbers(metadata);
  REQUIRE(extraction);
  CHECK(extraction->number().value().to_string() == bundle_number);
  REQUIRE(extraction->problems.size() == 1);
  CHECK(extraction->problems[0].find("XMP packet could not be parsed") != std::string::npos);
}

TEST_CASE("a number only in a body-only form has no full number", "[extract]") {
  pdf::PdfMetadata metadata;
  metadata.link_uris = {"https://pith.science/pith/JFLLIOJUI2M3KX3FLLGP4N2V65"};
  const auto extraction = pdf::extract_pith_numbers(metadata);
  REQUIRE(extraction);
  CHECK(extraction->found());
  CHECK_FALSE(extraction->number());  // the year is unknown: resolve it
  CHECK(extraction->sightings[0].number.to_string() == "pith:JFLLIOJUI2M3KX3FLLGP4N2V65");
}

TEST_CASE("page 1's printed pith:YYYY:BODY is found, full numbers only", "[extract][printed]") {
  const auto printed = pdf::printed_numbers({"Layered gradient accumulation",
                                             std::string("Pith Number ") + bundle_number + " (verify)",
                                             "see pith:JFLLIOJU and xpith:2020:WXNI57C2SJ24QK62DB7DTUREA3"});
  REQUIRE(printed.size() == 1);  // the short form and the one inside a word are not numbers printed for the paper
  CHECK(printed[0].number.to_string() == bundle_number);
  CHECK(printed[0].where == "page 1 text");
  CHECK(printed[0].source == pdf::NumberSource::page_text);
}

TEST_CASE("where is the number: the metadata's, else page 1's printed one as a hint", "[extract][printed]") {
  const auto printed = pdf::printed_numbers({std::string("badge ") + other_number});
  SECTION("metadata wins, and a different printed number is named") {
    auto extraction = pdf::extract_pith_numbers(stamped_everywhere());
    REQUIRE(extraction);
    const auto place = pdf::where_is_the_number(*extraction, printed);
    REQUIRE(place);
    CHECK_FALSE(place->hint);
    CHECK(place->number.to_string() == bundle_number);
    const auto other = pdf::printed_otherwise(printed, place->number);
    REQUIRE(other);
    CHECK(other->number.to_string() == other_number);
  }
  SECTION("no metadata: the printed number, marked a hint") {
    const pdf::PdfExtraction empty;
    const auto place = pdf::where_is_the_number(empty, printed);
    REQUIRE(place);
    CHECK(place->hint);
    CHECK(place->where == "page 1 text");
    CHECK(place->number.to_string() == other_number);
    CHECK_FALSE(pdf::where_is_the_number(empty, {}));
  }
  SECTION("two different printed numbers: page 1 does not say which") {
    const auto two = pdf::printed_numbers({std::string(bundle_number) + " " + other_number});
    CHECK(two.size() == 2);
    CHECK_FALSE(pdf::where_is_the_number(pdf::PdfExtraction{}, two));
  }
}
