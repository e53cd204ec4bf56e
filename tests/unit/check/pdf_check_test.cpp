// SPDX-License-Identifier: GPL-3.0-or-later
// PDF checks that need no PDF parser: numbers against the record, title
// binding, byte binding on buffers.
#include "pith/base/crypto.hpp"
#include "pith/check/pdf.hpp"
#include "pith/pdf/facts.hpp"
#include "pith/carrier/vocabulary.hpp"
#include "pith/pdf/xmp.hpp"
#include "pith/registry/trust_store.hpp"
#include "pith/registry/verify.hpp"
#include "support/test_data.hpp"

#include <catch2/catch.hpp>


using namespace pith;

namespace {

constexpr const char* title_wxni = "Exploring the limits of Concurrency in ML Training on Google TPUs";
constexpr const char* title_wxni_sha = "d0923d88f5513d1faa816d48831900ab94519a7541823483ad2d50c2c989a5f6";
constexpr const char* title_jfll =
    "Layered gradient accumulation and modular pipeline parallelism: fast and efficient training of large "
    "language models";
constexpr const char* title_jfll_sha = "434da334d2825ada3dac75e9e2b905314cb028892db0175cc031b036c7f49566";

// A file made of an original revision, the pith update, and `later` more
// revisions (the shape, not a valid PDF: byte binding needs only the tails).
struct Layered {
  std::string original = "%PDF-1.5\n1 0 obj\n<<>>\nendobj\nxref\n0 1\ntrailer\n<<>>\nstartxref\n9\n%%EOF\n";
  std::string update = "2 0 obj\n<< /Type /Metadata >>\nendobj\nxref\n0 1\ntrailer\n<<>>\nstartxref\n1234\n%%EOF\n";
  std::string later = "3 0 obj\n<<>>\nendobj\nstartxref\r\n5678\r\n%%EOF\r\n";
  std::string file(int later_count = 0) const {
    std::string f = original + update;
    for (int i = 0; i < later_count; ++i) f += later;
    return f;
  }
};

Check only_check(const Report& r, std::string_view code) {
  const Check* c = r.find(code);
  REQUIRE(c != nullptr);
  return *c;
}

// The fixture bundle, verified by the real verifier with the pinned key
// (a VerifiedRecord is made only by verification).
registry::VerifiedRecord verified_bundle_record() {
  auto v = registry::verify_document(test::read_data("JFLLIOJUI2M3KX3FLLGP4N2V65.bundle.json"),
                                     registry::TrustStore::with_pinned_key(), "fixture bundle");
  REQUIRE(v);
  REQUIRE(v->record());
  REQUIRE(v->record()->number().to_string() == "pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65");
  return *v->record();
}

pdf::PdfExtraction extraction_of(const pdf::PdfMetadata& m) {
  auto e = pdf::extract_pith_numbers(m);
  REQUIRE(e);
  return *e;
}

std::string xmp_copying(const registry::VerifiedRecord& r) {
  auto packet = pdf::merge_pith_xmp("", pith::carrier::pith_properties_of(r, "", ""));
  REQUIRE(packet);
  return *packet;
}

}  // namespace

TEST_CASE("title binding matches the registry's canonical form", "[title]") {
  CHECK(check::bind_title({{"Info /Title", title_wxni}}, title_wxni_sha).verdict == check::TitleVerdict::match);
  CHECK(check::bind_title({{"Info /Title", title_jfll}}, title_jfll_sha).verdict == check::TitleVerdict::match);
  // Case and whitespace do not matter; the expected hash may be upper case.
  CHECK(check::bind_title({{"XMP dc:title", "  EXPLORING the limits of\n concurrency\tin ML Training on Google TPUs "}},
                   title_wxni_sha)
            .verdict == check::TitleVerdict::match);
  std::string upper = title_wxni_sha;
  for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  CHECK(check::bind_title({{"Info /Title", title_wxni}}, upper).verdict == check::TitleVerdict::match);
  // Punctuation is kept: a changed colon is another title.
  CHECK(check::bind_title({{"Info /Title", "Layered gradient accumulation and modular pipeline parallelism; fast and "
                                    "efficient training of large language models"}},
                   title_jfll_sha)
            .verdict == check::TitleVerdict::mismatch);
}

TEST_CASE("title binding: another paper's title is a mismatch naming where", "[title]") {
  const auto b = check::bind_title({{"Info /Title", title_wxni}}, title_jfll_sha);
  CHECK(b.verdict == check::TitleVerdict::mismatch);
  CHECK(b.detail.find("Info /Title \"Exploring the limits") == 0);
}

