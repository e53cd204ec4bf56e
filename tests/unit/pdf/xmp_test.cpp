// SPDX-License-Identifier: GPL-3.0-or-later
// XMP merge and read-back (Exempi), checked against exiftool as an
// independent reader.
#include "pith/pdf/xmp.hpp"
#include "support/command.hpp"
#include "support/test_data.hpp"

#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;
using pith::pdf::merge_pith_xmp;
using pith::pdf::read_xmp;

namespace {

pith::carrier::PithProperties sample_props() {
  pith::carrier::PithProperties p;
  p.number = "pith:2020:WXNI57C2SJ24QK62DB7DTUREA3";
  p.canonical_record = R"({"metadata":{"title":"Exploring <the> limits & \"more\""},"v":1})";
  p.canonical_sha256 = "b5da8efc5a9275c82bda187e39d22406cb4d4359bb8101b2b8200a6c524a5b91";
  p.receipt_signature = "c2lnbmF0dXJlL2Jhc2U2NCs9PQ==";
  p.key_id = "pith-v1-2026-05";
  p.key_fingerprint = "8d4b5ee74e4693bcd1df2446408b0d54";
  p.resolver_url = "https://pith.science/pith/WXNI57C2SJ24QK62DB7DTUREA3";
  p.tool = "pith-stamp 0.1.0";
  return p;
}

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string data_file(const char* name) { return slurp(fs::path(PITH_TEST_DATA_DIR) / name); }

// A fresh scratch directory (removed with the test process's scratch).
struct TempDir {
  fs::path path = pith::test::fresh_temp_dir("xmp");
};

// What exiftool prints for `file` with `options`; it must succeed.
std::string exiftool(const std::string& options, const fs::path& file) {
  const auto result = pith::test::run("exiftool " + options + " " + pith::test::quote(file));
  REQUIRE(result.status == 0);
  return result.out;
}

// exiftool's reading of one tag of a written .xmp file (-b: raw value).
std::string exiftool_tag(const fs::path& file, const std::string& tag) { return exiftool("-b -" + tag, file); }

// A packet as many PDF producers write it: dc:title / dc:creator, dates and
// ids that a merge must not touch.
constexpr const char* plain_packet = R"(<?xpacket begin="﻿" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about=""
    xmlns:dc="http://purl.org/dc/elements/1.1/"
    xmlns:xmp="http://ns.adobe.com/xap/1.0/"
    xmlns:pdf="http://ns.adobe.com/pdf/1.3/"
    xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/">
   <dc:title><rdf:Alt><rdf:li xml:lang="x-default">Layered gradient accumulation</rdf:li></rdf:Alt></dc:title>
   <dc:creator><rdf:Seq><rdf:li>Ada Lovelace</rdf:li><rdf:li>Alan Turing</rdf:li></rdf:Seq></dc:creator>
   <xmp:MetadataDate>2021-03-04T05:06:07Z</xmp:MetadataDate>
   <xmp:CreateDate>2021-03-04T05:06:07Z</xmp:CreateDate>
   <pdf:Producer>pdfTeX-1.40.24</pdf:Producer>
   <xmpMM:DocumentID>uuid:11111111-2222-3333-4444-555555555555</xmpMM:DocumentID>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>)";

}  // namespace

TEST_CASE("a fresh packet holds every pith property and reads back", "[xmp]") {
  const auto props = sample_props();
  const auto packet = merge_pith_xmp("", props);
  REQUIRE(packet);
  CHECK(packet->starts_with("<?xpacket begin="));
  CHECK(packet->find("<?xpacket end=\"w\"?>") != std::string::npos);
  CHECK(packet->find("xmlns:pith=\"https://pith.science/ns/1.0/\"") != std::string::npos);

  const auto back = read_xmp(*packet);
  REQUIRE(back);
  REQUIRE(back->parsed);
  CHECK(back->number == props.number);
  CHECK(back->canonical_record == props.canonical_record);
  CHECK(back->canonical_sha256 == props.canonical_sha256);
  CHECK(back->receipt_signature == props.receipt_signature);
  CHECK(back->key_id == props.key_id);
  CHECK(back->key_fingerprint == props.key_fingerprint);
  CHECK(back->resolver_url == props.resolver_url);
  CHECK(back->tool == props.tool);
  CHECK_FALSE(back->original_sha256);
  CHECK_FALSE(back->original_length);
  CHECK(back->malformed.empty());
  CHECK(back->has_pith_properties());
  CHECK_FALSE(back->title);
}

