// SPDX-License-Identifier: GPL-3.0-or-later
// Visible bindings without a PDF: normalising extracted text, finding the
// record's title and abstract among page-1 lines, arXiv ids on page 1, the
// PageText wire form, the unbound verdict, and a rewrite told from tampering.
#include "pith/base/crypto.hpp"
#include "pith/base/report.hpp"
#include "pith/check/drawn_title.hpp"
#include "pith/check/file.hpp"
#include "pith/check/online.hpp"
#include "pith/check/pdf.hpp"
#include "pith/check/visible.hpp"
#include "pith/pdf/page_text.hpp"
#include "pith/registry/title.hpp"

#include <catch2/catch.hpp>

using namespace pith;

namespace {

constexpr const char* title_jfll =
    "Layered gradient accumulation and modular pipeline parallelism: fast and efficient training of large "
    "language models";
constexpr const char* title_jfll_sha = "434da334d2825ada3dac75e9e2b905314cb028892db0175cc031b036c7f49566";

nlohmann::json record_with(const std::string& title, const std::string& abstract = {}) {
  nlohmann::json r = {{"source", {{"kind", "arxiv"}, {"id", "2106.02679"}, {"version", 1}}},
                      {"metadata", {{"title_canon_sha256", registry::title_canon_sha256(title)}}}};
  if (!abstract.empty()) r["metadata"]["abstract_canon_sha256"] = registry::title_canon_sha256(abstract);
  return r;
}

// A glyph reader that reads `lines` whatever it is asked (the drawn letters
// of a title, as OCR would give them).
check::DrawnReader reading(std::vector<std::string> lines) {
  return [lines](const std::vector<pdf::Box>&, pdf::ReadMode) -> Result<std::vector<std::string>> { return lines; };
}

}  // namespace

TEST_CASE("extracted text is normalised: ligatures, dotless i + accent, soft hyphens, spaces", "[visible]") {
  CHECK(check::normalise_visible_text("E\xEF\xAC\x83" "cient \xEF\xAC\x81ne-tuning") == "Efficient fine-tuning");  // ﬃ ﬁ
  CHECK(check::normalise_visible_text("na\xC4\xB1\xCC\x88ve") == "na\xC3\xAFve");  // ı + ¨ → ï
  CHECK(check::normalise_visible_text("hy\xC2\xAD" "phen  \t ated\xE2\x80\x8B ") == "hyphen ated");
  CHECK(check::normalise_visible_text("x\xC2\xB2", false) == "x\xC2\xB2");  // NFC keeps ²
  CHECK(check::normalise_visible_text("x\xC2\xB2") == "x2");                // NFKC does not
  CHECK(check::normalise_visible_text("\xFF" "ok") == "\xEF\xBF\xBD" "ok");  // invalid UTF-8 → U+FFFD
}

TEST_CASE("the record's title is found across lines, with hyphens kept or dropped", "[visible]") {
  const std::vector<std::string> lines = {"arXiv preprint", "Layered gradient accumulation and modular pipeline",
                                          "parallelism: fast and e\xEF\xAC\x83" "cient training of large",
                                          "language models", "Joel Lamy-Poirier"};
  const auto span = check::find_visible_span(lines, title_jfll_sha);
  REQUIRE(span);
  CHECK(span->first_line == 1);
  CHECK(span->line_count == 3);
  // Upper-case hex in the record is the same hash.
  std::string upper = title_jfll_sha;
  for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  CHECK(check::find_visible_span(lines, upper));

  const std::string title = "Efficient fine-tuning of hyphenation-aware models";
  const auto sha = registry::title_canon_sha256(title);
  CHECK(check::find_visible_span({"Efficient fine-", "tuning of hyphen-", "ation-aware models"}, sha));
  CHECK(check::find_visible_span({"Efficient fine-tuning of hyphenation-aware models"}, sha));
  CHECK_FALSE(check::find_visible_span({"Efficient fine-tuning of", "something else entirely"}, sha));
  CHECK_FALSE(check::find_visible_span({"Efficient fine-tuning of hyphenation-aware models"}, ""));
  // Only spans of at most 8 lines, starting in the first 80.
  std::vector<std::string> late(100, "filler");
  late.push_back(title);
  CHECK_FALSE(check::find_visible_span(late, sha));
}

