// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/pdf/reader.hpp"
#include "pith/base/crypto.hpp"
#include "support/pdf_samples.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <openssl/evp.h>

#include <podofo/base/PdfName.h>

using pith::pdf::ObjectId;
using pith::pdf::Reader;
using pith::test::classic_pdf;
using pith::test::require_sample;
using pith::test::SamplePdf;

namespace {

bool contains(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

// Why Reader::open refuses `bytes` (it must refuse them).
std::string refusal(std::string_view bytes, const std::string& name) {
  auto r = Reader::open(bytes, name);
  REQUIRE_FALSE(r);
  return r.error().message;
}

// The limits under which a damaged cross-reference table is rebuilt by scanning.
pith::pdf::ReaderLimits recovering() {
  pith::pdf::ReaderLimits limits;
  limits.recover_damaged_xref = true;
  return limits;
}

std::string type_of(const PoDoFo::PdfDictionary& d) {
  const auto* t = d.GetKey(PoDoFo::PdfName("Type"));
  return t && t->IsName() ? t->GetName().GetName() : "";
}

// What every well-formed sample must give.
void check_structure(const Reader& r) {
  auto cat = r.catalog();
  REQUIRE(cat);
  CHECK(type_of(*cat) == "Catalog");
  auto page = r.first_page();
  REQUIRE(page);
  CHECK(type_of(page->dictionary) == "Page");
  CHECK(r.size() > 3);
}

}  // namespace

TEST_CASE("reader: pdflatex output (xref stream + object streams)") {
  const std::string bytes = require_sample(SamplePdf::pdflatex);
  auto r = Reader::open(bytes, "paper.pdf");
  REQUIRE(r);
  CHECK(r->uses_xref_streams());
  check_structure(*r);
  // The catalog lives in an object stream in pdfTeX output.
  CHECK(r->entry(r->root_id()->number).kind == pith::pdf::XrefEntry::Kind::in_object_stream);
  auto producer = r->info_string("Producer");
  REQUIRE(producer);
  REQUIRE(*producer);
  CHECK((*producer)->find("pdfTeX") != std::string::npos);
  REQUIRE(r->file_id());
  CHECK(r->file_id()->first.size() == 16);
  // Page 1 has the hyperref link annotation.
  auto page = r->first_page();
  REQUIRE(page);
  auto annots = r->page_annotations(*page);
  REQUIRE(annots);
  CHECK(!annots->empty());
}

TEST_CASE("reader: classic table, object streams, linearized and ghostscript files") {
  for (auto kind : {SamplePdf::classic, SamplePdf::object_streams, SamplePdf::linearized, SamplePdf::ghostscript}) {
    INFO("sample kind " << static_cast<int>(kind));
    const std::string bytes = require_sample(kind);
    auto r = Reader::open(bytes, "sample.pdf");
    REQUIRE(r);
    check_structure(*r);
    if (kind == SamplePdf::classic) CHECK_FALSE(r->uses_xref_streams());
    if (kind == SamplePdf::linearized) CHECK(r->section_count() == 2);
  }
}

TEST_CASE("reader: hybrid file finds objects only listed in /XRefStm") {
  const std::string bytes = require_sample(SamplePdf::hybrid);
  auto r = Reader::open(bytes, "hybrid.pdf");
  REQUIRE(r);
  CHECK_FALSE(r->uses_xref_streams());
  CHECK(r->entry(5).kind == pith::pdf::XrefEntry::Kind::in_object_stream);
  auto title = r->info_string("Title");
  REQUIRE(title);
  REQUIRE(*title);
  CHECK(**title == "Hybrid sample");
  check_structure(*r);
}

TEST_CASE("reader: XMP packet and embedded files") {
  const std::string xmp = require_sample(SamplePdf::with_xmp);
  auto r = Reader::open(xmp, "xmp.pdf");
  REQUIRE(r);
  auto packet = r->xmp_metadata();
  REQUIRE(packet);
  REQUIRE(*packet);
  CHECK((*packet)->find("An XMP titled paper") != std::string::npos);
  CHECK((*packet)->find("Ada Lovelace") != std::string::npos);

  const std::string att = require_sample(SamplePdf::attachments);
  auto a = Reader::open(att, "attach.pdf");
  REQUIRE(a);
  auto files = a->embedded_files();
  REQUIRE(files);
  REQUIRE(files->size() == 2);
  auto csv = a->embedded_file("data.csv");
  REQUIRE(csv);
  REQUIRE(*csv);
  CHECK(**csv == "a,b\n1,2\n");
  auto none = a->embedded_file("missing.json");
  REQUIRE(none);
  CHECK_FALSE(*none);
}

TEST_CASE("reader: no /Info dictionary and no final end-of-line") {
  const std::string bytes = require_sample(SamplePdf::no_info);
  auto r = Reader::open(bytes, "noinfo.pdf");
  REQUIRE(r);
  CHECK_FALSE(r->info_id());
  auto info = r->info();
  REQUIRE(info);
  CHECK_FALSE(*info);
  check_structure(*r);
}

TEST_CASE("reader: encrypted files are refused with advice") {
  const std::string bytes = require_sample(SamplePdf::encrypted);
  auto r = Reader::open(bytes, "enc.pdf");
  REQUIRE_FALSE(r);
  CHECK(r.error().where == "enc.pdf");
  CHECK(r.error().message.find("encrypted") != std::string::npos);
  CHECK(r.error().message.find("qpdf --decrypt") != std::string::npos);
  CHECK(r.error().kind == pith::ErrorKind::usage);
}

TEST_CASE("reader: damaged cross-reference data is an error naming the offset") {
  const std::string good = require_sample(SamplePdf::classic);

  SECTION("not a PDF") {
    CHECK(contains(refusal("hello world", "x.pdf"), "not a PDF"));
  }
  SECTION("truncated: no startxref") {
    CHECK(contains(refusal(std::string_view(good).substr(0, good.size() / 2), "half.pdf"), "startxref"));
  }
  SECTION("startxref pointing at garbage") {
    std::string bad = good;
    const auto pos = bad.rfind("startxref");
    bad.replace(pos, std::string::npos, "startxref\n10\n%%EOF\n");
    CHECK(contains(refusal(bad, "bad.pdf"), "at byte 10"));
  }
  SECTION("a corrupted table entry") {
    std::string bad = good;
    const auto xref = bad.rfind("\nxref");
    REQUIRE(xref != std::string::npos);
    bad[xref + 30] = 'Z';  // inside the first entries
    CHECK(contains(refusal(bad, "bad.pdf"), "at byte"));
  }
  SECTION("a /Prev loop is harmless") {
    std::string looped = good;
    const auto pos = looped.rfind("trailer");
    const auto xref = looped.rfind("\nxref") + 1;
    looped.insert(pos + 7, " << /Prev " + std::to_string(xref) + " >> ");
    // The inserted dictionary is parsed as the trailer: /Prev points at itself.
    auto r = Reader::open(looped, "loop.pdf");
    // Either an error (no /Root in this trailer) or a clean stop; never a hang.
    if (r) CHECK(r->section_count() == 1);
  }
  SECTION("an offset pointing at the wrong object") {
    auto r = Reader::open(good, "good.pdf");
    REQUIRE(r);
    // Object 1 read as object 2 must be refused, not silently accepted.
    const auto e = r->entry(1);
    REQUIRE(e.kind == pith::pdf::XrefEntry::Kind::in_file);
    std::string bad = good;
    const auto e2 = r->entry(2);
    // Swap the two offsets in the table text.
    char a[11], b[11];
    std::snprintf(a, sizeof a, "%010llu", static_cast<unsigned long long>(e.offset));
    std::snprintf(b, sizeof b, "%010llu", static_cast<unsigned long long>(e2.offset));
    const auto pa = bad.rfind(a);
    REQUIRE(pa != std::string::npos);
    bad.replace(pa, 10, b);
    auto r2 = Reader::open(bad, "bad.pdf");
    // Refused when the file is opened (object 1 is the catalog, which open
    // reads) or when the object is read; never accepted.
    if (!r2) {
      CHECK(r2.error().message.find("instead of 1") != std::string::npos);
    } else {
      auto o = r2->object(ObjectId{1, 0});
      REQUIRE_FALSE(o);
      CHECK(o.error().message.find("instead of 1") != std::string::npos);
    }
  }
}

TEST_CASE("reader: an indirect /Filter or /DecodeParms is an error, not a crash") {
  // Found by fuzz/pdf_reader_fuzz: PoDoFo follows such a reference through an
  // owning document that lazily read objects lack (a null dereference).
  auto file = [](const std::string& metadata_dict) {
    std::string out = "%PDF-1.4\n";
    std::vector<std::size_t> off;
    for (const std::string& body : std::vector<std::string>{"<< /Type /Catalog /Pages 2 0 R /Metadata 3 0 R >>",
                                                           "<< /Type /Pages /Kids [] /Count 0 >>",
                                                           metadata_dict + "\nstream\nxyz\nendstream", "/FlateDecode"}) {
      off.push_back(out.size());
      out += std::to_string(off.size()) + " 0 obj\n" + body + "\nendobj\n";
    }
    const std::size_t xref = out.size();
    out += "xref\n0 5\n0000000000 65535 f\r\n";
    char line[32];
    for (std::size_t o : off) {
      std::snprintf(line, sizeof line, "%010zu 00000 n\r\n", o);
      out += line;
    }
    return out + "trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n" + std::to_string(xref) + "\n%%EOF\n";
  };
  for (const char* dict : {"<< /Length 3 /Filter 4 0 R >>", "<< /Length 3 /Filter [/AHx 4 0 R] >>",
                                 "<< /Length 3 /Filter /FlateDecode /DecodeParms 4 0 R >>",
                                 "<< /Length 3 /Filter [/FlateDecode] /DecodeParms [<< /Predictor 4 0 R >>] >>"}) {
    const std::string bytes = file(dict);
    auto r = Reader::open(bytes, "indirect.pdf");
    REQUIRE(r);
    auto packet = r->xmp_metadata();
    REQUIRE_FALSE(packet);
    CHECK(packet.error().message.find("indirect reference") != std::string::npos);
  }

  // The same in a cross-reference stream (the input the fuzzer found).
  std::string xs = "%PDF-1.5\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n";
  const std::size_t at = xs.size();
  xs += "2 0 obj\n<< /Type /XRef /Size 3 /W [1 4 2] /Root 1 0 R /Filter 1 0 R /Length 7 >>\nstream\n";
  xs += std::string(7, '\0') + "\nendstream\nendobj\nstartxref\n" + std::to_string(at) + "\n%%EOF\n";
  CHECK(contains(refusal(xs, "xrefstm.pdf"), "indirect reference"));
}

TEST_CASE("reader: 1,200-page file opens without touching the pages") {
  const std::string bytes = require_sample(SamplePdf::big);
  auto r = Reader::open(bytes, "big.pdf");
  REQUIRE(r);
  check_structure(*r);
  CHECK(r->size() > 2400);
}

TEST_CASE("reader: mutated files never crash or hang, and deep nesting is refused") {
  // Deterministic mutations (bit flips, truncations, splices, damaged tails)
  // of real files: every outcome must be a value (an error or a reader).
  std::uint32_t state = 12345;
  auto next = [&] { return state = state * 1664525u + 1013904223u; };
  std::size_t opened = 0;
  for (auto kind : {SamplePdf::pdflatex, SamplePdf::classic, SamplePdf::hybrid, SamplePdf::linearized}) {
    const std::string original = require_sample(kind);
    for (int i = 0; i < 150; ++i) {
      std::string s = original;
      switch (next() % 4) {
        case 0:
          for (int k = 0; k < 4; ++k) s[next() % s.size()] ^= static_cast<char>(1u << (next() % 8));
          break;
        case 1: s.resize(next() % s.size()); break;
        case 2: s.insert(next() % s.size(), original.substr(next() % original.size(), next() % 300)); break;
        default: {
          const std::size_t tail = std::min<std::size_t>(s.size(), 2000);
          for (int k = 0; k < 6; ++k) s[s.size() - 1 - next() % tail] = "0123456789 /<>[]Rnfobj"[next() % 22];
        }
      }
      auto r = Reader::open(s, "mutated.pdf");
      if (!r) {
        CHECK_FALSE(r.error().message.empty());
        continue;
      }
      ++opened;
      (void)r->catalog();
      (void)r->info();
      (void)r->xmp_metadata();
      (void)r->embedded_files();
      if (auto page = r->first_page()) (void)r->page_annotations(*page);
    }
  }
  CHECK(opened > 0);

  // 100,000 nested arrays in the Info dictionary.
  std::string deep = "%PDF-1.4\n";
  std::vector<std::size_t> offsets;
  const std::vector<std::string> objects = {
      "<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>", "<< /Deep " + std::string(100000, '[') + " >>"};
  for (std::size_t n = 0; n < objects.size(); ++n) {
    offsets.push_back(deep.size());
    deep += std::to_string(n + 1) + " 0 obj\n" + objects[n] + "\nendobj\n";
  }
  const std::size_t xref = deep.size();
  deep += "xref\n0 5\n0000000000 65535 f\r\n";
  char line[32];
  for (auto o : offsets) {
    std::snprintf(line, sizeof line, "%010zu 00000 n\r\n", o);
    deep += line;
  }
  deep += "trailer\n<< /Size 5 /Root 1 0 R /Info 4 0 R >>\nstartxref\n" + std::to_string(xref) + "\n%%EOF\n";
  auto r = Reader::open(deep, "deep.pdf");
  REQUIRE(r);
  auto info = r->info();
  REQUIRE_FALSE(info);
  CHECK(info.error().message.find("at byte") != std::string::npos);
}

namespace {

const std::vector<std::string> one_page = {"<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                                           "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>",
                                           "<< /Title (Damaged but readable) >>"};

}  // namespace

TEST_CASE("reader: bytes before %PDF-: offsets count from the header") {
  const std::string good = require_sample(SamplePdf::classic);
  auto plain = Reader::open(good, "good.pdf");
  REQUIRE(plain);
  CHECK(plain->offset_base() == 0);
  const std::string shifted = "\n" + good;
  auto r = Reader::open(shifted, "shifted.pdf");
  REQUIRE(r);
  CHECK(r->offset_base() == 1);
  CHECK(r->startxref() == plain->startxref());               // as the file writes it
  CHECK(r->section_offsets().front() == plain->startxref() + 1);  // where it is in the bytes
  check_structure(*r);
  // Every object is exactly where its entry says, one byte later than in the original.
  CHECK(r->entry(1).offset == plain->entry(1).offset + 1);
  CHECK(shifted.substr(r->entry(1).offset).starts_with("1 0 obj"));
  REQUIRE(plain->page_count());
  CHECK(r->page_count().value() == plain->page_count().value());
}

TEST_CASE("reader: page_count is the page tree's /Count") {
  const std::string pdf = classic_pdf(one_page);  // the bytes outlive the reader
  auto r = Reader::open(pdf, "one.pdf");
  REQUIRE(r);
  auto pages = r->page_count();
  INFO((pages ? std::string() : pages.error().message));
  REQUIRE(pages);
  CHECK(*pages == 1u);
}

TEST_CASE("reader: a 20-digit first object number in a subsection is refused, not wrapped") {
  std::string pdf = classic_pdf(one_page);
  // A second subsection whose first number wraps 64-bit arithmetic back onto object 1.
  const auto trailer = pdf.rfind("trailer");
  pdf.insert(trailer, "18446744073709551615 2\n0000000009 00000 n\r\n0000000009 00000 n\r\n");
  CHECK(contains(refusal(pdf, "wrap.pdf"), "beyond the object limit"));
}

TEST_CASE("reader: 100,000 nested dictionaries are refused before PoDoFo's parser") {
  auto objects = one_page;
  objects[3] = "<< /Deep " + std::string(100000, '<') + std::string(100000, '<') + " >>";  // `<<` 100,000 times
  const std::string deep = classic_pdf(objects, "/Info 4 0 R ");
  auto r = Reader::open(deep, "deep.pdf");
  REQUIRE(r);
  auto info = r->object(ObjectId{4, 0});
  REQUIRE_FALSE(info);
  CHECK(info.error().message.find("nested more than") != std::string::npos);
  // Nesting inside strings and comments does not count.
  objects[3] = "<< /T (" + std::string(1000, '[') + ") /U <414243> % [[[[[[\n /V [[1] [2]] >>";
  const std::string fine_pdf = classic_pdf(objects, "/Info 4 0 R ");
  auto fine = Reader::open(fine_pdf, "fine.pdf");
  REQUIRE(fine);
  auto value = fine->object(ObjectId{4, 0});
  REQUIRE(value);
  CHECK(value->IsDictionary());
}

TEST_CASE("reader: damaged cross-reference data is rebuilt by scanning when asked") {
  std::string pdf = classic_pdf(one_page, "/Info 4 0 R ");
  const auto at = pdf.rfind("startxref\n");
  pdf.replace(at, std::string::npos, "startxref\n-1\n%%EOF\n");
  auto strict = Reader::open(pdf, "bad.pdf");
  REQUIRE_FALSE(strict);
  const auto limits = recovering();
  auto r = Reader::open(pdf, "bad.pdf", limits);
  REQUIRE(r);
  CHECK(r->recovered());
  CHECK(r->recovery_reason().find("startxref") != std::string::npos);
  check_structure(*r);
  CHECK(r->info_string("Title").value() == "Damaged but readable");

  // Offsets that point at the wrong bytes: the catalog is not where the table says.
  std::string shifted = classic_pdf(one_page, "/Info 4 0 R ");
  const auto xref = shifted.rfind("xref\n");
  for (std::size_t p = shifted.find(" 00000 n", xref); p != std::string::npos; p = shifted.find(" 00000 n", p + 1))
    shifted[p - 1] = static_cast<char>(shifted[p - 1] + 1);  // every offset one byte off (digits stay digits mostly)
  auto wrong = Reader::open(shifted, "wrong.pdf", limits);
  REQUIRE(wrong);
  check_structure(*wrong);

  // A real file's object streams are found too.
  std::string objstm = require_sample(SamplePdf::pdflatex);
  objstm.replace(objstm.rfind("startxref"), std::string::npos, "startxref\n-1\n%%EOF\n");
  auto scanned = Reader::open(objstm, "objstm.pdf", limits);
  REQUIRE(scanned);
  CHECK(scanned->recovered());
  check_structure(*scanned);
}

// Issue 26: files every common reader opens.
TEST_CASE("reader: generation 65536 in a classic table is clamped, as in xref streams") {
  std::string pdf = classic_pdf(one_page, "/Info 4 0 R ");
  pdf.replace(pdf.find("0000000000 65535 f"), 18, "0000000000 65536 f");  // MS Office, Adobe PDF Library
  auto r = Reader::open(pdf, "word.pdf");
  REQUIRE(r);
  check_structure(*r);
  CHECK_FALSE(r->recovered());
  CHECK(r->entry(0).kind == pith::pdf::XrefEntry::Kind::free);
  CHECK(r->entry(0).generation == 65535);
}

TEST_CASE("reader: junk in the trailer dictionary falls back to the scan, which takes the keys one by one") {
  // qpdf's bad13-19 and bad36: `/Something {`, a stray `x`, `)` or `>`.
  for (const std::string junk : {"/Something { ", "x /Something ", "/QPDFFake1 (potato) ) ", "/A > "}) {
    CAPTURE(junk);
    const std::string pdf = classic_pdf(one_page, "/Info 4 0 R " + junk);
    auto strict = Reader::open(pdf, "junk.pdf");
    REQUIRE_FALSE(strict);
    CHECK(strict.error().message.find("PoDoFo") == std::string::npos);
    auto r = Reader::open(pdf, "junk.pdf", recovering());
    REQUIRE(r);
    CHECK(r->recovered());
    check_structure(*r);
    CHECK(r->info_string("Title").value() == "Damaged but readable");
  }
}

TEST_CASE("reader: a file whose %PDF- line was lost reads from byte 0 (pdf.js bug1606566)") {
  const std::string pdf = classic_pdf(one_page, "/Info 4 0 R ");
  std::string headless = "%\xE2\xE3\xCF\xD3\n" + pdf.substr(pdf.find('\n') + 1);
  // The offsets are the original's: nine bytes were `%PDF-1.4\n`, six are now the binary comment.
  headless.insert(0, 3, ' ');
  auto r = Reader::open(headless, "headless.pdf");
  REQUIRE(r);
  CHECK(r->offset_base() == 0);
  check_structure(*r);
  auto not_pdf = Reader::open(std::string(4000, 'x'), "x.pdf");
  REQUIRE_FALSE(not_pdf);
  CHECK(not_pdf.error().message.find("not a PDF") != std::string::npos);
}

namespace {

std::string md5(const std::string& data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  REQUIRE(EVP_Digest(data.data(), data.size(), digest, &length, EVP_md5(), nullptr) == 1);
  return std::string(reinterpret_cast<const char*>(digest), length);
}

// `qpdf --encrypt USER OWNER BITS` of the classic sample, owner password only
// unless `user` is given.
std::string encrypted_with(const std::string& bits_and_options, const std::string& user = "") {
  auto p = pith::test::sample_pdf(SamplePdf::with_xmp);
  if (!p) FAIL("sample PDF could not be made");
  const auto out = p->parent_path() / ("enc-" + std::to_string(std::hash<std::string>{}(bits_and_options + user)) + ".pdf");
  const std::string cmd = "qpdf --allow-weak-crypto --encrypt '" + user + "' owner " + bits_and_options + " -- '" +
                          p->string() + "' '" + out.string() + "' >/dev/null 2>&1";
  if (std::system(cmd.c_str()) > 3 * 256 || !std::filesystem::exists(out)) FAIL("qpdf --encrypt failed: " + cmd);
  return pith::test::read_file(out);
}

pith::pdf::ReaderLimits as_viewers_open() {
  pith::pdf::ReaderLimits limits;
  limits.read_encrypted_with_empty_password = true;
  return limits;
}

}  // namespace

TEST_CASE("reader: RC4 and AES-128 with an owner password only read like AES-256 (OpenSSL's legacy provider)") {
  const std::string plain_xmp = [] {
    const std::string bytes = require_sample(SamplePdf::with_xmp);
    auto r = Reader::open(bytes, "plain.pdf");
    REQUIRE(r);
    return r->xmp_metadata().value().value();
  }();
  for (const auto& [mode, cipher] : std::vector<std::pair<std::string, pith::pdf::FileKey::Cipher>>{
           {"40", pith::pdf::FileKey::Cipher::rc4},
           {"128 --use-aes=n", pith::pdf::FileKey::Cipher::rc4},
           {"128 --use-aes=y", pith::pdf::FileKey::Cipher::aes128},
           {"256", pith::pdf::FileKey::Cipher::aes256}}) {
    CAPTURE(mode);
    const std::string bytes = encrypted_with(mode);
    auto r = Reader::open(bytes, "enc.pdf", as_viewers_open());
    REQUIRE(r);
    check_structure(*r);
    CHECK(r->xmp_metadata().value().value() == plain_xmp);  // RC4 output as long as its input, AES padding gone
    const auto key = r->file_key();
    REQUIRE(key);
    CHECK(key->cipher == cipher);
    // Still refused for writing.
    auto strict = Reader::open(bytes, "enc.pdf");
    REQUIRE_FALSE(strict);
    CHECK(strict.error().message.find("qpdf --decrypt") != std::string::npos);
  }
}

TEST_CASE("reader: a user password is asked for by name, never with PoDoFo's words") {
  for (const std::string mode : {"40", "128 --use-aes=y", "256"}) {
    CAPTURE(mode);
    auto r = Reader::open(encrypted_with(mode, "secret"), "locked.pdf", as_viewers_open());
    REQUIRE_FALSE(r);
    CHECK(r.error().message.find("user password") != std::string::npos);
    CHECK(r.error().message.find("--password=") != std::string::npos);
    CHECK(r.error().message.find("PoDoFo") == std::string::npos);
  }
}

TEST_CASE("reader: an encrypted file without /ID is read with an empty id, as poppler does") {
  // RC4 40-bit over `one_page`, key from the empty user password and no /ID
  // (ISO 32000-2 7.6.4.3, algorithms 2 and 4), made with OpenSSL here.
  const std::string padding("\x28\xBF\x4E\x5E\x4E\x75\x8A\x41\x64\x00\x4E\x56\xFF\xFA\x01\x08"
                            "\x2E\x2E\x00\xB6\xD0\x68\x3E\x80\x2F\x0C\xA9\xFE\x64\x53\x69\x7A", 32);
  const std::string o(32, 'O');  // the owner entry only matters for the owner password
  const std::int32_t permissions = -4;
  std::string input = padding + o;
  for (int i = 0; i < 4; ++i) input += static_cast<char>((static_cast<std::uint32_t>(permissions) >> (8 * i)) & 0xff);
  const std::string file_key = md5(input).substr(0, 5);
  const std::string u = pith::rc4(file_key, padding).value();
  const auto object_key = [&](int number) {
    std::string k = file_key;
    k += static_cast<char>(number);
    k += std::string("\0\0\0\0", 4);
    return md5(k).substr(0, 10);
  };
  const std::string title = pith::rc4(object_key(4), "Encrypted, no ID").value();
  const auto hex = [](const std::string& s) {
    static const char* digits = "0123456789abcdef";
    std::string out = "<";
    for (unsigned char c : s) out += {digits[c >> 4], digits[c & 15]};
    return out + ">";
  };
  auto objects = one_page;
  objects[3] = "<< /Title " + hex(title) + " >>";
  objects.push_back("<< /Filter /Standard /V 1 /R 2 /O " + hex(o) + " /U " + hex(u) + " /P -4 >>");
  const std::string pdf = classic_pdf(objects, "/Info 4 0 R /Encrypt 5 0 R ");
  auto r = Reader::open(pdf, "noid.pdf", as_viewers_open());
  REQUIRE(r);
  CHECK(r->info_string("Title").value() == "Encrypted, no ID");
}

TEST_CASE("reader: encryption that leaves strings and streams alone, or names no handler, reads as it is") {
  // Only embedded files encrypted, behind their own password (/AuthEvent
  // /EFOpen: qpdf's encrypted-attachments, pdf.js's auth-event-ef-open).
  const std::string zeros(96, '0');
  auto objects = one_page;
  objects.push_back("<< /Filter /Standard /V 5 /R 6 /Length 256 /P -4 /O <" + zeros + "> /U <" + zeros +
                    "> /CF << /StdCF << /AuthEvent /EFOpen /CFM /AESV3 /Length 32 >> >> /StmF /Identity /StrF /Identity "
                    "/EFF /StdCF >>");
  const std::string efopen = classic_pdf(objects, "/Info 4 0 R /Encrypt 5 0 R ");
  auto r = Reader::open(efopen, "attachments-only.pdf", as_viewers_open());
  REQUIRE(r);
  CHECK(r->is_encrypted());
  CHECK(r->info_string("Title").value() == "Damaged but readable");
  CHECK_FALSE(Reader::open(efopen, "attachments-only.pdf"));  // still not written to

  // An /Encrypt that is damaged (no handler named): poppler reads the file as it is.
  for (const std::string broken : {"<< /Foo 1 >>", "null"}) {
    objects = one_page;
    objects.push_back(broken);
    auto b = Reader::open(classic_pdf(objects, "/Info 4 0 R /Encrypt 5 0 R "), "broken.pdf", as_viewers_open());
    REQUIRE(b);
    CHECK(b->info_string("Title").value() == "Damaged but readable");
  }
}

TEST_CASE("reader: a trailer that is only a nesting bomb is replaced by the catalog found by scanning") {
  std::string pdf = classic_pdf(one_page);
  const auto at = pdf.rfind("trailer\n");
  pdf.replace(at, pdf.find(">>\nstartxref") + 2 - at, "trailer\n" + std::string(5000, '<') + std::string(5000, '>'));
  auto r = Reader::open(pdf, "issue-202.pdf", recovering());
  REQUIRE(r);
  CHECK(r->recovered());
  check_structure(*r);
}