TEST_CASE("originalSha256 and originalLength are written only when set", "[xmp]") {
  auto props = sample_props();
  props.original_sha256 = std::string(64, 'a');
  props.original_length = 18446744073709551615ULL;
  const auto packet = merge_pith_xmp("", props);
  REQUIRE(packet);
  const auto back = read_xmp(*packet);
  REQUIRE(back);
  CHECK(back->original_sha256 == std::string(64, 'a'));
  CHECK(back->original_length == "18446744073709551615");
}

TEST_CASE("merging is deterministic and a re-merge gives identical bytes", "[xmp]") {
  auto props = sample_props();
  props.original_sha256 = std::string(64, 'b');
  props.original_length = 123456;
  for (const std::string& existing : {std::string(), std::string(plain_packet), data_file("hyperxmp-sample.xmp")}) {
    const auto once = merge_pith_xmp(existing, props);
    REQUIRE(once);
    const auto again = merge_pith_xmp(existing, props);
    REQUIRE(again);
    CHECK(*once == *again);
    const auto remerged = merge_pith_xmp(*once, props);
    REQUIRE(remerged);
    CHECK(*remerged == *once);
  }
}

TEST_CASE("merging keeps dc:title, dc:creator, dates and ids untouched", "[xmp]") {
  const auto packet = merge_pith_xmp(plain_packet, sample_props());
  REQUIRE(packet);
  for (const char* kept : {"Layered gradient accumulation", "<rdf:li>Ada Lovelace</rdf:li>",
                           "<rdf:li>Alan Turing</rdf:li>", "<xmp:MetadataDate>2021-03-04T05:06:07Z</xmp:MetadataDate>",
                           "<xmp:CreateDate>2021-03-04T05:06:07Z</xmp:CreateDate>",
                           "<pdf:Producer>pdfTeX-1.40.24</pdf:Producer>",
                           "uuid:11111111-2222-3333-4444-555555555555"}) {
    INFO(kept);
    CHECK(packet->find(kept) != std::string::npos);
  }
  // Nothing of our own beyond the pith namespace: no new dates or ids.
  CHECK(packet->find("ModifyDate") == std::string::npos);
  CHECK(packet->find("InstanceID") == std::string::npos);
  const auto back = read_xmp(*packet);
  REQUIRE(back);
  CHECK(back->title == "Layered gradient accumulation");
  CHECK(back->number == sample_props().number);
}

TEST_CASE("merging into a hyperxmp packet keeps its properties", "[xmp]") {
  const auto hyperxmp = data_file("hyperxmp-sample.xmp");
  REQUIRE(hyperxmp.find("hyperref") != std::string::npos);
  const auto packet = merge_pith_xmp(hyperxmp, sample_props());
  REQUIRE(packet);
  const auto back = read_xmp(*packet);
  REQUIRE(back);
  // hyperxmp writes only xml:lang="en", no x-default: the first item is taken.
  CHECK(back->title == "A Study of Things");
  REQUIRE(back->identifiers.size() == 1);
  CHECK(back->identifiers[0] == "info:doi/10.1234/abcd");
  CHECK(back->number == sample_props().number);

  TempDir dir;
  const auto file = dir.path / "merged.xmp";
  std::ofstream(file, std::ios::binary) << *packet;
  CHECK(exiftool_tag(file, "XMP-dc:Title-en") == "A Study of Things");
  CHECK(exiftool_tag(file, "XMP-dc:Creator") == "Ada Lovelace\nAlan Turing");
  CHECK(exiftool_tag(file, "XMP-xmpMM:DocumentID") == "uuid:fdc90ae4-182b-4b6c-a467-59b67f2bbb62");
  CHECK(exiftool_tag(file, "XMP-xmp:MetadataDate") == "2026:12:02 14:07:00Z");
  CHECK(exiftool_tag(file, "XMP-prism:DOI") == "10.1234/abcd");
  CHECK(exiftool_tag(file, "XMP-pdf:Keywords") == "one, two");
  // The PDF/A extension schema description (a deep struct) is still there.
  CHECK(packet->find("PRISM Basic Metadata") != std::string::npos);
  CHECK(packet->find("Document's subtitle") != std::string::npos);
}