TEST_CASE("a title is found whether its lines are ASCII or not, wherever the non-ASCII line falls", "[visible]") {
  // ASCII spans are hashed line by line (each span extends the last one's
  // hash); a span with a non-ASCII line is hashed whole. Every place of the
  // non-ASCII line, and of the title among other lines, finds the same span.
  const std::vector<std::string> title_lines = {"Fast training of", "\xC3\x89tudes on large", "language models",
                                                "for everyone"};
  for (std::size_t accented = 0; accented <= title_lines.size(); ++accented) {
    std::vector<std::string> title = title_lines;
    for (std::size_t i = 0; i < title.size(); ++i) {
      if (i != accented) title[i] = i == 1 ? "Studies on large" : title[i];
    }
    if (accented != 1 && accented < title.size()) title[accented] += " \xE2\x80\x94 caf\xC3\xA9";
    std::string joined;
    for (const auto& line : title) joined += (joined.empty() ? "" : " ") + line;
    const auto sha = registry::title_canon_sha256(joined);
    for (std::size_t before = 0; before < 3; ++before) {
      std::vector<std::string> lines(before, "Some header line");
      lines.insert(lines.end(), title.begin(), title.end());
      lines.push_back("Author Name");
      INFO("accented line " << accented << ", lines before " << before);
      const auto span = check::find_visible_span(lines, sha);
      REQUIRE(span);
      CHECK(span->first_line == before);
      CHECK(span->line_count == title.size());
      CHECK(span->text == joined);
    }
  }
}

TEST_CASE("footnote marks after a title and typographic quotes do not hide it", "[visible]") {
  // \thanks leaves a mark at the end of the title ("The gtl package: … tokens∗").
  const auto sha = registry::title_canon_sha256("The gtl package: manipulate unbalanced lists of tokens");
  CHECK(check::find_visible_span({"The gtl package:", "manipulate unbalanced lists of tokens\xE2\x88\x97", "Bruno"}, sha));
  CHECK(check::find_visible_span({"The gtl package: manipulate unbalanced lists of tokens \xE2\x80\xA0"}, sha));
  // mnras sets a \thanks in mid-title as ★ after its word, on page 1 of a
  // real paper: "… in a NIHAO-UHD★" / "Milky Way analogue II: …".
  const auto mid = registry::title_canon_sha256("A merger in a NIHAO-UHD Milky Way analogue II: heated or born hot?");
  CHECK(check::find_visible_span({"A merger in a NIHAO-UHD\xE2\x98\x85", "Milky Way analogue II: heated or born hot?"}, mid));
  CHECK(check::find_visible_span({"A merger in a NIHAO-UHD\xE2\x98\x85 Milky Way analogue II: heated or born hot?"}, mid));
  CHECK(check::find_visible_span({"A merger in a NIHAO-UHD \xE2\x80\xA0\xE2\x80\xA1 Milky Way", "analogue II: heated or born hot?"}, mid));
  // Marks go, words stay: a title is not found with a word missing or changed.
  CHECK_FALSE(check::find_visible_span({"A merger in a NIHAO\xE2\x98\x85 Milky Way analogue II: heated or born hot?"}, mid));
  // A title that has a mark of its own is found as it is.
  CHECK(check::find_visible_span({"A* search on a \xE2\x98\x85 graph"}, registry::title_canon_sha256("A* search on a \xE2\x98\x85 graph")));
  // Metadata types User's; the page shows User’s.
  const auto manual = registry::title_canon_sha256("The Dvipdfmx User's Manual");
  CHECK(check::find_visible_span({"The Dvipdfmx User\xE2\x80\x99s Manual"}, manual));
  // A title that really has a typographic apostrophe is found as it is.
  CHECK(check::find_visible_span({"The Dvipdfmx User\xE2\x80\x99s Manual"},
                                 registry::title_canon_sha256("The Dvipdfmx User\xE2\x80\x99s Manual")));
}