TEST_CASE("title binding: every real ASCII title must match", "[title]") {
  const auto two = check::bind_title({{"XMP dc:title", "Some other words"}, {"Info /Title", title_jfll}}, title_jfll_sha);
  CHECK(two.verdict == check::TitleVerdict::mismatch);
  CHECK(two.detail.find("XMP dc:title \"Some other words\"") == 0);
  // A placeholder or a non-ASCII variant next to a matching title is fine.
  const auto placeholder = check::bind_title({{"Info /Title", "paper.dvi"}, {"XMP dc:title", title_jfll}}, title_jfll_sha);
  CHECK(placeholder.verdict == check::TitleVerdict::match);
  CHECK(placeholder.detail.find("XMP dc:title") == 0);
  CHECK(check::bind_title({{"XMP dc:title", "Ünïcode variant"}, {"Info /Title", title_jfll}}, title_jfll_sha).verdict ==
        check::TitleVerdict::match);
}

TEST_CASE("a title edited after stamping is a warning when the stamped title matched", "[title]") {
  const nlohmann::json record = {{"metadata", {{"title_canon_sha256", title_jfll_sha}}}};
  const std::vector<check::TitleCandidate> now = {{"Info /Title", "x"}};
  const std::vector<check::TitleCandidate> then = {{"Info /Title", title_jfll}};
  Report edited;
  check::check_title_binding(now, record, edited, &then);
  CHECK(only_check(edited, "pdf.title.changed_after_stamping").status == CheckStatus::warn);
  CHECK_FALSE(edited.has_failure());
  // The stamped title did not match either: metadata copied from another paper.
  const std::vector<check::TitleCandidate> then_other = {{"Info /Title", title_wxni}};
  Report copied;
  check::check_title_binding(now, record, copied, &then_other);
  CHECK(only_check(copied, "pdf.title.mismatch").status == CheckStatus::fail);
}

TEST_CASE("title binding is undetermined without a real title or for non-ASCII", "[title]") {
  CHECK(check::bind_title({}, title_jfll_sha).verdict == check::TitleVerdict::undetermined);
  CHECK(check::bind_title({{"Info /Title", "paper.dvi"}}, title_jfll_sha).verdict == check::TitleVerdict::undetermined);
  CHECK(check::bind_title({{"Info /Title", "  "}}, title_jfll_sha).verdict == check::TitleVerdict::undetermined);
  CHECK(check::bind_title({{"Info /Title", "Untitled"}}, title_jfll_sha).verdict == check::TitleVerdict::undetermined);
  CHECK(check::bind_title({{"Info /Title", "Über die Grenzen"}}, title_jfll_sha).verdict == check::TitleVerdict::undetermined);
  CHECK(check::bind_title({{"Info /Title", title_jfll}}, "").verdict == check::TitleVerdict::undetermined);
  // A placeholder next to a real mismatching title: the real one decides.
  CHECK(check::bind_title({{"Info /Title", "main.tex"}, {"XMP dc:title", title_wxni}}, title_jfll_sha).verdict ==
        check::TitleVerdict::mismatch);
}

TEST_CASE("non-ASCII titles are NFC-normalised and lower-cased before hashing", "[title]") {
  // "Über Café" canonical: "über café" (NFC). A decomposed, upper-case
  // spelling of the same title must match the registry's hash of it.
  const std::string canon = "\xC3\xBC" "ber caf\xC3\xA9";
  const auto expected = sha256_hex(canon);
  const std::string decomposed_upper = "U\xCC\x88" "BER  CAFE\xCC\x81";
  CHECK(check::bind_title({{"XMP dc:title", decomposed_upper}}, expected).verdict == check::TitleVerdict::match);
  // Non-breaking and ideographic spaces are whitespace too.
  CHECK(check::bind_title({{"XMP dc:title", "\xC3\x9C" "ber\xC2\xA0\xE3\x80\x80" "Caf\xC3\xA9"}}, expected).verdict ==
        check::TitleVerdict::match);
}

