// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 13, "the child only extracts": the child that parses a PDF sends
// facts (pdf/facts.hpp), the checking process judges them. A child
// that lies about what the file holds cannot make it verify; the wire keeps
// every byte a PDF string holds.
#include "pith/check/file.hpp"
#include "pith/check/pdf.hpp"
#include "pith/pdf/facts.hpp"
#include "pith/carrier/vocabulary.hpp"
#include "support/test_data.hpp"
#include "support/test_signer.hpp"

#include <catch2/catch.hpp>

#include <zlib.h>

#include <algorithm>
#include <cstdlib>

using nlohmann::json;
using pith::Verdict;
namespace check = pith::check;

namespace {

// The report's JSON without the note that only a check through a child has.
json without_isolation_note(const check::FileCheck& checked) {
  json out = checked.to_json();
  auto& checks = out["checks"];
  checks.erase(std::remove_if(checks.begin(), checks.end(),
                              [](const json& c) { return c["code"] == "isolation.parent.verified"; }),
               checks.end());
  return out;
}

const std::string title = pith::test::RecordSpec{}.title;

// A PDF text string in UTF-16BE (hex), which can hold any code point.
std::string utf16_hex(const std::string& ascii) {
  static constexpr char digits[] = "0123456789ABCDEF";
  std::string out = "<FEFF";
  for (const char c : ascii) {
    const auto u = static_cast<unsigned char>(c);
    out += std::string("00") + digits[u >> 4] + digits[u & 15];
  }
  return out + ">";
}

std::string deflate(const std::string& data) {
  uLongf size = compressBound(static_cast<uLong>(data.size()));
  std::string out(size, '\0');
  REQUIRE(compress(reinterpret_cast<Bytef*>(out.data()), &size, reinterpret_cast<const Bytef*>(data.data()),
                   static_cast<uLong>(data.size())) == Z_OK);
  out.resize(size);
  return out;
}

// A one-page PDF with a classic xref: Info /Title and /PithNumber, and, when
// given, an embedded pith-bundle.json (its stream data as given, with
// `filter`). `bundle_at` receives where the stream data starts.
struct Built {
  std::string bytes;
  std::uint64_t bundle_at = 0;
};
Built build_pdf(const std::string& info_title, const std::string& number, const std::string& bundle_data = {},
                const std::string& filter = {}, const std::string& more_info = {}) {
  // Page 1 shows the record's title (what binds it: issue 22), in a font
  // the PDF does not embed (drawn with the system's substitute).
  const std::string contents = bundle_data.empty() ? "5" : "7";
  std::vector<std::string> objects = {
      bundle_data.empty() ? "<< /Type /Catalog /Pages 2 0 R >>"
                          : "<< /Type /Catalog /Pages 2 0 R /Names << /EmbeddedFiles << /Names [(pith-bundle.json) 6 0 R] >> >> >>",
      "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents " + contents +
          " 0 R /Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >> >>",
      "<< /Title " + info_title + " /PithNumber (" + number + ") " + more_info + ">>",
  };
  const std::string stream_head = "<< /Type /EmbeddedFile /Length " + std::to_string(bundle_data.size()) +
                                  (filter.empty() ? "" : " /Filter /" + filter) + " >>\nstream\n";
  if (!bundle_data.empty()) {
    objects.push_back(stream_head + bundle_data + "\nendstream");
    objects.push_back("<< /Type /Filespec /F (pith-bundle.json) /EF << /F 5 0 R >> >>");
  }
  const std::string shown = "BT /F1 14 Tf 72 700 Td (" + title + ") Tj ET";
  objects.push_back("<< /Length " + std::to_string(shown.size()) + " >>\nstream\n" + shown + "\nendstream");
  Built out;
  out.bytes = "%PDF-1.7\n";
  std::vector<std::size_t> offsets;
  for (std::size_t i = 0; i < objects.size(); ++i) {
    offsets.push_back(out.bytes.size());
    const std::string head = std::to_string(i + 1) + " 0 obj\n";
    if (i == 4) out.bundle_at = out.bytes.size() + head.size() + stream_head.size();
    out.bytes += head + objects[i] + "\nendobj\n";
  }
  const std::size_t xref = out.bytes.size();
  out.bytes += "xref\n0 " + std::to_string(objects.size() + 1) + "\n0000000000 65535 f \n";
  for (const auto o : offsets) {
    const std::string n = std::to_string(o);
    out.bytes += std::string(10 - n.size(), '0') + n + " 00000 n \n";
  }
  out.bytes += "trailer\n<< /Size " + std::to_string(objects.size() + 1) + " /Root 1 0 R /Info 4 0 R >>\nstartxref\n" +
               std::to_string(xref) + "\n%%EOF\n";
  return out;
}

// What a compromised child would claim for `file`: the genuine signed bundle
// embedded, the record's title on page 1 and in Info.
pith::pdf::PdfFacts lying_facts(const std::string& bundle, const std::string& number) {
  pith::pdf::PdfFacts facts;
  facts.metadata.info_number = number;
  facts.metadata.info_title = title;
  facts.metadata.embedded_bundle = bundle;
  facts.metadata.embedded_bundle_count = 1;
  facts.metadata.embedded_bundle_span = pith::pdf::StreamSpan{9, bundle.size()};
  facts.page = pith::pdf::PageText::all_seen({title, "A. Tester"});
  return facts;
}

}  // namespace