TEST_CASE("the abstract is found after its heading", "[visible]") {
  const std::string abstract = "We study the official workflow of difficult problems in the field.";
  const auto sha = registry::title_canon_sha256(abstract);
  CHECK(check::find_visible_abstract({"Title", "Abstract", "We study the o\xEF\xAC\x83" "cial workflow of di\xEF\xAC\x83" "cult",
                                      "problems in the field.", "1 Introduction"},
                                     sha));
  CHECK(check::find_visible_abstract({"Title", "Abstract\xE2\x80\x94We study the official workflow of diffi-",
                                      "cult problems in the field."},
                                     sha));
  CHECK_FALSE(check::find_visible_abstract({"Abstraction", "We study the official workflow of difficult problems in the field."}, sha));
}

TEST_CASE("arXiv ids on page 1: the watermark and links", "[visible]") {
  const auto marks = check::arxiv_watermarks({"Title", "arXiv:2106.02679v1  [cs.LG]  4 Jun 2021",
                                              "see arXiv:1234.56789 for details"});
  REQUIRE(marks.size() == 1);  // a citation in running text is not a watermark
  CHECK(marks[0].watermark);
  CHECK(marks[0].id == "2106.02679");
  CHECK(marks[0].version == 1);
  CHECK(marks[0].line == 1);
  const auto links = check::arxiv_links({"https://arxiv.org/abs/2106.02679v1", "https://example.org/x",
                                         "http://arxiv.org/pdf/hep-th/9901001v2"});
  REQUIRE(links.size() == 2);
  CHECK_FALSE(links[0].watermark);
  CHECK(links[1].id == "hep-th/9901001");
  CHECK(links[1].version == 2);
}

TEST_CASE("arXiv ids on page 1: found after a text that only starts like one, in any case and width", "[visible]") {
  // The patterns run only where their literal start stands (issue 32): a
  // citation before the watermark on the same line, a fullwidth "ａｒＸｉｖ:"
  // that NFKC makes ASCII, and a link's host in capitals are still read.
  const auto marks = check::arxiv_watermarks(
      {"cf. arXiv:1234.56789 and arXiv:2106.02679v3 [cs.LG] 4 Jun 2021",
       "\xEF\xBD\x81\xEF\xBD\x92\xEF\xBC\xB8\xEF\xBD\x89\xEF\xBD\x96:2201.00001v1 [math.AG] 1 Jan 2022", "no id here"});
  REQUIRE(marks.size() == 2);
  CHECK(marks[0].id == "2106.02679");
  CHECK(marks[0].version == 3);
  CHECK(marks[1].id == "2201.00001");
  CHECK(marks[1].line == 1);
  const auto links = check::arxiv_links({"HTTPS://ARXIV.ORG/ABS/2106.02679v1", "https://arxiv.org.example/abs/2106.02679",
                                         "https://example.org/?u=arxiv.org/abs/2106.02679"});
  REQUIRE(links.size() == 1);
  CHECK(links[0].id == "2106.02679");
}

