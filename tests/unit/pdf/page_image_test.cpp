// SPDX-License-Identifier: GPL-3.0-or-later
// pith-stamp's last check before it keeps a file: page 1 drawn by poppler
// before and after the update is the same picture, apart from the badge
// (pdf/page_image.hpp, stamp/examine.hpp).
#include "pith/base/crypto.hpp"
#include "pith/pdf/extract.hpp"
#include "pith/pdf/page_image.hpp"
#include "pith/pdf/reader.hpp"
#include "pith/pdf/stamp.hpp"
#include "pith/pdf/update.hpp"
#include "pith/registry/trust_store.hpp"
#include "pith/stamp/examine.hpp"
#include "support/pdf_samples.hpp"
#include "support/records.hpp"

#include <catch2/catch.hpp>

#include <podofo/base/PdfName.h>

#include <cstdio>
#include <filesystem>
#include <optional>

using pith::pdf::page_check_dpi;
using pith::pdf::page_one_fingerprint;
using pith::pdf::Reader;
using pith::test::fixture_record;
using pith::test::quote;
using pith::test::require_sample;
using pith::test::SamplePdf;
namespace fs = std::filesystem;

namespace {

pith::pdf::StampPlan badge_plan(const std::string& original) {
  auto reader = Reader::open(original, "sample.pdf");
  REQUIRE(reader);
  const auto metadata = pith::pdf::read_pdf_metadata(*reader);
  const auto extraction = pith::pdf::extract_pith_numbers(metadata);
  REQUIRE(extraction);
  pith::pdf::StampOptions options;
  options.badge = true;
  auto plan = pith::pdf::plan_stamp(*reader, metadata, *extraction, fixture_record(), options);
  REQUIRE(plan);
  REQUIRE(plan->outcome == pith::pdf::StampOutcome::stamped);
  REQUIRE(plan->badge_rect);
  return *plan;
}

// An update that gives page 1 a new content stream: a black square.
std::string repaint_page_one(const std::string& original) {
  auto reader = Reader::open(original, "sample.pdf");
  REQUIRE(reader);
  auto page = reader->first_page();
  REQUIRE(page);
  const pith::pdf::ObjectId content{reader->size(), 0};
  PoDoFo::PdfDictionary dict = page->dictionary;
  dict.AddKey(PoDoFo::PdfName("Contents"), PoDoFo::PdfObject(PoDoFo::PdfReference(content.number, 0)));
  std::vector<pith::pdf::UpdateObject> objects{
      {page->id, PoDoFo::PdfObject(dict), std::nullopt},
      {content, PoDoFo::PdfObject(PoDoFo::PdfDictionary()), std::string("0 g 100 100 200 200 re f")}};
  auto update = pith::pdf::build_incremental_update(*reader, objects, {*reader->root_id(), reader->info_id()});
  REQUIRE(update);
  return original + *update;
}

// Page 1 as poppler's own pdftoppm draws it with the check's settings (36
// dpi, grey, no anti-aliasing), as a fingerprint: the PGM's pixels, row by row.
std::optional<pith::pdf::PageFingerprint> pdftoppm_fingerprint(const fs::path& pdf) {
  const fs::path out = pith::test::fresh_temp_dir("page-image") / "pdftoppm";
  if (pith::test::run("pdftoppm -r 36 -gray -aa no -aaVector no -f 1 -l 1 -singlefile " + quote(pdf) + " " +
                      quote(out)).status != 0)
    return std::nullopt;
  const std::string pgm = pith::test::read_file(out.string() + ".pgm");
  int width = 0, height = 0, maxval = 0, header = 0;
  if (std::sscanf(pgm.c_str(), "P5 %d %d %d%n", &width, &height, &maxval, &header) != 3 || maxval != 255) return std::nullopt;
  const std::string pixels = pgm.substr(static_cast<std::size_t>(header) + 1);  // one whitespace after maxval
  if (pixels.size() != static_cast<std::size_t>(width) * static_cast<std::size_t>(height)) return std::nullopt;
  return pith::pdf::PageFingerprint{width, height, pith::sha256_hex(pixels)};
}

}  // namespace

