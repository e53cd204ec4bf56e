// SPDX-License-Identifier: GPL-3.0-or-later
#include "support/latex_matrix.hpp"

#include "pith/tex/sty.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <fstream>

namespace pith::test {
namespace fs = std::filesystem;

const char* to_string(Variant v) {
  switch (v) {
    case Variant::plain: return "no hyperref";
    case Variant::hyperref_before: return "hyperref before pith";
    case Variant::hyperref_after: return "hyperref after pith";
    case Variant::hyperxmp: return "hyperref + hyperxmp";
    case Variant::document_metadata: return "\\DocumentMetadata";
    case Variant::document_metadata_hyperref: return "\\DocumentMetadata + hyperref";
  }
  return "?";
}

std::string paper_text(const Paper& p) {
  const bool docmeta = p.variant == Variant::document_metadata || p.variant == Variant::document_metadata_hyperref;
  const bool abstract_first =
      p.documentclass == "amsart" || p.documentclass == "revtex4-2" || p.documentclass == "acmart";
  const std::string abstract = "\\begin{abstract}\n" + std::string(abstract_word) +
                               " text of the abstract.\n\\end{abstract}\n";
  std::string author = "\\author{Ada Author}\n";
  if (p.documentclass == "revtex4-2") author = "\\author{Ada Author}\n\\affiliation{Some Institute}\n";
  if (p.documentclass == "acmart") {
    author = "\\author{Ada Author}\n\\affiliation{\\institution{Some Institute}\\country{Country}}\n";
  }
  if (p.documentclass == "llncs") author = "\\author{Ada Author}\n\\institute{Some Institute}\n";
  const std::string title = "\\title{" + p.title + "}\n";

  std::string t;
  if (docmeta) t += "\\DocumentMetadata{}\n";
  t += "\\documentclass";
  if (!p.class_options.empty()) t += "[" + p.class_options + "]";
  t += "{" + p.documentclass + "}\n";
  t += p.preamble_before_pith;
  if (p.variant == Variant::hyperref_before) t += "\\usepackage{hyperref}\n";
  t += "\\usepackage";
  if (!p.pith_options.empty()) t += "[" + p.pith_options + "]";
  t += "{pith}\n";
  if (p.variant == Variant::hyperref_after || p.variant == Variant::document_metadata_hyperref) {
    t += "\\usepackage{hyperref}\n";
  }
  if (p.variant == Variant::hyperxmp) {
    t += "\\usepackage{hyperref}\n\\usepackage{hyperxmp}\n\\hypersetup{pdftitle={" + p.title + "},pdfauthor={Ada}}\n";
  }
  t += p.extra_preamble;
  if (!p.number.empty()) t += "\\pithnumber{" + p.number + "}\n";
  // revtex sets the title from the document body.
  if (p.documentclass != "revtex4-2") t += title + author;
  t += "\\begin{document}\n";
  if (p.documentclass == "revtex4-2") t += title + author;
  t += p.body_before_title;
  if (abstract_first) t += abstract;
  t += "\\maketitle\n";
  if (!abstract_first) t += abstract;
  t += "\\section{" + std::string(section_word) + "}\nBody text of the paper.\n\\end{document}\n";
  return t;
}

fs::path make_paper_dir(const std::string& tag, const Paper& paper, const std::string& sty) {
  std::string clean = tag;
  for (char& c : clean) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '-';
  }
  const fs::path dir = fresh_temp_dir("latex-" + clean);
  std::ofstream(dir / "paper.tex", std::ios::binary) << paper_text(paper);
  std::ofstream(dir / "pith.sty", std::ios::binary) << sty;
  return dir;
}

void check_badge_between_title_and_abstract(const fs::path& pdf, const std::string& url, bool abstract_on_page1) {
  const auto links = page1_links(qpdf_json(pdf));
  const auto badge = std::find_if(links.begin(), links.end(), [&](const LinkAnnot& l) { return l.uri == url; });
  REQUIRE(badge != links.end());
  REQUIRE(badge->rect.size() == 4);
  const double height = page1_height(pdf);
  REQUIRE(height > 0);
  // pdftotext measures y from the top; the annotation from the bottom.
  const double badge_top = height - std::max(badge->rect[1], badge->rect[3]);
  const double badge_bottom = height - std::min(badge->rect[1], badge->rect[3]);
  const auto words = page1_words(pdf);
  // The title is the topmost occurrence of its word (acmart repeats it in
  // the reference format further down).
  double title_bottom = -1;
  double title_top = 1e9;
  double abstract_top = 1e9;
  const auto has = [](const std::string& text, const char* word) {
    std::string a = text, b = word;
    for (char& c : a) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (char& c : b) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return a.find(b) != std::string::npos;
  };
  for (const auto& w : words) {
    const bool is_title = has(w.text, title_word);
    if (is_title && w.y_min < title_top) {
      title_top = w.y_min;
      title_bottom = w.y_max;
    }
  }
  // The abstract (heading or text); the first section only when there is no
  // abstract on the page (in two columns a section may sit higher in the
  // other column).
  for (const auto& w : words) {
    const bool abstract_here =
        has(w.text, abstract_word) || w.text.starts_with("Abstract") || w.text.starts_with("ABSTRACT");
    if (abstract_here && w.y_min > title_bottom) abstract_top = std::min(abstract_top, w.y_min);
  }
  if (abstract_top == 1e9) {
    for (const auto& w : words) {
      if (has(w.text, section_word) && w.y_min > title_bottom) abstract_top = std::min(abstract_top, w.y_min);
    }
  }
  INFO("title bottom " << title_bottom << ", badge " << badge_top << ".." << badge_bottom << ", abstract top "
                       << abstract_top);
  REQUIRE(title_bottom > 0);
  CHECK(badge_top >= title_bottom - 1.0);
  if (abstract_on_page1) {
    REQUIRE(abstract_top < 1e9);
    CHECK(badge_bottom <= abstract_top + 1.0);
  }
}