TEST_CASE("visible bindings: match, not found, arXiv mismatch", "[visible]") {
  const auto record = record_with(title_jfll, "An abstract.");
  pdf::PageText page = pdf::PageText::all_seen({"Layered gradient accumulation and modular pipeline parallelism: fast and efficient",
                                                "training of large language models", "Abstract", "An abstract.",
                                                "arXiv:2106.02679v1  [cs.LG]  4 Jun 2021"});
  page.link_uris = {"https://arxiv.org/abs/2106.02679v1"};
  Report report;
  nlohmann::json bindings;
  check::check_visible_bindings(page, record, report, bindings,
                                reading({"Layered gradient accumulation and modular pipeline parallelism: fast and efficient",
                                         "training of large language models"}));
  CHECK(report.find("pdf.title.glyphs_match") != nullptr);
  CHECK(report.find("pdf.title.visible_match") != nullptr);
  CHECK(report.find("pdf.title.visible_match")->binds_content);
  CHECK(report.find("pdf.abstract.visible_match") != nullptr);
  CHECK(report.find("pdf.arxiv.match") != nullptr);
  CHECK(bindings["visible_title"]["state"] == "match");
  CHECK(bindings["arxiv_id"]["state"] == "match");

  // Another version of the record's paper binds, with its own warning.
  const pdf::PageText v2 = pdf::PageText::all_seen({"arXiv:2106.02679v2  [cs.LG]  9 Jun 2021", "Another title"});
  Report versioned;
  nlohmann::json bv;
  check::check_visible_bindings(v2, record, versioned, bv, {});
  CHECK(versioned.find("pdf.title.visible_not_found")->status == CheckStatus::warn);
  REQUIRE(versioned.find("pdf.arxiv.match"));
  CHECK(versioned.find("pdf.arxiv.match")->binds_content);
  REQUIRE(versioned.find("pdf.arxiv.other_version"));
  CHECK(versioned.find("pdf.arxiv.other_version")->status == CheckStatus::warn);
  CHECK(versioned.find("pdf.arxiv.other_version")->detail.find("this PDF is v2 of arXiv:2106.02679; the record registers "
                                                               "arXiv:2106.02679v1") != std::string::npos);
  CHECK_FALSE(versioned.find("pdf.arxiv.mismatch"));
  CHECK(bv["arxiv_id"]["state"] == "match");

  // Another paper's watermark fails.
  const pdf::PageText other = pdf::PageText::all_seen({"arXiv:2106.99999v1  [cs.LG]  9 Jun 2021", "Another paper"});
  Report mismatched;
  nlohmann::json b2;
  check::check_visible_bindings(other, record, mismatched, b2, {});
  CHECK(mismatched.find("pdf.arxiv.mismatch")->status == CheckStatus::fail);
  CHECK(b2["arxiv_id"]["state"] == "mismatch");

  pdf::PageText unreadable;
  unreadable.problem = "the text extractor could not open the PDF";
  Report undetermined;
  nlohmann::json b3;
  check::check_visible_bindings(unreadable, record, undetermined, b3, {});
  CHECK(b3["visible_title"]["state"] == "undetermined");
}

TEST_CASE("text a reader cannot see never binds; it is named", "[visible]") {
  const auto record = record_with(title_jfll, "An abstract.");
  pdf::PageText page = pdf::PageText::all_seen({"Layered gradient accumulation and modular pipeline parallelism: fast and efficient",
                                                "training of large language models", "Abstract", "An abstract.",
                                                "arXiv:2106.02679v1  [cs.LG]  4 Jun 2021", "Cats and their discontents"});
  for (const std::size_t i : {1, 3, 4}) {  // the title's second line, the abstract, the watermark: hidden
    std::fill(page.seen[i].begin(), page.seen[i].end(), '0');
    page.hidden[i] = pdf::hidden_no_contrast;
  }
  page.link_uris = {"https://arxiv.org/abs/2106.02679v1"};
  Report report;
  report.trust_anchor("receipt.signature.valid");
  report.requires_content_binding = true;
  nlohmann::json bindings;
  check::check_visible_bindings(page, record, report, bindings, {});
  CHECK_FALSE(report.find("pdf.title.visible_match"));
  REQUIRE(report.find("pdf.title.visible_hidden"));
  CHECK(report.find("pdf.title.visible_hidden")->status == CheckStatus::warn);
  CHECK(report.find("pdf.title.visible_hidden")->detail.find("a reader cannot see it: not visible against what lies "
                                                             "beneath") != std::string::npos);
  CHECK(report.find("pdf.abstract.visible_hidden"));
  CHECK(report.find("pdf.arxiv.hidden"));
  CHECK(bindings["visible_title"]["state"] == "hidden");
  CHECK(report.verdict() == Verdict::unbound);

  // One hidden character in the title's line is enough: what a reader sees
  // is not the title.
  pdf::PageText partly = pdf::PageText::all_seen({title_jfll});
  partly.seen[0][3] = '0';
  Report r2;
  nlohmann::json b2;
  check::check_visible_bindings(partly, record, r2, b2, {});
  CHECK(r2.find("pdf.title.visible_hidden"));

  // A link alone is a hint.
  pdf::PageText linked = pdf::PageText::all_seen({"Another paper"});
  linked.link_uris = {"https://arxiv.org/abs/2106.02679v1"};
  Report r3;
  nlohmann::json b3;
  check::check_visible_bindings(linked, record, r3, b3, {});
  REQUIRE(r3.find("pdf.arxiv.link_only"));
  CHECK(r3.find("pdf.arxiv.link_only")->status == CheckStatus::skip);
  CHECK_FALSE(r3.find("pdf.arxiv.match"));
}