TEST_CASE("a real PDF carrying a signed bundle verifies through the child, as in one process", "[facts][trust]") {
  const std::string bundle = pith::test::to_bytes(pith::test::make_signed_bundle());
  const std::string number = json::parse(bundle)["pith_number"].get<std::string>();
  for (const std::string filter : {"", "FlateDecode"}) {
    INFO("filter " << filter);
    const Built pdf = build_pdf("(" + title + ")", number, filter.empty() ? bundle : deflate(bundle), filter);
    const auto isolated = check::check_bytes(pdf.bytes, "paper.pdf", pith::test::test_trust());
    const auto in_process = check::check_pdf_bytes(pdf.bytes, pith::test::test_trust(), "paper.pdf");
    CHECK(isolated.report.verdict() == Verdict::verified);
    REQUIRE(isolated.report.find("isolation.parent.verified"));
    CHECK(without_isolation_note(isolated) == in_process.to_json());
  }
}

TEST_CASE("the facts of a PDF already open (pith-stamp's examining worker) are those read from its bytes", "[facts]") {
  const std::string bundle = pith::test::to_bytes(pith::test::make_signed_bundle());
  const std::string number = json::parse(bundle)["pith_number"].get<std::string>();
  const Built pdf = build_pdf("(" + title + ")", number, bundle);
  pith::pdf::ReaderLimits limits;
  limits.recover_damaged_xref = true;  // as pith-stamp opens it
  auto reader = pith::pdf::Reader::open(pdf.bytes, "paper.pdf", limits);
  REQUIRE(reader);
  const pith::pdf::PdfFacts open = pith::pdf::read_pdf_facts(*reader, pdf.bytes);
  REQUIRE(open.metadata.embedded_bundle == bundle);
  CHECK(open.page);
  CHECK(open == pith::pdf::read_pdf_facts(pdf.bytes, "paper.pdf"));
  CHECK(open.to_wire() == pith::pdf::read_pdf_facts(pdf.bytes, "paper.pdf").to_wire());
}

TEST_CASE("page 1's text read beside the facts is judged as the facts that carry it; its failure is the input's",
          "[facts][trust]") {
  const std::string bundle = pith::test::to_bytes(pith::test::make_signed_bundle());
  const std::string number = json::parse(bundle)["pith_number"].get<std::string>();
  const Built pdf = build_pdf("(" + title + ")", number, bundle);
  const auto& trust = pith::test::test_trust();
  const std::string whole = pith::pdf::read_pdf_facts(pdf.bytes, "paper.pdf").to_wire();
  const std::string without_page = pith::pdf::read_pdf_facts(pdf.bytes, "paper.pdf", pith::pdf::PageOneText::elsewhere).to_wire();
  const auto facts = pith::pdf::PdfFacts::from_wire(without_page);
  REQUIRE(facts);
  CHECK_FALSE(facts->page);
  const std::string page_wire = pith::pdf::page_text_to_wire(pith::pdf::read_page_text(pdf.bytes, {}));
  int asked = 0;
  const check::PageTextBeside beside = [&]() -> pith::Result<std::string> {
    ++asked;
    return page_wire;
  };
  const auto one_child = check::judge_pdf_message(pdf.bytes, whole, trust, "paper.pdf");
  const auto two_children = check::judge_pdf_message(pdf.bytes, without_page, trust, "paper.pdf", beside);
  CHECK(one_child.report.verdict() == Verdict::verified);
  CHECK(two_children.to_json() == one_child.to_json());
  CHECK(asked == 1);  // awaited once, however often the judgement reads page 1
  // The page's reader stopped by its budget: the input is unverifiable with that reason, as one child stopped would make it.
  const pith::Error stopped{pith::ErrorKind::limit, "", "the check exceeded the memory limit of 16 MiB and was stopped"};
  const check::PageTextBeside stopped_beside = [&]() -> pith::Result<std::string> { return std::unexpected(stopped); };
  const auto limited = check::judge_pdf_message(pdf.bytes, without_page, trust, "paper.pdf", stopped_beside);
  const auto one_stopped = check::judge_pdf_message(pdf.bytes, std::unexpected(stopped), trust, "paper.pdf");
  CHECK(limited.report.verdict() == Verdict::unverifiable);
  CHECK(limited.to_json() == one_stopped.to_json());
  // A message that is not page 1's text (a hostile child) is refused, never judged as an empty page.
  const check::PageTextBeside garbled = [&]() -> pith::Result<std::string> { return page_wire.substr(0, page_wire.size() / 2); };
  const auto refused = check::judge_pdf_message(pdf.bytes, without_page, trust, "paper.pdf", garbled);
  CHECK(refused.report.verdict() == Verdict::error);
}

