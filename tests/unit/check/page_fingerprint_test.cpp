// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 22, "rewrites you can tell apart": the page text fingerprint
// pith-stamp records (pdf/page_fingerprint.hpp), its strict XMP form, the
// comparison after a full rewrite (check/pdf.hpp: check_page_text) and its way
// over the strict wire from the parsing child (pdf/facts.hpp).
#include "pith/base/crypto.hpp"
#include "pith/base/utf8.hpp"
#include "pith/pdf/facts.hpp"
#include "pith/check/pdf.hpp"
#include "pith/pdf/page_fingerprint.hpp"
#include "pith/pdf/xmp.hpp"
#include "support/pdf_samples.hpp"

#include <catch2/catch.hpp>
#include <utf8proc.h>

#include <cstdlib>
#include <random>

#include <array>
#include <string>
#include <vector>

using pith::CheckStatus;
using pith::Report;
using pith::pdf::PageFingerprints;
using pith::pdf::normalise_page_text;

namespace {

// A PDF whose pages each show one line of text (Helvetica, WinAnsi).
std::string pdf_with_pages(const std::vector<std::string>& texts) {
  std::vector<std::string> objects = {"<< /Type /Catalog /Pages 2 0 R >>", "",
                                      "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"};
  std::string kids;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    const std::size_t page = objects.size() + 1;
    const std::string content = "BT /F1 12 Tf 72 700 Td (" + texts[i] + ") Tj ET";
    objects.push_back("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> "
                      "/Contents " + std::to_string(page + 1) + " 0 R >>");
    objects.push_back("<< /Length " + std::to_string(content.size()) + " >>\nstream\n" + content + "\nendstream");
    kids += std::to_string(page) + " 0 R ";
  }
  objects[1] = "<< /Type /Pages /Kids [" + kids + "] /Count " + std::to_string(texts.size()) + " >>";
  return pith::test::classic_pdf(objects, "", "1.7");
}

PageFingerprints fingerprints(std::uint64_t pages, std::vector<std::string> texts) {
  PageFingerprints f;
  f.page_count = pages;
  for (const auto& t : texts) f.sha256.push_back(pith::sha256_hex(normalise_page_text(t)));
  return f;
}

const pith::Check* find(const Report& r, const char* code) { return r.find(code); }

}  // namespace

namespace {

// The rule's steps 1-3 over the whole text at once, as pith 0.x wrote
// them: normalise_page_text normalises only the non-ASCII stretches, and
// must give the same bytes.
std::string whole_text_normalised(const std::string& text) {
  std::string valid;
  for (std::string_view rest = text; !rest.empty();) {
    const pith::Utf8Step step = pith::next_utf8(rest);
    valid += step.code_point < 0 ? std::string_view("\xEF\xBF\xBD") : rest.substr(0, step.length);
    rest.remove_prefix(step.length);
  }
  utf8proc_uint8_t* mapped = nullptr;
  const auto length = utf8proc_map(reinterpret_cast<const utf8proc_uint8_t*>(valid.data()),
                                   static_cast<utf8proc_ssize_t>(valid.size()), &mapped,
                                   static_cast<utf8proc_option_t>(UTF8PROC_STABLE | UTF8PROC_COMPOSE | UTF8PROC_COMPAT));
  REQUIRE(length >= 0);
  std::string nfkc(reinterpret_cast<const char*>(mapped), static_cast<std::size_t>(length));
  std::free(mapped);
  std::string out;
  for (std::string_view rest = nfkc; !rest.empty();) {
    const pith::Utf8Step step = pith::next_utf8(rest);
    const auto category = utf8proc_category(step.code_point);
    const bool white = (step.code_point >= 0x09 && step.code_point <= 0x0D) || step.code_point == 0x85 ||
                       category == UTF8PROC_CATEGORY_ZS || category == UTF8PROC_CATEGORY_ZL ||
                       category == UTF8PROC_CATEGORY_ZP;
    if (!white) out += rest.substr(0, step.length);
    rest.remove_prefix(step.length);
  }
  return out;
}

}  // namespace