TEST_CASE("seen_lines leaves out what a reader cannot see; a mask must fit its line", "[visible]") {
  pdf::PageText page = pdf::PageText::all_seen({"na\xC3\xAFve text", "ok"});
  page.seen[0] = "1101111111";  // "naïve text": the ï (two bytes, one code point) hidden
  CHECK(page.seen_lines() == std::vector<std::string>{"nave text", "ok"});
  CHECK_FALSE(page.inconsistency());
  CHECK_FALSE(page.all_seen(0, 1));
  CHECK(page.all_seen(1, 1));
  page.seen[0] = "111";  // a mask shorter than its line
  CHECK(page.inconsistency());
  page.seen[0] = "11x1111111";
  CHECK(page.inconsistency());
  page.seen.pop_back();
  CHECK(page.inconsistency());
}

TEST_CASE("PageText travels as JSON", "[visible]") {
  pdf::PageText page = pdf::PageText::all_seen({"A title", "na\xC3\xAFve"});
  page.seen[1] = "10111";
  page.hidden[1] = pdf::hidden_overprinted;
  page.boxes[0] = {10, 20.5, 30, 40};
  page.link_uris = {"https://arxiv.org/abs/2106.02679"};
  const auto back = pdf::PageText::from_json(page.to_json());
  REQUIRE(back);
  CHECK(*back == page);
  page.problem = "page 1 could not be read";
  CHECK(*pdf::PageText::from_json(page.to_json()) == page);
  CHECK_FALSE(pdf::PageText::from_json(nlohmann::json{{"lines", "x"}, {"link_uris", nlohmann::json::array()}}));
  CHECK_FALSE(pdf::PageText::from_json(nlohmann::json::array()));
}

TEST_CASE("read_page_text refuses what is not a PDF without throwing", "[visible]") {
  const auto page = pdf::read_page_text("not a pdf at all", {"https://x"});
  CHECK(page.problem);
  CHECK(page.link_uris == std::vector<std::string>{"https://x"});
}

TEST_CASE("verdict unbound: a trusted record with no content binding", "[verdict]") {
  Report report;
  report.trust_anchor("receipt.signature.valid");
  CHECK(report.verdict() == Verdict::verified);  // registry files need no content binding
  report.requires_content_binding = true;
  CHECK(report.verdict() == Verdict::unbound);
  CHECK(exit_code_for(Verdict::unbound) == 4);
  report.add("pdf.title.match", CheckStatus::warn, "", false, true);  // only a pass binds
  CHECK(report.verdict() == Verdict::unbound);
  report.content_binding("pdf.title.visible_match");
  CHECK(report.verdict() == Verdict::verified);
  report.fail("pdf.arxiv.mismatch");
  CHECK(report.verdict() == Verdict::failed);
}