TEST_CASE("exiftool reads back the pith properties exactly", "[xmp][exiftool]") {
  auto props = sample_props();
  props.tool = "pith-stamp 0.1.0 <&>]]>\"'é中\u00a0";
  props.original_sha256 = std::string(64, 'c');
  props.original_length = 98765;
  const auto packet = merge_pith_xmp(plain_packet, props);
  REQUIRE(packet);
  TempDir dir;
  const auto file = dir.path / "stamped.xmp";
  std::ofstream(file, std::ios::binary) << *packet;

  const auto all = exiftool("-XMP-pith:all", file);
  CHECK(all.find("WXNI57C2SJ24QK62DB7DTUREA3") != std::string::npos);
  CHECK(exiftool_tag(file, "XMP-pith:Number") == props.number);
  CHECK(exiftool_tag(file, "XMP-pith:CanonicalRecord") == props.canonical_record);
  CHECK(exiftool_tag(file, "XMP-pith:CanonicalSha256") == props.canonical_sha256);
  CHECK(exiftool_tag(file, "XMP-pith:ReceiptSignature") == props.receipt_signature);
  CHECK(exiftool_tag(file, "XMP-pith:KeyId") == props.key_id);
  CHECK(exiftool_tag(file, "XMP-pith:KeyFingerprint") == props.key_fingerprint);
  CHECK(exiftool_tag(file, "XMP-pith:ResolverUrl") == props.resolver_url);
  CHECK(exiftool_tag(file, "XMP-pith:Tool") == props.tool);
  CHECK(exiftool_tag(file, "XMP-pith:OriginalSha256") == *props.original_sha256);
  CHECK(exiftool_tag(file, "XMP-pith:OriginalLength") == "98765");
  CHECK(exiftool_tag(file, "XMP-dc:Title") == "Layered gradient accumulation");
}

TEST_CASE("hostile values survive the round trip byte for byte", "[xmp]") {
  const std::string hostile = "a<b>&c]]>d\"e'f &amp; <!-- x --> <?pi?> é 中 \xF0\x9F\x98\x80 \t tab \r cr \n lf \xC2\x80 \xC2\x9F";  // C1 controls are fine
  auto props = sample_props();
  props.canonical_record = hostile;
  props.tool = hostile;
  const auto packet = merge_pith_xmp("", props);
  REQUIRE(packet);
  CHECK(packet->find("]]>d") == std::string::npos);  // escaped, not raw
  const auto back = read_xmp(*packet);
  REQUIRE(back);
  CHECK(back->canonical_record == hostile);
  CHECK(back->tool == hostile);
}