TEST_CASE("check_title_binding reports match, mismatch and undetermined", "[title]") {
  const nlohmann::json record = {{"metadata", {{"title_canon_sha256", title_jfll_sha}}}};
  Report matched;
  check::check_title_binding({{"Info /Title", title_jfll}}, record, matched);
  CHECK(only_check(matched, "pdf.title.match").status == CheckStatus::pass);

  Report mismatched;
  check::check_title_binding({{"Info /Title", title_wxni}}, record, mismatched);
  CHECK(only_check(mismatched, "pdf.title.mismatch").status == CheckStatus::fail);
  CHECK(mismatched.verdict() == Verdict::failed);

  Report none;
  check::check_title_binding({}, record, none);
  CHECK(only_check(none, "pdf.title.undetermined").status == CheckStatus::skip);

  Report empty;  // hyperref without a title writes an empty Info /Title
  check::check_title_binding({{"Info /Title", ""}, {"XMP dc:title", "  "}}, record, empty);
  CHECK(only_check(empty, "pdf.title.undetermined").status == CheckStatus::skip);
  CHECK(only_check(empty, "pdf.title.undetermined").detail == "the PDF has no title");

  Report placeholder;
  check::check_title_binding({{"Info /Title", ""}, {"Info /Title", "paper.dvi"}}, record, placeholder);
  CHECK(only_check(placeholder, "pdf.title.undetermined").status == CheckStatus::warn);
  CHECK(only_check(placeholder, "pdf.title.undetermined").detail.find("\"paper.dvi\"") != std::string::npos);

  Report foreign;
  check::check_title_binding({{"Info /Title", "Ein Titel über nichts"}}, record, foreign);
  CHECK(only_check(foreign, "pdf.title.undetermined").status == CheckStatus::warn);

  Report no_hash;
  check::check_title_binding({{"Info /Title", title_jfll}}, nlohmann::json::object(), no_hash);
  CHECK(only_check(no_hash, "pdf.title.undetermined").status == CheckStatus::warn);
}

TEST_CASE("revision ends are counted from the tails, not from stray text", "[bytes]") {
  const Layered l;
  CHECK(pdf::count_revision_ends(l.file(0)) == 2);
  CHECK(pdf::count_revision_ends(l.file(3)) == 5);
  CHECK(pdf::count_revision_ends(l.file(3), l.original.size()) == 4);
  CHECK(pdf::count_revision_ends("startxref %%EOF") == 0);       // no offset
  CHECK(pdf::count_revision_ends("startxref\n12\n") == 0);        // no %%EOF
  CHECK(pdf::count_revision_ends("xstartxref12\n%%EOF") == 0);    // no space after the keyword
  CHECK(pdf::count_revision_ends("startxref\n12\n%%EO") == 0);    // truncated
  // A linearized file's first-page trailer points at no section: one revision.
  CHECK(pdf::count_revision_ends("trailer<<>>\nstartxref\n0\n%%EOF\n1 0 obj\nstartxref\n216\n%%EOF\n") == 1);
}

TEST_CASE("byte binding: the stamped prefix intact, nothing after the update", "[bytes]") {
  const Layered l;
  const auto file = l.file(0);
  const auto b = check::bind_bytes(file, sha256_hex(l.original), std::to_string(l.original.size()));
  CHECK(b.status == CheckStatus::pass);
  CHECK(b.code == "pdf.bytes.prefix_intact");
  CHECK(b.later_revisions == 0);
}

TEST_CASE("byte binding: later revisions are a warning with their count", "[bytes]") {
  const Layered l;
  const auto file = l.file(2);
  const auto b = check::bind_bytes(file, sha256_hex(l.original), std::to_string(l.original.size()));
  CHECK(b.status == CheckStatus::pass);
  CHECK(b.later_revisions == 2);
}

TEST_CASE("byte binding: a changed byte in the prefix fails", "[bytes]") {
  const Layered l;
  auto file = l.file(0);
  const auto sha = sha256_hex(l.original);
  file[20] ^= 0x01;
  const auto b = check::bind_bytes(file, sha, std::to_string(l.original.size()));
  CHECK(b.status == CheckStatus::fail);
  CHECK(b.code == "pdf.bytes.prefix_broken");
  CHECK(b.detail.find("changed") != std::string::npos);
}

TEST_CASE("byte binding: malformed, partial or impossible values fail", "[bytes]") {
  const Layered l;
  const auto file = l.file(0);
  const auto sha = sha256_hex(l.original);
  const auto len = std::to_string(l.original.size());
  CHECK(check::bind_bytes(file, sha, std::nullopt).status == CheckStatus::fail);
  CHECK(check::bind_bytes(file, std::nullopt, len).status == CheckStatus::fail);
  CHECK(check::bind_bytes(file, sha, "12x").status == CheckStatus::fail);
  CHECK(check::bind_bytes(file, sha, "-5").status == CheckStatus::fail);
  CHECK(check::bind_bytes(file, sha, "99999999999999999999999").status == CheckStatus::fail);
  std::string upper = sha;
  for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  CHECK(check::bind_bytes(file, upper, len).status == CheckStatus::fail);
  // The file ends where the stamp says the original ended: no update after it.
  CHECK(check::bind_bytes(l.original, sha, len).status == CheckStatus::fail);
  // A prefix length that cuts no revision off: the update's tail is missing.
  const auto whole = sha256_hex(file.substr(0, file.size() - 3));
  CHECK(check::bind_bytes(file, whole, std::to_string(file.size() - 3)).status == CheckStatus::fail);
}