TEST_CASE("byte binding: a full rewrite is a warning, a changed prefix with the update appended fails", "[bytes]") {
  const std::string original = "%PDF-1.5\n1 0 obj\n<<>>\nendobj\nxref\n0 1\ntrailer\n<<>>\nstartxref\n9\n%%EOF\n";
  const std::string update = "2 0 obj\n<<>>\nendobj\nxref\n0 1\ntrailer\n<<>>\nstartxref\n1234\n%%EOF\n";
  const auto sha = sha256_hex(original);
  const auto len = std::to_string(original.size());
  // Rewritten: other bytes in one revision, none ending where the stamp's original did.
  std::string rewritten = "%PDF-1.7\n% rewritten by another tool\n1 0 obj\n<<>>\nendobj\n2 0 obj\n<<>>\nendobj\n"
                          "xref\n0 1\ntrailer\n<<>>\nstartxref\n60\n%%EOF\n";
  auto b = check::bind_bytes(rewritten, sha, len);
  CHECK(b.code == "pdf.bytes.rewritten");
  CHECK(b.status == CheckStatus::warn);
  // Rewritten into fewer bytes than the stamp covered.
  CHECK(check::bind_bytes("%PDF-1.7\nsmall\n%%EOF\n", sha, len).code == "pdf.bytes.rewritten");
  // Tampered: bytes inserted before the update, which is still appended
  // (two revisions, the stamped bytes no longer end one).
  const auto spliced = check::bind_bytes("%PDF-1.7\n% inserted\n" + original + update, sha, len);
  CHECK(spliced.code == "pdf.bytes.prefix_broken");
  CHECK(spliced.status == CheckStatus::fail);
  // Tampered: same layout, a byte changed before the appended update.
  std::string tampered = original + update;
  tampered[3] = 'X';
  b = check::bind_bytes(tampered, sha, len);
  CHECK(b.code == "pdf.bytes.prefix_broken");
  CHECK(b.status == CheckStatus::fail);
}

TEST_CASE("a number-only PDF's evidence crosses the process boundary", "[visible]") {
  check::FileCheck checked;
  checked.report.input = "paper.pdf";
  checked.evidence = check::PdfEvidence{"pith:JFLLIOJUI2M3KX3FLLGP4N2V65", {{"Info /Title", title_jfll}}, {}, {}};
  checked.evidence->page = pdf::PageText::all_seen({"Layered gradient accumulation", "and more"});
  checked.evidence->drawn = check::DrawnReading{0, 2, {"Layered gradient accumulation", "and more"}, {}};
  const auto back = check::file_check_from_wire(check::file_check_to_wire(checked));
  REQUIRE(back);
  REQUIRE(back->evidence);
  CHECK(*back->evidence == *checked.evidence);
  auto wire = check::file_check_to_wire(checked);
  wire["evidence"]["titles"] = nlohmann::json::array({"only one"});
  CHECK_FALSE(check::file_check_from_wire(wire));
  wire = check::file_check_to_wire(checked);
  wire["evidence"]["drawn"]["line"] = nlohmann::json::array({1});
  CHECK_FALSE(check::file_check_from_wire(wire));
}

TEST_CASE("an unresolved number-only PDF stays unverifiable and says how to retry", "[visible]") {
  check::FileCheck checked;
  checked.evidence = check::PdfEvidence{"pith:JFLLIOJUI2M3KX3FLLGP4N2V65", {}, {}, {}};
  check::apply_lookup(checked, std::unexpected(Error{ErrorKind::network, "registry", "unreachable"}));
  CHECK(checked.report.find("online.unavailable")->status == CheckStatus::warn);
  CHECK(checked.report.find("pdf.record.resolved")->detail.find("file://MIRROR") != std::string::npos);
  CHECK(checked.report.verdict() == Verdict::unverifiable);
}