TEST_CASE("page 1's text alone on the wire comes back whole and strictly, with the metadata's links", "[facts]") {
  pith::pdf::PageText page = pith::pdf::PageText::all_seen({"A title", "\xff not UTF-8 \x01"});
  page.problem = "a problem";
  const std::string wire = pith::pdf::page_text_to_wire(page);
  const auto back = pith::pdf::page_text_from_wire(wire, {"https://example.org/"});
  REQUIRE(back);
  CHECK(back->lines == page.lines);
  CHECK(back->seen == page.seen);
  CHECK(back->problem == page.problem);
  CHECK(back->link_uris == std::vector<std::string>{"https://example.org/"});
  CHECK_FALSE(pith::pdf::page_text_from_wire(wire + "x", {}));
  CHECK_FALSE(pith::pdf::page_text_from_wire(wire.substr(0, wire.size() - 1), {}));
  CHECK_FALSE(pith::pdf::page_text_from_wire(pith::pdf::PdfFacts{}.to_wire(), {}));  // another message's tag
}

TEST_CASE("a lying child cannot make a file verify that does not carry the signed record", "[facts][trust]") {
  const std::string bundle = pith::test::to_bytes(pith::test::make_signed_bundle());
  const std::string number = json::parse(bundle)["pith_number"].get<std::string>();

  SECTION("control: the same claims about a file that does hold the bundle verify") {
    const Built pdf = build_pdf("(" + title + ")", number, bundle);
    pith::pdf::PdfFacts facts = lying_facts(bundle, number);
    facts.metadata.embedded_bundle_span = pith::pdf::StreamSpan{pdf.bundle_at, bundle.size()};
    facts.page = pith::pdf::read_page_text(pdf.bytes, {});  // where page 1 draws the title: the glyph check reads it
    CHECK(check::judge_pdf_facts(pdf.bytes, facts, pith::test::test_trust(), "paper.pdf").report.verdict() == Verdict::verified);
  }
  SECTION("a bundle the bytes do not hold, with a title binding claimed") {
    const Built pdf = build_pdf("(" + title + ")", number);  // names the number, carries nothing
    const auto got = check::judge_pdf_facts(pdf.bytes, lying_facts(bundle, number), pith::test::test_trust(), "paper.pdf").report;
    CHECK(got.verdict() == Verdict::failed);
    REQUIRE(got.find("isolation.child.rejected"));
    CHECK(got.find("isolation.child.rejected")->status == pith::CheckStatus::fail);
  }
  SECTION("a bundle span that points at other bytes of the file") {
    const Built pdf = build_pdf("(" + title + ")", number, bundle);
    pith::pdf::PdfFacts facts = lying_facts(bundle, number);
    facts.metadata.embedded_bundle_span = pith::pdf::StreamSpan{pdf.bundle_at + 1, bundle.size()};
    CHECK(check::judge_pdf_facts(pdf.bytes, facts, pith::test::test_trust(), "paper.pdf").report.verdict() == Verdict::failed);
    facts.metadata.embedded_bundle_span = pith::pdf::StreamSpan{pdf.bytes.size() - 1, bundle.size()};
    CHECK(check::judge_pdf_facts(pdf.bytes, facts, pith::test::test_trust(), "paper.pdf").report.verdict() == Verdict::failed);
    facts.metadata.embedded_bundle_span.reset();
    CHECK(check::judge_pdf_facts(pdf.bytes, facts, pith::test::test_trust(), "paper.pdf").report.verdict() == Verdict::failed);
  }
  SECTION("xref offsets that point at no section are not taken") {
    const Built pdf = build_pdf("(" + title + ")", number, bundle);
    pith::pdf::PdfFacts facts = lying_facts(bundle, number);
    facts.metadata.embedded_bundle_span = pith::pdf::StreamSpan{pdf.bundle_at, bundle.size()};
    facts.page = pith::pdf::read_page_text(pdf.bytes, {});  // where page 1 draws the title: the glyph check reads it
    facts.metadata.xref_section_offsets = std::vector<std::uint64_t>{pdf.bytes.size() + 100};
    CHECK(check::judge_pdf_facts(pdf.bytes, facts, pith::test::test_trust(), "paper.pdf").report.verdict() == Verdict::verified);
  }
  SECTION("malformed facts are an error, not a verdict") {
    const Built pdf = build_pdf("(" + title + ")", number, bundle);
    pith::pdf::PdfFacts facts = lying_facts(bundle, number);
    facts.metadata.embedded_bundle_span = pith::pdf::StreamSpan{pdf.bundle_at, bundle.size()};
    facts.page = pith::pdf::read_page_text(pdf.bytes, {});  // where page 1 draws the title: the glyph check reads it
    const std::string wire = facts.to_wire();
    REQUIRE(check::judge_pdf_message(pdf.bytes, wire, pith::test::test_trust(), "paper.pdf").report.verdict() == Verdict::verified);
    const auto judged = [&](const std::string& sent) {
      return check::judge_pdf_message(pdf.bytes, sent, pith::test::test_trust(), "paper.pdf").report;
    };
    // Cut short anywhere, one byte too many, an older JSON message: errors.
    for (const std::size_t keep : {std::size_t{0}, std::size_t{7}, wire.size() / 2, wire.size() - 1}) {
      CAPTURE(keep);
      CHECK(judged(wire.substr(0, keep)).verdict() == Verdict::error);
    }
    CHECK(judged(wire + "x").verdict() == Verdict::error);
    CHECK(judged(R"({"error":null})").verdict() == Verdict::error);
    const auto got = judged(wire.substr(0, wire.size() - 1));
    REQUIRE(got.error);
    CHECK_THAT(got.error->message, Catch::Matchers::Contains("malformed facts") && Catch::Matchers::Contains("cut short"));
  }
}