TEST_CASE("page text normalised stretch by stretch is the whole text normalised", "[page-fingerprint]") {
  // Pieces where NFKC acts across a boundary, or could: bases and the marks
  // that compose with them (e + U+0301, < + U+0338, marks to reorder),
  // ligatures, Hangul jamo, compatibility forms, white space of every kind,
  // invalid and cut sequences.
  const std::vector<std::string> pieces = {
      "a", "e", "<", "=", "A", "1", " ", "\t", "\n", "\r\n", ".", "(", "\xCC\x81", "\xCC\xB8", "\xCC\x88",
      "\xCC\xA3", "\xCD\x85", "\xEF\xAC\x81", "\xEF\xAC\x82", "\xC2\xA0", "\xE2\x80\xA8", "\xE3\x80\x80",
      "\xE1\x84\x80", "\xE1\x85\xA1", "\xE1\x86\xA8", "\xEA\xB0\x80", "\xEF\xBC\xA1", "\xE2\x91\xB4",
      "\xE1\xB8\x8A", "\xC3\xA9", "\xFF", "\xC3", "\xE2\x80", "\xC2\x85", "\xE2\x84\xAB", "\xCE\x85"};
  std::mt19937 random(22);
  std::uniform_int_distribution<std::size_t> piece(0, pieces.size() - 1), length(0, 24);
  for (int i = 0; i < 20000; ++i) {
    std::string text;
    for (std::size_t n = length(random); n > 0; --n) text += pieces[piece(random)];
    INFO(text);
    REQUIRE(normalise_page_text(text) == whole_text_normalised(text));
  }
}

TEST_CASE("page text is normalised: NFKC, no white space, valid UTF-8", "[fingerprint]") {
  CHECK(normalise_page_text("  Efﬁcient\t\tﬂows\n\n over\r\n  time  ") == "Efficientflowsovertime");
  CHECK(normalise_page_text("Efficient flows over time") == normalise_page_text("Efficientflows over\ntime"));
  CHECK(normalise_page_text("a\xC2\xA0" "b\xE2\x80\xA8" "c\xE3\x80\x80" "d") == "abcd");  // NBSP, LINE SEPARATOR, IDEOGRAPHIC SPACE
  CHECK(normalise_page_text("Schro\xCC\x88" "dinger") == "Schr\xC3\xB6" "dinger");            // composed
  CHECK(normalise_page_text("x\xFFy") == "x\xEF\xBF\xBDy");                                   // invalid byte: U+FFFD
  CHECK(normalise_page_text(" \n\t ").empty());
}

TEST_CASE("the XMP value is strict and round-trips", "[fingerprint]") {
  const PageFingerprints f = fingerprints(3, {"one", "two"});
  const std::string value = f.to_property();
  CHECK(value.starts_with("pith-text-1 3 "));
  const auto back = PageFingerprints::from_property(value);
  REQUIRE(back);
  CHECK(*back == f);

  const std::string h = f.sha256[0];
  for (const std::string& bad : std::vector<std::string>{"", "pith-text-2 1 " + h, "pith-text-1 1", "pith-text-1 x " + h,
                                "pith-text-1 01 " + h, "pith-text-1 1 " + h + " " + h, "pith-text-1  1 " + h,
                                "pith-text-1 1 " + h + " ", "pith-text-1 1 " + h.substr(1),
                                "pith-text-1 1 " + std::string(64, 'A')}) {
    CAPTURE(bad);
    CHECK_FALSE(PageFingerprints::from_property(bad));
  }
}

TEST_CASE("pith:pageTextSha256 goes into the XMP packet and is read back", "[fingerprint][xmp]") {
  pith::carrier::PithProperties props;
  props.number = "pith:2024:AAAAAAAAAAAAAAAAAAAAAAAAAA";
  props.page_text_sha256 = fingerprints(1, {"text"}).to_property();
  const auto packet = pith::pdf::merge_pith_xmp("", props);
  REQUIRE(packet);
  const auto read = pith::pdf::read_xmp(*packet);
  REQUIRE(read);
  CHECK(read->page_text_sha256 == props.page_text_sha256);
}

TEST_CASE("every page of a PDF is fingerprinted, within the limits", "[fingerprint]") {
  const std::string pdf = pdf_with_pages({"First page", "Second   page", "Third page"});
  const PageFingerprints f = pith::pdf::fingerprint_pages(pdf);
  REQUIRE_FALSE(f.problem);
  CHECK(f.page_count == 3);
  REQUIRE(f.sha256.size() == 3);
  CHECK(f.sha256[1] == pith::sha256_hex("Secondpage"));
  CHECK(f.page_one_without_watermark.empty());

  pith::pdf::PageFingerprintLimits two;
  two.max_pages = 2;
  const PageFingerprints bounded = pith::pdf::fingerprint_pages(pdf, two);
  CHECK(bounded.page_count == 3);
  CHECK(bounded.sha256.size() == 2);

  const PageFingerprints broken = pith::pdf::fingerprint_pages("%PDF-1.7\nnot a PDF");
  CHECK(broken.problem);
  CHECK(broken.sha256.empty());
}