TEST_CASE("the glyph check: comparable letters and the distance", "[visible][glyphs]") {
  CHECK(check::comparable_letters("\xEF\xAC\x81ne \xC3\x89t\xC3\xA9: x\xC2\xB2 + y") == "fineetex2y");  // ﬁ É é ²
  const auto same = check::compare_drawn_title("Efficient training of large models", {"Efficient training", "of large models"});
  CHECK(same.applicable);
  CHECK(same.distance == 0);
  // OCR's usual slips (a missed letter, l for I) stay within the tolerance.
  const auto noisy = check::compare_drawn_title("Efficient training of large models", {"Eflicient traning of large models"});
  CHECK(noisy.distance == 2);
  CHECK(check::drawn_matches(noisy));
  // Another paper's letters, mapped by ToUnicode to the record's title.
  const auto other = check::compare_drawn_title("Efficient training of large models", {"Cats and their discontents"});
  CHECK_FALSE(check::drawn_matches(other));
  CHECK(other.ratio() > 0.5);
  // A mix: one word of five lies.
  const auto mixed = check::compare_drawn_title("Efficient training of large models", {"Efficient training of small models"});
  CHECK_FALSE(check::drawn_matches(mixed));
  // A Greek title is outside the English model: not applicable.
  CHECK_FALSE(check::compare_drawn_title("\xCE\x9A\xCE\xB2\xCE\xB1\xCE\xBD\xCF\x84\xCE\xB9\xCE\xBA\xCE\xAE "
                                         "\xCE\xB8\xCE\xB5\xCF\x89\xCF\x81\xCE\xAF\xCE\xB1 \xCF\x80\xCE\xB5\xCE\xB4\xCE\xAF\xCF\x89\xCE\xBD",
                                         {"KBavtuKy Bewpia"})
                    .applicable);
}

TEST_CASE("the glyph check: a title binds only when its glyphs are its letters", "[visible][glyphs]") {
  const auto record = record_with(title_jfll);
  const pdf::PageText page = pdf::PageText::all_seen({title_jfll});
  const auto judged = [&](const check::DrawnReader& read) {
    Report report;
    report.trust_anchor("receipt.signature.valid");
    report.requires_content_binding = true;
    nlohmann::json bindings;
    check::check_visible_bindings(page, record, report, bindings, read);
    return std::pair{report, bindings};
  };
  {
    const auto [report, bindings] = judged(reading({title_jfll}));
    CHECK(report.find("pdf.title.glyphs_match")->status == CheckStatus::pass);
    CHECK(report.verdict() == Verdict::verified);
  }
  {  // the text layer claims the record's title; the glyphs are another paper's
    const auto [report, bindings] = judged(reading({"Cats and their discontents: a study of feline moods in cities"}));
    REQUIRE(report.find("pdf.title.glyphs_mismatch"));
    CHECK(report.find("pdf.title.glyphs_mismatch")->status == CheckStatus::fail);
    CHECK(report.find("pdf.title.glyphs_mismatch")->detail.find("Cats and their discontents") != std::string::npos);
    CHECK_FALSE(report.find("pdf.title.visible_match"));
    CHECK(bindings["visible_title"]["state"] == "mismatch");
    CHECK(report.verdict() == Verdict::failed);
  }
  {  // no reader, or a reader that failed: said, and the title does not bind
    const auto [report, bindings] = judged({});
    CHECK(report.find("pdf.title.glyphs_unread")->status == CheckStatus::warn);
    CHECK(bindings["visible_title"]["state"] == "undetermined");
    CHECK(report.verdict() == Verdict::unbound);
    const auto [r2, b2] = judged([](const std::vector<pdf::Box>&, pdf::ReadMode) -> Result<std::vector<std::string>> {
      return fail(ErrorKind::internal, "glyph check", "the child was killed");
    });
    CHECK(r2.find("pdf.title.glyphs_unread")->detail.find("the child was killed") != std::string::npos);
    CHECK(r2.verdict() == Verdict::unbound);
  }
}