TEST_CASE("the facts wire keeps every byte of hostile PDF strings", "[facts][json]") {
  const std::string hostile = std::string("\x1b[2J\x1b[32m\xe2\x9c\x93 verified\x1b[0m") + '\0' + "\xff\xfe\x9b" + "\xe2\x80\xae";
  pith::pdf::PdfFacts facts;
  facts.metadata.info_title = hostile;
  facts.metadata.info_number = hostile;
  facts.metadata.xmp_packet = "<x:xmpmeta>" + hostile + "</x:xmpmeta>";
  facts.metadata.xmp_span = pith::pdf::StreamSpan{1, 2};
  facts.metadata.link_uris = {hostile, "https://pith.science/pith/X"};
  facts.metadata.read_problems = {hostile};
  facts.metadata.xref_section_offsets = std::vector<std::uint64_t>{17, 4};
  facts.page = pith::pdf::PageText::all_seen({"line one", "line two"});
  facts.page->seen[1] = "01000100";  // some characters a reader cannot see
  facts.page->hidden[1] = pith::pdf::hidden_no_contrast | pith::pdf::hidden_tiny;
  facts.page->boxes[0] = {72.5, 100.25, 300, 118};
  facts.page->page_width = 612;
  facts.page->page_height = 792;
  facts.page->measure = {16, 2, 1, 1};
  facts.page->link_uris = facts.metadata.link_uris;
  facts.page->problem = hostile;
  facts.stamped_length = 12;
  facts.stamped_info_title = hostile;
  facts.page_one_changes = {"page 1 3 0 R"};
  const auto back = pith::pdf::PdfFacts::from_wire(facts.to_wire());
  REQUIRE(back);
  CHECK(*back == facts);
  CHECK(back->metadata.info_title == hostile);

  // A hostile /PithURL reaches --json exactly, through the child as in one
  // process, and the text report escapes it.
  const std::string bundle = pith::test::to_bytes(pith::test::make_signed_bundle());
  const std::string number = json::parse(bundle)["pith_number"].get<std::string>();
  const std::string url = "https://pith.science/pith/" + number.substr(10) + "?\x1b[2J\x1b[32mverified\x1b[0m";
  const Built pdf = build_pdf("(" + title + ")", number, bundle, "", "/PithURL " + utf16_hex(url));
  const auto isolated = check::check_bytes(pdf.bytes, "paper.pdf", pith::test::test_trust());
  const auto in_process = check::check_pdf_bytes(pdf.bytes, pith::test::test_trust(), "paper.pdf");
  CHECK(without_isolation_note(isolated) == in_process.to_json());
  const auto sources = isolated.to_json()["details"]["pith_sources"];
  CHECK(std::any_of(sources.begin(), sources.end(), [&](const json& s) { return s.value("url", "") == url; }));
  CHECK(isolated.report.to_text().find('\x1b') == std::string::npos);
}