TEST_CASE("two shares of the pages, read apart and joined, are the pages read at once", "[fingerprint]") {
  using pith::pdf::PageShare;
  using pith::pdf::PageTextRun;
  const std::vector<std::string> texts = {"One", "Two two", "Three three three", "Four", "Five", "Six", "Seven"};
  pith::pdf::PageFingerprintLimits few;  // a page and text limit that cut inside the second share
  few.max_pages = 5;
  pith::pdf::PageFingerprintLimits little;
  little.max_text_bytes = 12;
  for (std::size_t pages = 1; pages <= texts.size(); ++pages) {
    const std::string pdf = pdf_with_pages({texts.begin(), texts.begin() + static_cast<std::ptrdiff_t>(pages)});
    for (const auto& limits : {pith::pdf::PageFingerprintLimits{}, few, little}) {
      INFO(pages << " pages, at most " << limits.max_pages << " pages and " << limits.max_text_bytes << " bytes");
      const PageTextRun first = pith::pdf::fingerprint_page_share(pdf, PageShare{0, 2}, limits);
      const PageTextRun rest = pith::pdf::fingerprint_page_share(pdf, PageShare{1, 2}, limits);
      CHECK(first.first_page == 1);
      CHECK_FALSE(first.sha256.empty());  // page 1 (which the badge changes) is always the first share's
      PageFingerprints whole = pith::pdf::fingerprint_pages(pdf, limits);
      whole.page_one_without_watermark.clear();
      CHECK(pith::pdf::join_page_runs({first, rest}, limits) == whole);
      CHECK(pith::pdf::join_page_runs({rest}, limits).sha256.empty());  // a gap before it: nothing joins
    }
  }
  PageTextRun failed;
  failed.problem = "poppler could not open it";
  pith::pdf::PageFingerprintLimits light;  // a work limit that cuts inside the second share
  light.max_operators = 33;
  const std::string seven = pdf_with_pages(texts);
  PageFingerprints whole = pith::pdf::fingerprint_pages(seven, light);
  whole.page_one_without_watermark.clear();
  CHECK(whole.sha256.size() < texts.size());
  CHECK(pith::pdf::join_page_runs({pith::pdf::fingerprint_page_share(seven, PageShare{0, 2}, light),
                                   pith::pdf::fingerprint_page_share(seven, PageShare{1, 2}, light)},
                                  light) == whole);
  const PageFingerprints none = pith::pdf::join_page_runs({failed});
  CHECK(none.problem == failed.problem);
  CHECK(none.sha256.empty());
}

TEST_CASE("two shares with heads split where the heads say, and still join as the pages read at once", "[fingerprint]") {
  using pith::pdf::PageShare;
  const std::vector<std::string> texts = {"One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine"};
  const std::string nine = pdf_with_pages(texts);
  PageFingerprints whole = pith::pdf::fingerprint_pages(nine);
  whole.page_one_without_watermark.clear();
  struct Split {
    std::array<unsigned, 2> head;
    std::size_t first_pages;  // of nine
  };
  // Half of nine plus half the heads' difference, rounded up; never less than page 1, never more than all.
  for (const Split& split : {Split{{0, 0}, 5}, Split{{10, 4}, 2}, Split{{4, 10}, 8}, Split{{0, 4}, 7}, Split{{40, 0}, 1},
                             Split{{0, 40}, 9}, Split{{1000, 0}, 1}, Split{{5000, 0}, 1}}) {
    INFO("heads " << split.head[0] << " and " << split.head[1]);
    const auto first = pith::pdf::fingerprint_page_share(nine, PageShare{0, 2, split.head});
    const auto rest = pith::pdf::fingerprint_page_share(nine, PageShare{1, 2, split.head});
    CHECK(first.first_page == 1);
    CHECK(first.sha256.size() == split.first_pages);
    CHECK(rest.first_page == 1 + split.first_pages);
    CHECK(first.sha256.size() + rest.sha256.size() == texts.size());
    CHECK(pith::pdf::join_page_runs({first, rest}) == whole);
  }
  // One page: the first share has it, whatever the heads.
  const std::string one = pdf_with_pages({"Only"});
  CHECK(pith::pdf::fingerprint_page_share(one, PageShare{0, 2, {10, 0}}).sha256.size() == 1);
  CHECK(pith::pdf::fingerprint_page_share(one, PageShare{1, 2, {10, 0}}).sha256.empty());
}