TEST_CASE("values XML 1.0 cannot carry are refused, naming the property", "[xmp]") {
  const auto refused = [](std::string value) {
    auto props = sample_props();
    props.key_id = std::move(value);
    return merge_pith_xmp("", props);
  };
  const auto control = refused(std::string("key\x01id"));
  REQUIRE_FALSE(control);
  CHECK(control.error().where == "XMP pith:keyId");
  CHECK(control.error().message.find("U+0001") != std::string::npos);
  CHECK_FALSE(refused(std::string("nul\0byte", 8)));
  CHECK_FALSE(refused("\x1B[31m"));
  CHECK_FALSE(refused("del\x7F"));
  CHECK_FALSE(refused("\xEF\xBF\xBF"));    // U+FFFF
  const auto bad_utf8 = refused("caf\xE9");  // Latin-1, not UTF-8
  REQUIRE_FALSE(bad_utf8);
  CHECK(bad_utf8.error().message.find("invalid UTF-8 at byte 3") != std::string::npos);
  CHECK_FALSE(refused("\xED\xA0\x80"));  // a UTF-16 surrogate encoded as UTF-8
}

TEST_CASE("a Pith Number is required", "[xmp]") {
  auto props = sample_props();
  props.number.clear();
  CHECK_FALSE(merge_pith_xmp("", props));
}

TEST_CASE("stale pith properties are replaced, whatever prefix they used", "[xmp]") {
  const std::string stale = R"(<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about="" xmlns:p="https://pith.science/ns/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
   <p:number>pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65</p:number>
   <p:originalSha256>dead</p:originalSha256>
   <p:futureProperty>old</p:futureProperty>
   <dc:format>application/pdf</dc:format>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>)";
  const auto packet = merge_pith_xmp(stale, sample_props());
  REQUIRE(packet);
  CHECK(packet->find("JFLLIOJUI2M3KX3FLLGP4N2V65") == std::string::npos);
  CHECK(packet->find("futureProperty") == std::string::npos);
  CHECK(packet->find("application/pdf") != std::string::npos);
  const auto back = read_xmp(*packet);
  REQUIRE(back);
  CHECK(back->number == sample_props().number);
  CHECK_FALSE(back->original_sha256);
}

TEST_CASE("a packet binding the pith prefix to another namespace keeps both", "[xmp]") {
  const std::string squatter = R"(<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about="" xmlns:pith="http://example.com/not-pith/">
   <pith:number>not a pith number</pith:number>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>)";
  const auto packet = merge_pith_xmp(squatter, sample_props());
  REQUIRE(packet);
  CHECK(packet->find("not a pith number") != std::string::npos);
  CHECK(packet->find("http://example.com/not-pith/") != std::string::npos);
  const auto back = read_xmp(*packet);
  REQUIRE(back);
  CHECK(back->number == sample_props().number);
  // And read alone, the squatter is not taken for a pith property.
  const auto alone = read_xmp(squatter);
  REQUIRE(alone);
  CHECK(alone->parsed);
  CHECK_FALSE(alone->number);
  CHECK_FALSE(alone->has_pith_properties());
}

TEST_CASE("a broken existing packet is an error, not a silent replacement", "[xmp]") {
  const auto merged = merge_pith_xmp("<x:xmpmeta><rdf:RDF><unclosed", sample_props());
  REQUIRE_FALSE(merged);
  CHECK(merged.error().where.find("existing") != std::string::npos);
}

TEST_CASE("read_xmp reports unparseable, oversized and too deep packets", "[xmp]") {
  const auto empty = read_xmp("");
  REQUIRE(empty);
  CHECK_FALSE(empty->parsed);

  const auto broken = read_xmp("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF></x:xmpmeta>");
  REQUIRE(broken);
  CHECK_FALSE(broken->parsed);
  CHECK_FALSE(broken->parse_error.empty());

  const auto huge = read_xmp(std::string(pith::pdf::max_xmp_packet_bytes + 1, ' '));
  REQUIRE_FALSE(huge);
  CHECK(huge.error().message.find("limit") != std::string::npos);

  std::string deep;
  for (int i = 0; i < 100000; ++i) deep += "<a>";
  const auto too_deep = read_xmp(deep);
  REQUIRE_FALSE(too_deep);
  CHECK(too_deep.error().message.find("nests") != std::string::npos);
  CHECK_FALSE(merge_pith_xmp(deep, sample_props()));

  // Depth counting ignores markup-like text in comments, CDATA and attributes.
  std::string decoy = "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\" a=\"";
  for (int i = 0; i < 1000; ++i) decoy += "&lt;b&gt;";
  decoy += "\"><!--";
  for (int i = 0; i < 1000; ++i) decoy += "<c>";
  decoy += "--></x:xmpmeta>";
  const auto decoyed = read_xmp(decoy);
  REQUIRE(decoyed);
  CHECK(decoyed->parsed);
}