TEST_CASE("the facts wire carries the file key and the signatures, and refuses values no reader writes", "[facts]") {
  pith::pdf::PdfFacts facts;
  facts.file_key = pith::pdf::FileKey{pith::pdf::FileKey::Cipher::rc4, std::string("\x01\x02\x03\x04\x05", 5)};
  facts.signatures = {pith::pdf::PdfSignature{"Sig1", "A. Signer", "D:20240101000000Z", "adbe.pkcs7.detached", 1234, 2},
                      pith::pdf::PdfSignature{"", "", "", "", std::nullopt, std::nullopt}};
  const auto back = pith::pdf::PdfFacts::from_wire(facts.to_wire());
  REQUIRE(back);
  CHECK(*back == facts);

  for (auto bad : {pith::pdf::FileKey{static_cast<pith::pdf::FileKey::Cipher>(9), "k"},
                   pith::pdf::FileKey{pith::pdf::FileKey::Cipher::aes128, ""}}) {
    pith::pdf::PdfFacts wrong = facts;
    wrong.file_key = bad;
    CHECK_FALSE(pith::pdf::PdfFacts::from_wire(wrong.to_wire()));
  }
  pith::pdf::PdfFacts wrong = facts;
  wrong.signatures[0].certification = 7;
  CHECK_FALSE(pith::pdf::PdfFacts::from_wire(wrong.to_wire()));
}

TEST_CASE("the facts wire refuses a page line's hidden reasons that do not fit their byte", "[facts]") {
  pith::pdf::PdfFacts facts;
  facts.page = pith::pdf::PageText::all_seen({"ab"});
  facts.page->hidden[0] = 0x5A;
  std::string wire = facts.to_wire();
  REQUIRE(pith::pdf::PdfFacts::from_wire(wire));
  // The page_hidden list: one count, then 0x5A; made 0x15A, which no child writes.
  const std::string one_item = std::string("\x01\0\0\0\0\0\0\0\x5a\0\0\0\0\0\0\0", 16);
  const auto at = wire.find(one_item);
  REQUIRE(at != std::string::npos);
  wire[at + 9] = '\x01';
  CHECK_FALSE(pith::pdf::PdfFacts::from_wire(wire));
}

TEST_CASE("RC4 and AES-128 files verify with the parent decrypting what it confirms; a wrong key confirms nothing",
          "[facts][trust]") {
  const std::string bundle = pith::test::to_bytes(pith::test::make_signed_bundle());
  const std::string number = json::parse(bundle)["pith_number"].get<std::string>();
  const Built pdf = build_pdf("(" + title + ")", number, bundle);
  const auto dir = pith::test::fresh_temp_dir("facts-encrypted");
  pith::test::write_file(dir / "plain.pdf", pdf.bytes);
  for (const std::string mode : {"40", "128 --use-aes=n", "128 --use-aes=y", "256"}) {
    CAPTURE(mode);
    const auto out = dir / "enc.pdf";
    const std::string cmd = "qpdf --allow-weak-crypto --encrypt '' owner " + mode + " -- '" + (dir / "plain.pdf").string() +
                            "' '" + out.string() + "' >/dev/null 2>&1";
    REQUIRE(std::system(cmd.c_str()) == 0);
    const std::string bytes = pith::test::read_file(out);
    REQUIRE(bytes.find(bundle.substr(0, 40)) == std::string::npos);  // the bundle is encrypted in the file
    const auto isolated = check::check_bytes(bytes, "enc.pdf", pith::test::test_trust());
    CHECK(isolated.report.verdict() == Verdict::verified);
    CHECK(isolated.report.find("isolation.parent.verified"));

    pith::pdf::PdfFacts facts = pith::pdf::read_pdf_facts(bytes, "enc.pdf");
    REQUIRE(facts.file_key);
    REQUIRE(facts.metadata.embedded_bundle == bundle);
    facts.file_key->key[0] = static_cast<char>(facts.file_key->key[0] ^ 1);
    const auto lied = check::judge_pdf_facts(bytes, facts, pith::test::test_trust(), "enc.pdf").report;
    CHECK(lied.verdict() == Verdict::failed);
    CHECK(lied.find("isolation.child.rejected"));
  }
}