TEST_CASE("page image: a stamp draws page 1 as before, apart from the badge", "[page_image]") {
  for (auto kind : {SamplePdf::pdflatex, SamplePdf::classic, SamplePdf::ghostscript, SamplePdf::xelatex}) {
    CAPTURE(static_cast<int>(kind));
    const std::string original = require_sample(kind);
    const auto plan = badge_plan(original);
    const std::string stamped = original + plan.update;
    const auto before = page_one_fingerprint(original, page_check_dpi, plan.badge_rect);
    REQUIRE(before);
    CHECK(before->width > 250);  // US Letter or A4 at 36 dpi: 306 or 298 pixels
    CHECK(page_one_fingerprint(stamped, page_check_dpi, plan.badge_rect) == before);
    // The badge is drawn: without the blank the pictures differ.
    CHECK(page_one_fingerprint(original, page_check_dpi, std::nullopt) !=
          page_one_fingerprint(stamped, page_check_dpi, std::nullopt));
  }
}

TEST_CASE("page image: page 1 is drawn as poppler's pdftoppm draws it (36 dpi, grey, no anti-aliasing)", "[page_image]") {
  for (auto kind : {SamplePdf::pdflatex, SamplePdf::classic, SamplePdf::ghostscript, SamplePdf::xelatex}) {
    CAPTURE(static_cast<int>(kind));
    const auto path = pith::test::sample_pdf(kind);
    REQUIRE(path);
    const auto ours = page_one_fingerprint(pith::test::read_file(*path), page_check_dpi, std::nullopt);
    REQUIRE(ours);
    CHECK(ours == pdftoppm_fingerprint(*path));
  }
}

TEST_CASE("page image: the badge's rectangle is found on a page turned by /Rotate", "[page_image]") {
  const auto classic = pith::test::sample_pdf(SamplePdf::classic);
  REQUIRE(classic);
  for (const char* angle : {"90", "180", "270"}) {
    CAPTURE(angle);
    const fs::path turned = pith::test::fresh_temp_dir("page-image") / (std::string("turned-") + angle + ".pdf");
    REQUIRE(pith::test::run("qpdf --rotate=+" + std::string(angle) + ":1 " + quote(*classic) + " " + quote(turned))
                .status == 0);
    const std::string original = pith::test::read_file(turned);
    const auto plan = badge_plan(original);
    const std::string stamped = original + plan.update;
    CHECK(page_one_fingerprint(stamped, page_check_dpi, plan.badge_rect) ==
          page_one_fingerprint(original, page_check_dpi, plan.badge_rect));
    CHECK(page_one_fingerprint(stamped, page_check_dpi, std::nullopt) !=
          page_one_fingerprint(original, page_check_dpi, std::nullopt));
  }
}

TEST_CASE("page image: an update that changes page 1 is seen; what poppler cannot open has none", "[page_image]") {
  const std::string original = require_sample(SamplePdf::classic);
  const auto before = page_one_fingerprint(original, page_check_dpi, std::nullopt);
  REQUIRE(before);
  CHECK(page_one_fingerprint(repaint_page_one(original), page_check_dpi, std::nullopt) != before);
  CHECK_FALSE(page_one_fingerprint("not a PDF at all", page_check_dpi, std::nullopt));
}

TEST_CASE("page image: pith-stamp's written check keeps nothing whose page 1 looks different", "[page_image]") {
  const std::string original = require_sample(SamplePdf::classic);
  const std::string repainted = repaint_page_one(original);
  pith::stamp::ExaminedPdf examined;
  pith::pdf::StampPlan plan;
  plan.original_length = original.size();
  plan.update = repainted.substr(original.size());
  examined.plan = plan;
  auto reader = Reader::open(original, "sample.pdf");
  REQUIRE(reader);
  examined.pages = reader->page_count().value();
  examined.page_one = page_one_fingerprint(original, page_check_dpi, std::nullopt);
  REQUIRE(examined.page_one);
  auto got = pith::stamp::check_stamped_bytes(repainted, "paper.pdf", examined);
  REQUIRE_FALSE(got);
  CHECK(got.error().message.find("page 1 would look different") != std::string::npos);
  CHECK(got.error().kind == pith::ErrorKind::internal);

  // The same update with the original's own page 1 passes.
  const auto plan_ok = badge_plan(original);
  examined.plan = plan_ok;
  examined.page_one = page_one_fingerprint(original, page_check_dpi, plan_ok.badge_rect);
  const std::string written = original + plan_ok.update;
  CHECK(pith::stamp::check_stamped_bytes(written, "paper.pdf", examined));

  // A picture of the original that its drawing child got otherwise (near its
  // memory limit) is not a change: the original is drawn again beside the
  // stamped file, and they agree.
  examined.page_one = page_one_fingerprint(repainted, page_check_dpi, plan_ok.badge_rect);
  REQUIRE(examined.page_one != page_one_fingerprint(original, page_check_dpi, plan_ok.badge_rect));
  CHECK(pith::stamp::check_stamped_bytes(written, "paper.pdf", examined));
}