TEST_CASE("a page too heavy to read ends the fingerprint before it, the same every time", "[fingerprint]") {
  // Page 2 draws 60,000 strokes (180,000 operators).
  std::string strokes;
  for (int i = 0; i < 60000; ++i) strokes += "0 0 m 1 1 l S\n";
  const std::string pdf = pdf_with_pages({"Light", ") Tj ET " + strokes + " BT (Heavy", "After"});
  pith::pdf::PageFingerprintLimits limits;
  limits.max_page_operators = 11'000;
  const PageFingerprints f = pith::pdf::fingerprint_pages(pdf, limits);
  CHECK(f.page_count == 3);
  REQUIRE(f.sha256.size() == 1);  // page 1 only: neither the heavy page nor the one after it
  CHECK(f.sha256[0] == pith::sha256_hex("Light"));
  CHECK(pith::pdf::fingerprint_pages(pdf, limits) == f);
  limits.max_page_operators = 1'100'000;
  CHECK(pith::pdf::fingerprint_pages(pdf, limits).sha256.size() == 3);
  limits.max_operators = 11'000;  // all pages together: page 2 is read whole, page 3 is not begun
  CHECK(pith::pdf::fingerprint_pages(pdf, limits).sha256.size() == 2);
}

TEST_CASE("an arXiv watermark after a citation that starts like one is the one taken out", "[fingerprint]") {
  // The watermark is looked for only where "arXiv:" stands (issue 32): the
  // first such place that is not a watermark does not hide the one after it.
  const std::string plain = pdf_with_pages({"Title, cf. arXiv:1234.56789 here", "Body"});
  const std::string marked = pdf_with_pages({"Title, cf. arXiv:1234.56789 here arXiv:2106.02679v2 [cs.LG] 4 Jun 2021", "Body"});
  const PageFingerprints stamped = pith::pdf::fingerprint_pages(plain);
  const PageFingerprints now = pith::pdf::fingerprint_pages(marked);
  REQUIRE(now.sha256.size() == 2);
  CHECK(now.sha256[0] != stamped.sha256[0]);
  CHECK(now.page_one_without_watermark == stamped.sha256[0]);
  CHECK(pith::pdf::fingerprint_pages(plain).page_one_without_watermark.empty());  // a citation alone is no watermark
}

TEST_CASE("an arXiv watermark line on page 1 is told apart from other text", "[fingerprint]") {
  const std::string plain = pdf_with_pages({"Title of the paper", "Body"});
  const std::string marked = pdf_with_pages({"Title of the paper arXiv:2106.02679v2  [cs.LG]  4 Jun 2021", "Body"});
  const PageFingerprints stamped = pith::pdf::fingerprint_pages(plain);
  const PageFingerprints now = pith::pdf::fingerprint_pages(marked);
  REQUIRE(now.sha256.size() == 2);
  CHECK(now.page_one_without_watermark == stamped.sha256[0]);
  const auto c = pith::pdf::compare_page_text(stamped, now);
  CHECK(c.unchanged());
  CHECK(c.watermark_only_on_page_one);
  // Any other added text is a change.
  const auto edited = pith::pdf::compare_page_text(stamped, pith::pdf::fingerprint_pages(pdf_with_pages({"Title of the paper!", "Body"})));
  CHECK(edited.changed_pages == std::vector<std::uint64_t>{1});
}