TEST_CASE("byte binding is skipped when the PDF was not stamped by pith-stamp", "[bytes]") {
  const auto b = check::bind_bytes("%PDF", std::nullopt, std::nullopt);
  CHECK(b.status == CheckStatus::skip);
  CHECK(b.code == "pdf.bytes.unbound");
}

TEST_CASE("check_byte_binding reads the XMP values and warns on later edits", "[bytes]") {
  const Layered l;
  pith::carrier::PithProperties p;
  p.number = "pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65";
  p.original_sha256 = sha256_hex(l.original);
  p.original_length = l.original.size();
  auto packet = pdf::merge_pith_xmp("", p);
  REQUIRE(packet);
  pdf::PdfMetadata m;
  m.xmp_packet = *packet;
  const auto e = extraction_of(m);

  Report clean;
  check::check_byte_binding(l.file(0), e, clean);
  CHECK(only_check(clean, "pdf.bytes.prefix_intact").status == CheckStatus::pass);
  CHECK(only_check(clean, "pdf.bytes.later_revisions").status == CheckStatus::pass);

  Report edited;
  check::check_byte_binding(l.file(1), e, edited);
  const auto later = only_check(edited, "pdf.bytes.later_revisions");
  CHECK(later.status == CheckStatus::warn);
  CHECK(later.detail.find("1 later revision") == 0);
  CHECK_FALSE(edited.has_failure());
}

TEST_CASE("numbers: none found is 'no number', conflicts fail naming both", "[numbers]") {
  Report nothing;
  CHECK_FALSE(check::check_pdf_numbers(extraction_of({}), nothing));
  CHECK(nothing.verdict() == Verdict::not_found);
  CHECK_FALSE(nothing.number_found);

  pdf::PdfMetadata m;
  m.info_number = "pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65";
  m.link_uris = {"https://pith.science/pith/WXNI57C2SJ24QK62DB7DTUREA3"};
  Report conflict;
  CHECK_FALSE(check::check_pdf_numbers(extraction_of(m), conflict));
  CHECK(conflict.verdict() == Verdict::failed);
  const auto c = only_check(conflict, "pdf.number.conflict");
  CHECK(c.detail.find("Info /PithNumber names pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65") != std::string::npos);
  CHECK(c.detail.find("WXNI57C2SJ24QK62DB7DTUREA3") != std::string::npos);

  m.link_uris = {"https://pith.science/pith/JFLLIOJUI2M3KX3FLLGP4N2V65"};
  Report agreed;
  CHECK(check::check_pdf_numbers(extraction_of(m), agreed));
  CHECK(agreed.pith_number == "pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65");
  CHECK(agreed.extra["pith_sources"].size() == 2);
  CHECK(agreed.extra["pith_sources"][1]["source"] == "link_annotation");
}

TEST_CASE("record binding: numbers and XMP copies must be the verified record's", "[numbers]") {
  const auto record = verified_bundle_record();
  pdf::PdfMetadata m;
  m.xmp_packet = xmp_copying(record);
  m.info_number = record.number().to_string();

  Report good;
  check::check_pdf_record_binding(extraction_of(m), record, good);
  CHECK(only_check(good, "pdf.number.matches_record").status == CheckStatus::pass);
  CHECK(only_check(good, "pdf.metadata.matches_record").status == CheckStatus::pass);

  // Numbers consistent with each other, but not the embedded bundle's record.
  auto other = record;
  other.pith_number = pith::registry::parse_pith_number("pith:2020:WXNI57C2SJ24QK62DB7DTUREA3").value();
  Report wrong_number;
  check::check_pdf_record_binding(extraction_of(m), other, wrong_number);
  CHECK(only_check(wrong_number, "pdf.number.matches_record").status == CheckStatus::fail);

  // An edited canonical record in XMP.
  auto edited = record;
  edited.canonical_json = R"({"metadata":{"title_canon_sha256":"0000"}})";
  pdf::PdfMetadata tampered;
  tampered.xmp_packet = xmp_copying(edited);
  Report edited_report;
  check::check_pdf_record_binding(extraction_of(tampered), record, edited_report);
  const auto c = only_check(edited_report, "pdf.metadata.matches_record");
  CHECK(c.status == CheckStatus::fail);
  CHECK(c.detail == "XMP pith:canonicalRecord differs from the verified record's");
}