void check_generated_sty_pdf(Engine engine, const Paper& paper, const registry::VerifiedRecord& record) {
  auto sty = tex::generate_sty(record);
  REQUIRE(sty);
  const auto dir = make_paper_dir(std::string(to_string(engine)) + "-" + to_string(paper.variant), paper, *sty);
  INFO("paper in " << dir.string());
  const Compiled c = compile(dir, "paper", engine);
  INFO(c.output.substr(c.output.size() > 3000 ? c.output.size() - 3000 : 0));
  REQUIRE(c.ok);

  const auto q = qpdf_json(c.pdf);
  CHECK(metadata_stream_count(q) == 1);
  std::string check_out;
  CHECK(qpdf_check_clean(c.pdf, &check_out));
  INFO(check_out);

  const std::string url = "https://pith.science/pith/" + record.number().body;
  CHECK(info_value(c.pdf, "PithNumber") == record.number().to_string());
  CHECK(info_value(c.pdf, "PithURL") == url);
  CHECK(xmp_value(c.pdf, "Number") == record.number().to_string());
  CHECK(xmp_value(c.pdf, "ResolverUrl") == url);
  CHECK(xmp_value(c.pdf, "CanonicalRecord") == record.canonical_json);
  CHECK(xmp_value(c.pdf, "CanonicalSha256") == record.canonical_sha256);
  CHECK(xmp_value(c.pdf, "ReceiptSignature") == record.receipt_signature_b64);
  CHECK(xmp_value(c.pdf, "KeyId") == record.key_id);
  CHECK(xmp_value(c.pdf, "KeyFingerprint") == record.key_fingerprint);
  const auto bundle = detached(c.pdf, "pith-bundle.json");
  REQUIRE(bundle);
  CHECK(*bundle == record.document_bytes);
  check_badge_between_title_and_abstract(c.pdf, url);
  // pith-check verifies the PDF from what pith.sty put in it, offline.
  const auto checked = pith_check_offline(c.pdf);
  INFO(checked.out);
  CHECK(checked.status == 0);
  if (paper.variant == Variant::hyperxmp) {
    // hyperxmp's own properties survive next to ours.
    CHECK(run("exiftool -q -q -b -XMP-dc:Title " + quote(c.pdf) + " 2>&1").out == paper.title);
  }
}

const std::vector<PackageOptionSet>& package_option_sets() {
  static const std::vector<PackageOptionSet> sets = {
      {"color-dvipsnames",
       "\\usepackage[usenames,dvipsnames]{color}\n\\usepackage[colorlinks,linkcolor=blue,citecolor=OliveGreen]{hyperref}\n",
       "\\hypersetup{urlcolor=RoyalBlue,pdfauthor={Ada Author}}\n"},
      {"xcolor-table",
       "\\usepackage[table,dvipsnames]{xcolor}\n\\usepackage{graphicx}\n\\usepackage[T1]{fontenc}\n"
       "\\usepackage[hidelinks,pdfusetitle,bookmarksnumbered]{hyperref}\n",
       "\\hypersetup{pdfkeywords={pith},colorlinks=true,linkcolor=Maroon}\n\\rowcolors{1}{gray!10}{white}\n"},
  };
  return sets;
}

void check_every_variant(Engine engine) {
  for (const Variant variant : {Variant::plain, Variant::hyperref_before, Variant::hyperref_after, Variant::hyperxmp,
                                Variant::document_metadata, Variant::document_metadata_hyperref}) {
    DYNAMIC_SECTION(to_string(engine) << ": " << to_string(variant)) {
      Paper paper;
      paper.variant = variant;
      check_generated_sty_pdf(engine, paper, fixture_record());
    }
  }
}

void check_no_option_clash(Engine engine) {
  for (const auto& set : package_option_sets()) {
    for (const bool pith_first : {true, false}) {
      INFO(to_string(engine) << ", " << set.name << ", pith loaded " << (pith_first ? "first" : "last"));
      Paper paper;
      (pith_first ? paper.extra_preamble : paper.preamble_before_pith) = set.packages;
      paper.extra_preamble += set.after_all;
      check_generated_sty_pdf(engine, paper, fixture_record());
    }
  }
}

}  // namespace pith::test