TEST_CASE("after a rewrite: text unchanged, changed on named pages, or unknown", "[fingerprint][check]") {
  const PageFingerprints stamped = fingerprints(10, {"1", "2", "3", "4", "5", "6", "7", "8", "9", "10"});
  const std::optional<std::string> value = stamped.to_property();

  SECTION("unchanged") {
    Report r;
    pith::check::check_page_text(pith::check::ChangeSinceStamp::rewritten, value, stamped, r);
    REQUIRE(find(r, "pdf.bytes.rewritten_text_unchanged"));
    CHECK(find(r, "pdf.bytes.rewritten_text_unchanged")->status == CheckStatus::pass);
    CHECK_THAT(find(r, "pdf.bytes.rewritten_text_unchanged")->detail, Catch::Matchers::Contains("all 10 pages") &&
                                                                          Catch::Matchers::Contains("unsigned"));
    CHECK(r.extra["page_text"]["state"] == "unchanged");
  }
  SECTION("changed on pages 3 and 7") {
    PageFingerprints now = fingerprints(10, {"1", "2", "3 edited", "4", "5", "6", "7 edited", "8", "9", "10"});
    Report r;
    pith::check::check_page_text(pith::check::ChangeSinceStamp::rewritten, value, now, r);
    REQUIRE(find(r, "pdf.bytes.rewritten_text_changed"));
    CHECK(find(r, "pdf.bytes.rewritten_text_changed")->status == CheckStatus::warn);
    CHECK_THAT(find(r, "pdf.bytes.rewritten_text_changed")->detail, Catch::Matchers::Contains("text changed on pages 3, 7"));
    CHECK(r.extra["page_text"]["changed_pages"] == nlohmann::json::array({3, 7}));
    CHECK_FALSE(find(r, "pdf.bytes.rewritten_text_unchanged"));
    CHECK(find(r, "pdf.bytes.rewritten_text_changed")->shows_alteration);
  }
  SECTION("an edit appended after stamping: its own codes, the same comparison") {
    PageFingerprints now = fingerprints(10, {"1", "2", "3 edited", "4", "5", "6", "7", "8", "9", "10"});
    Report r;
    pith::check::check_page_text(pith::check::ChangeSinceStamp::edited, value, now, r);
    REQUIRE(find(r, "pdf.bytes.edited_text_changed"));
    CHECK(find(r, "pdf.bytes.edited_text_changed")->shows_alteration);
    CHECK_THAT(find(r, "pdf.bytes.edited_text_changed")->detail,
               Catch::Matchers::StartsWith("text changed on page 3 since stamping, edited after stamping"));
    CHECK(r.extra["page_text"]["how"] == "edited");
    Report same;
    pith::check::check_page_text(pith::check::ChangeSinceStamp::edited, value, stamped, same);
    REQUIRE(find(same, "pdf.bytes.edited_text_unchanged"));
    CHECK(find(same, "pdf.bytes.edited_text_unchanged")->status == CheckStatus::pass);
  }
  SECTION("a page removed") {
    PageFingerprints now = fingerprints(9, {"1", "2", "3", "4", "5", "6", "7", "8", "9"});
    Report r;
    pith::check::check_page_text(pith::check::ChangeSinceStamp::rewritten, value, now, r);
    REQUIRE(find(r, "pdf.bytes.rewritten_text_changed"));
    CHECK_THAT(find(r, "pdf.bytes.rewritten_text_changed")->detail, Catch::Matchers::Contains("had 10 pages, this file has 9"));
  }
  SECTION("no fingerprint stamped (an older pith-stamp): nothing is said") {
    Report r;
    pith::check::check_page_text(pith::check::ChangeSinceStamp::rewritten, std::nullopt, stamped, r);
    CHECK(r.checks().empty());
  }
  SECTION("a malformed fingerprint, or pages not read: unknown") {
    for (const auto& [stamped_value, now] : {std::pair{std::optional<std::string>("pith-text-1 x"), std::optional(stamped)},
                                             std::pair{value, std::optional<PageFingerprints>()}}) {
      Report r;
      pith::check::check_page_text(pith::check::ChangeSinceStamp::rewritten, stamped_value, now, r);
      REQUIRE(find(r, "pdf.bytes.rewritten_text_unknown"));
      CHECK(find(r, "pdf.bytes.rewritten_text_unknown")->status == CheckStatus::skip);
    }
  }
}

TEST_CASE("the facts wire carries the fingerprints strictly", "[fingerprint][facts]") {
  pith::pdf::PdfFacts facts;
  facts.page_fingerprints = fingerprints(4, {"a", "b", "c"});
  facts.page_fingerprints->page_one_without_watermark = pith::sha256_hex("a");
  facts.page_fingerprints->problem = "page 4 could not be read";
  const auto back = pith::pdf::PdfFacts::from_wire(facts.to_wire());
  REQUIRE(back);
  CHECK(*back == facts);

  SECTION("a hash that is not lower-case hex SHA-256") {
    facts.page_fingerprints->sha256[1] = "not a hash";
    CHECK_FALSE(pith::pdf::PdfFacts::from_wire(facts.to_wire()));
  }
  SECTION("more hashes than pages") {
    facts.page_fingerprints->page_count = 2;
    CHECK_FALSE(pith::pdf::PdfFacts::from_wire(facts.to_wire()));
  }
  SECTION("a watermark-free hash that is not one") {
    facts.page_fingerprints->page_one_without_watermark = "x";
    CHECK_FALSE(pith::pdf::PdfFacts::from_wire(facts.to_wire()));
  }
}