TEST_CASE("read_xmp returns dc:identifier values, simple or bag, and the x-default title", "[xmp]") {
  const std::string packet = R"(<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">
   <dc:identifier><rdf:Bag><rdf:li>doi:10.1/x</rdf:li><rdf:li>pith:2020:WXNI57C2SJ24QK62DB7DTUREA3</rdf:li></rdf:Bag></dc:identifier>
   <dc:title><rdf:Alt><rdf:li xml:lang="de">Titel</rdf:li><rdf:li xml:lang="x-default">Title</rdf:li></rdf:Alt></dc:title>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>)";
  const auto back = read_xmp(packet);
  REQUIRE(back);
  REQUIRE(back->parsed);
  CHECK(back->identifiers == std::vector<std::string>{"doi:10.1/x", "pith:2020:WXNI57C2SJ24QK62DB7DTUREA3"});
  CHECK(back->title == "Title");
  CHECK_FALSE(back->has_pith_properties());
}

TEST_CASE("read_xmp flags pith properties in a shape we never write", "[xmp]") {
  const std::string packet = R"(<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about="" xmlns:pith="https://pith.science/ns/1.0/">
   <pith:number><rdf:Bag><rdf:li>pith:2020:A</rdf:li><rdf:li>pith:2020:B</rdf:li></rdf:Bag></pith:number>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>)";
  const auto back = read_xmp(packet);
  REQUIRE(back);
  CHECK_FALSE(back->number);
  CHECK(back->malformed == std::vector<std::string>{"pith:number"});
  CHECK(back->has_pith_properties());
}

TEST_CASE("mutated packets never crash; whatever merges reads back", "[xmp][hostile]") {
  // Deterministic mutations of a real packet: bit flips, truncations, splices.
  const auto base = data_file("hyperxmp-sample.xmp");
  const auto props = sample_props();
  std::uint32_t state = 12345;
  const auto next = [&state] {
    state = state * 1664525u + 1013904223u;
    return state >> 8;
  };
  int merged = 0;
  for (int i = 0; i < 600; ++i) {
    std::string packet = base;
    switch (i % 3) {
      case 0:
        for (int k = 0; k < 8; ++k) packet[next() % packet.size()] ^= static_cast<char>(1u << (next() % 8));
        break;
      case 1: packet.resize(next() % packet.size()); break;
      default: packet.insert(next() % packet.size(), base.substr(next() % base.size(), next() % 400)); break;
    }
    const auto readout = read_xmp(packet);
    REQUIRE(readout);  // bounded input: never an Error, at worst !parsed
    const auto result = merge_pith_xmp(packet, props);
    if (!result) continue;
    ++merged;
    const auto back = read_xmp(*result);
    REQUIRE(back);
    REQUIRE(back->parsed);
    CHECK(back->number == props.number);
  }
  CHECK(merged > 0);
}

TEST_CASE("merging from several threads at once gives the same bytes", "[xmp][threads]") {
  const auto existing = data_file("hyperxmp-sample.xmp");
  const auto props = sample_props();
  const auto expected = merge_pith_xmp(existing, props);
  REQUIRE(expected);
  std::vector<std::string> results(4);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < results.size(); ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 25; ++i) {
        auto merged = merge_pith_xmp(existing, props);
        auto read = merged ? read_xmp(*merged) : pith::Result<pith::pdf::XmpReadout>(std::unexpected(merged.error()));
        if (!merged || !read || read->number != props.number) return;
        results[t] = *merged;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  for (const auto& r : results) CHECK(r == *expected);
}
