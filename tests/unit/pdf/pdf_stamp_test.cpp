// SPDX-License-Identifier: GPL-3.0-or-later
// Stamping real PDFs, checked by readers we did not write: qpdf, poppler
// (pdfinfo, pdfdetach) and exiftool must all see what we wrote.
#include "pith/pdf/extract.hpp"
#include "pith/pdf/reader.hpp"
#include "pith/check/pdf.hpp"
#include "pith/pdf/extract.hpp"
#include "pith/pdf/page_fingerprint.hpp"
#include "pith/pdf/stamp.hpp"
#include "pith/registry/trust_store.hpp"
#include "support/pdf_samples.hpp"
#include "support/records.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>

using pith::pdf::Reader;
using pith::pdf::StampOutcome;
using pith::test::fixture_record;
using pith::test::quote;
using pith::test::SamplePdf;
namespace fs = std::filesystem;

namespace {

// plan_stamp over the PDF's metadata, read once as pith-stamp does.
pith::Result<pith::pdf::StampPlan> plan_stamp_on(const Reader& reader, const pith::registry::VerifiedRecord& record,
                                                 const pith::pdf::StampOptions& options) {
  const auto metadata = pith::pdf::read_pdf_metadata(reader);
  const auto extraction = pith::pdf::extract_pith_numbers(metadata);
  if (!extraction) return std::unexpected(extraction.error());
  return pith::pdf::plan_stamp(reader, metadata, *extraction, record, options);
}

struct Stamped {
  std::string original;
  std::string stamped;
  fs::path path;
};

Stamped stamp(SamplePdf kind, const pith::registry::VerifiedRecord& record, pith::pdf::StampOptions options = {}) {
  Stamped s;
  s.original = pith::test::require_sample(kind);
  auto reader = Reader::open(s.original, "sample.pdf");
  REQUIRE(reader);
  auto plan = plan_stamp_on(*reader, record, options);
  if (!plan) FAIL(plan.error().describe());
  REQUIRE(plan->outcome == StampOutcome::stamped);
  CHECK(plan->original_length == s.original.size());
  s.stamped = s.original + plan->update;
  s.path = pith::test::fresh_temp_dir("stamp") / "stamped.pdf";
  pith::test::write_file(s.path, s.stamped);
  return s;
}

}  // namespace

TEST_CASE("stamp: every producer's PDF reads back the same in qpdf, poppler and exiftool") {
  const auto record = fixture_record();
  for (auto kind : {SamplePdf::pdflatex, SamplePdf::classic, SamplePdf::object_streams, SamplePdf::linearized,
                    SamplePdf::hybrid, SamplePdf::ghostscript, SamplePdf::no_info, SamplePdf::with_xmp,
                    SamplePdf::attachments, SamplePdf::xelatex, SamplePdf::lualatex, SamplePdf::dvips,
                    SamplePdf::exiftool_updated}) {
    INFO("sample kind " << static_cast<int>(kind));
    pith::pdf::StampOptions options;
    options.badge = true;
    const Stamped s = stamp(kind, record, options);
    // The original is an exact prefix.
    CHECK(s.stamped.compare(0, s.original.size(), s.original) == 0);

    const auto qpdf = pith::test::run("qpdf --check " + quote(s.path) + " 2>&1");
    CHECK(qpdf.status == 0);
    INFO(qpdf.out);
    CHECK(qpdf.out.find("No syntax or stream encoding errors") != std::string::npos);

    const auto pdfinfo = pith::test::run("pdfinfo -meta " + quote(s.path) + " 2>&1");
    CHECK(pdfinfo.status == 0);
    CHECK(pdfinfo.out.find(record.number().to_string()) != std::string::npos);
    CHECK(pdfinfo.out.find("pith:canonicalSha256") != std::string::npos);

    const auto exiftool = pith::test::run("exiftool -XMP-pith:all -PDF:all " + quote(s.path) + " 2>&1");
    CHECK(exiftool.status == 0);
    CHECK(exiftool.out.find("Number") != std::string::npos);
    CHECK(exiftool.out.find(record.number().to_string()) != std::string::npos);
    CHECK(exiftool.out.find("Pith URL") != std::string::npos);

    const fs::path saved = s.path.parent_path() / "detached.json";
    CHECK(pith::test::run("pdfdetach -savefile pith-bundle.json -o " + quote(saved) + " " + quote(s.path) + " 2>&1")
              .status == 0);
    CHECK(pith::test::read_file(saved) == record.document_bytes);

    // Our own reader agrees, and a second stamp is a no-op.
    auto again = Reader::open(s.stamped, "stamped.pdf");
    REQUIRE(again);
    const auto meta = pith::pdf::read_pdf_metadata(*again);
    const auto found = pith::pdf::extract_pith_numbers(meta);
    REQUIRE(found);
    REQUIRE(found->xmp);
    CHECK(meta.info_number == record.number().to_string());
    CHECK(found->xmp->number == record.number().to_string());
    CHECK(meta.embedded_bundle == record.document_bytes);
    auto replan = plan_stamp_on(*again, record, options);
    REQUIRE(replan);
    CHECK(replan->outcome == StampOutcome::already_stamped);
    CHECK(replan->update.empty());
  }
}

TEST_CASE("stamp: existing XMP properties and attachments survive") {
  const auto record = fixture_record();
  {
    const Stamped s = stamp(SamplePdf::with_xmp, record);
    const auto exiftool = pith::test::run("exiftool -XMP-dc:all " + quote(s.path) + " 2>&1");
    REQUIRE(exiftool.status == 0);
    CHECK(exiftool.out.find("An XMP titled paper") != std::string::npos);
    CHECK(exiftool.out.find("Ada Lovelace") != std::string::npos);
  }
  {
    const Stamped s = stamp(SamplePdf::attachments, record);
    const auto pdfdetach = pith::test::run("pdfdetach -list " + quote(s.path) + " 2>&1");
    REQUIRE(pdfdetach.status == 0);
    CHECK(pdfdetach.out.find("3 embedded files") != std::string::npos);
    CHECK(pdfdetach.out.find("data.csv") != std::string::npos);
    CHECK(pdfdetach.out.find("notes.txt") != std::string::npos);
    CHECK(pdfdetach.out.find("pith-bundle.json") != std::string::npos);
  }
}

TEST_CASE("stamp: Info keeps its other keys and gains no /ModDate or /Producer") {
  const auto record = fixture_record();
  const Stamped s = stamp(SamplePdf::pdflatex, record);
  auto before = Reader::open(s.original, "before.pdf");
  auto after = Reader::open(s.stamped, "after.pdf");
  REQUIRE(before);
  REQUIRE(after);
  auto bi = before->info();
  auto ai = after->info();
  REQUIRE(bi);
  REQUIRE(ai);
  REQUIRE(*bi);
  REQUIRE(*ai);
  for (const auto& [k, v] : (*bi)->GetKeys()) {
    INFO(k.GetName());
    const auto* w = (*ai)->GetKey(k);
    REQUIRE(w);
    std::string a, b;
    v->ToString(a);
    w->ToString(b);
    CHECK(a == b);
  }
  CHECK((*ai)->GetKeys().size() == (*bi)->GetKeys().size() + 2);
  // One more cross-reference section, starting after the original bytes.
  CHECK(after->section_count() == before->section_count() + 1);
  CHECK(after->section_offsets().front() >= s.original.size());
  CHECK(after->section_offsets()[1] == before->startxref());
  // /ID[0] is the document's identity: kept.
  CHECK(after->file_id()->first == before->file_id()->first);
  CHECK(after->file_id()->second != before->file_id()->second);
}

TEST_CASE("stamp: deterministic with SOURCE_DATE_EPOCH") {
  const auto record = fixture_record();
  pith::pdf::StampOptions options;
  options.source_date_epoch = 1700000000;
  options.badge = true;
  const Stamped a = stamp(SamplePdf::pdflatex, record, options);
  const Stamped b = stamp(SamplePdf::pdflatex, record, options);
  CHECK(a.stamped == b.stamped);
  CHECK(a.stamped.find("/ModDate (D:20231114221320Z)") != std::string::npos);
  options.source_date_epoch.reset();
  const Stamped c = stamp(SamplePdf::pdflatex, record, options);
  const std::string update = c.stamped.substr(c.original.size());
  const auto params = update.find("/Params");
  REQUIRE(params != std::string::npos);
  CHECK(update.substr(params, update.find(">>", params) - params).find("/ModDate") == std::string::npos);
}

TEST_CASE("stamp: the record's number in another spelling is no conflict; another year is") {
  const auto record = fixture_record();
  // What plain pith.sty writes from \pithnumber{BODY}: the number without its year.
  auto body_only = record;
  body_only.pith_number = pith::registry::parse_pith_number("pith:JFLLIOJUI2M3KX3FLLGP4N2V65").value();
  const Stamped s = stamp(SamplePdf::classic, body_only);
  auto reader = Reader::open(s.stamped, "body-only.pdf");
  REQUIRE(reader);
  auto plan = plan_stamp_on(*reader, record, {});
  REQUIRE(plan);
  CHECK(plan->outcome == StampOutcome::stamped);
  CHECK(plan->previous_number == body_only.number().to_string());

  auto other_year = record;
  other_year.pith_number = pith::registry::parse_pith_number("pith:2020:JFLLIOJUI2M3KX3FLLGP4N2V65").value();
  const Stamped y = stamp(SamplePdf::classic, other_year);
  auto year_reader = Reader::open(y.stamped, "other-year.pdf");
  REQUIRE(year_reader);
  auto conflict = plan_stamp_on(*year_reader, record, {});
  REQUIRE(conflict);
  CHECK(conflict->outcome == StampOutcome::conflict);
  CHECK(conflict->previous_number == other_year.number().to_string());
}

TEST_CASE("stamp: a different number is a conflict unless forced") {
  const auto record = fixture_record();
  const Stamped s = stamp(SamplePdf::classic, record);
  auto other = record;
  other.pith_number = pith::registry::parse_pith_number("pith:2020:WXNI57C2SJ24QK62DB7DTUREA3").value();
  other.canonical_sha256 = "b5da8efc5a9275c82bda187e39d22406cb4d4359bb8101b2b8200a6c524a5b91";
  other.document_bytes = "{\"other\":true}";
  auto reader = Reader::open(s.stamped, "stamped.pdf");
  REQUIRE(reader);
  auto plan = plan_stamp_on(*reader, other, {});
  REQUIRE(plan);
  CHECK(plan->outcome == StampOutcome::conflict);
  CHECK(plan->previous_number == record.number().to_string());
  CHECK(plan->update.empty());

  pith::pdf::StampOptions force;
  force.force = true;
  auto forced = plan_stamp_on(*reader, other, force);
  REQUIRE(forced);
  REQUIRE(forced->outcome == StampOutcome::stamped);
  const std::string restamped = s.stamped + forced->update;
  auto r2 = Reader::open(restamped, "restamped.pdf");
  REQUIRE(r2);
  const auto meta = pith::pdf::read_pdf_metadata(*r2);
  const auto found = pith::pdf::extract_pith_numbers(meta);
  REQUIRE(found);
  REQUIRE(found->xmp);
  CHECK(meta.info_number == other.number().to_string());
  CHECK(found->xmp->number == other.number().to_string());
  CHECK(meta.embedded_bundle == other.document_bytes);
  auto files = r2->embedded_files();
  REQUIRE(files);
  CHECK(files->size() == 1);  // the old pith-bundle.json was replaced, not duplicated
  const fs::path p = pith::test::fresh_temp_dir("force") / "restamped.pdf";
  pith::test::write_file(p, restamped);
  CHECK(pith::test::run("qpdf --check " + quote(p) + " >/dev/null").status == 0);
}

TEST_CASE("stamp: the badge is skipped when page 1 already links to this number, replaced under --force") {
  const auto record = fixture_record();
  pith::pdf::StampOptions options;
  options.badge = true;
  const Stamped s = stamp(SamplePdf::pdflatex, record, options);
  CHECK(s.stamped.find("/Subtype /Link") != std::string::npos);
  // The same number with a refreshed bundle: the existing link means no second badge.
  auto refreshed = record;
  refreshed.document_bytes += " ";
  auto reader = Reader::open(s.stamped, "stamped.pdf");
  REQUIRE(reader);
  auto plan = plan_stamp_on(*reader, refreshed, options);
  REQUIRE(plan);
  REQUIRE(plan->outcome == StampOutcome::stamped);
  CHECK(plan->update.find("/Subtype /Link") == std::string::npos);
  REQUIRE_FALSE(plan->notes.empty());
  CHECK(plan->notes.front().find("badge skipped") != std::string::npos);

  // Another number under --force: our old badge goes, the new one comes, other links stay.
  auto other = record;
  other.pith_number = pith::registry::parse_pith_number("pith:2020:WXNI57C2SJ24QK62DB7DTUREA3").value();
  other.canonical_sha256 = "b5da8efc5a9275c82bda187e39d22406cb4d4359bb8101b2b8200a6c524a5b91";
  options.force = true;
  auto forced = plan_stamp_on(*reader, other, options);
  REQUIRE(forced);
  REQUIRE(forced->outcome == StampOutcome::stamped);
  const std::string restamped = s.stamped + forced->update;
  auto r2 = Reader::open(restamped, "restamped.pdf");
  REQUIRE(r2);
  auto page = r2->first_page();
  REQUIRE(page);
  auto annots = r2->page_annotations(*page);
  REQUIRE(annots);
  std::size_t to_old = 0, to_new = 0, others = 0;
  for (const auto& [id, a] : *annots) {
    const auto* action = a.GetKey(PoDoFo::PdfName("A"));
    const std::string uri = action ? action->GetDictionary().GetKey(PoDoFo::PdfName("URI"))->GetString().GetStringUtf8() : "";
    if (uri.ends_with("/pith/JFLLIOJUI2M3KX3FLLGP4N2V65")) ++to_old;
    else if (uri.ends_with("/pith/WXNI57C2SJ24QK62DB7DTUREA3")) ++to_new;
    else ++others;
  }
  CHECK(to_old == 0);
  CHECK(to_new == 1);
  CHECK(others >= 1);  // hyperref's \url link survives
}

// pith-stamp says early what the plan will be (stamp/examine.cpp), and
// fingerprints the pages with the badge alone before the one plan is made.
TEST_CASE("stamp: decide_stamp says what plan_stamp does; the badge alone reads on the pages as the whole update") {
  const auto record = fixture_record();
  const std::string original = pith::test::require_sample(SamplePdf::pdflatex);
  auto reader = Reader::open(original, "sample.pdf");
  REQUIRE(reader);
  const auto metadata = pith::pdf::read_pdf_metadata(*reader);
  const auto extraction = pith::pdf::extract_pith_numbers(metadata);
  REQUIRE(extraction);
  for (bool badge : {false, true}) {
    INFO("badge " << badge);
    pith::pdf::StampOptions options;
    options.badge = badge;
    auto decided = pith::pdf::decide_stamp(*reader, metadata, *extraction, record, options);
    auto plan = pith::pdf::plan_stamp(*reader, metadata, *extraction, record, options);
    REQUIRE(decided);
    REQUIRE(plan);
    CHECK(decided->outcome == plan->outcome);
    CHECK(decided->adds_badge == plan->adds_badge);
    CHECK(decided->adds_badge == badge);
    CHECK(decided->badge_rect == plan->badge_rect);
    CHECK(decided->original_length == plan->original_length);
    CHECK(decided->update.empty());
    auto alone = pith::pdf::badge_update(*reader, record, options);
    REQUIRE(alone);
    if (!badge) continue;
    CHECK(alone->find("/Subtype /Link") != std::string::npos);
    CHECK(alone->find("pith-bundle.json") == std::string::npos);
    const auto whole = pith::pdf::fingerprint_pages(original + plan->update);
    const auto with_badge = pith::pdf::fingerprint_pages(original + *alone);
    REQUIRE_FALSE(whole.sha256.empty());
    CHECK(with_badge.to_property() == whole.to_property());
    CHECK(pith::pdf::fingerprint_pages(original).sha256.front() != whole.sha256.front());  // the badge is read
  }
  // A PDF already stamped with this record: decided at once, nothing to add.
  auto stamped = Reader::open(original + pith::pdf::plan_stamp(*reader, metadata, *extraction, record, {})->update, "s.pdf");
  REQUIRE(stamped);
  const auto again_metadata = pith::pdf::read_pdf_metadata(*stamped);
  const auto again = pith::pdf::extract_pith_numbers(again_metadata);
  REQUIRE(again);
  auto decided = pith::pdf::decide_stamp(*stamped, again_metadata, *again, record, {});
  REQUIRE(decided);
  CHECK(decided->outcome == StampOutcome::already_stamped);
}

TEST_CASE("stamp then check: pith-check's extraction and checks accept what pith-stamp wrote") {
  const auto record = fixture_record();
  pith::pdf::StampOptions options;
  options.badge = true;
  for (auto kind : {SamplePdf::pdflatex, SamplePdf::classic, SamplePdf::with_xmp, SamplePdf::hybrid}) {
    INFO("sample kind " << static_cast<int>(kind));
    const Stamped s = stamp(kind, record, options);
    auto reader = Reader::open(s.stamped, "stamped.pdf");
    REQUIRE(reader);
    const pith::pdf::PdfMetadata metadata = pith::pdf::read_pdf_metadata(*reader);
    CHECK(metadata.read_problems.empty());
    CHECK(metadata.info_number == record.number().to_string());
    CHECK(metadata.embedded_bundle == record.document_bytes);
    REQUIRE(metadata.xmp_packet);
    bool badge = false;
    for (const auto& uri : metadata.link_uris) badge = badge || uri.ends_with("/pith/JFLLIOJUI2M3KX3FLLGP4N2V65");
    CHECK(badge);
    auto extraction = pith::pdf::extract_pith_numbers(metadata);
    REQUIRE(extraction);
    CHECK(extraction->number().value().to_string() == record.number().to_string());
    CHECK(extraction->conflicts().empty());
    const pith::Report report =
        pith::check::check_pdf_metadata(s.stamped, metadata, pith::registry::TrustStore::with_pinned_key(), "stamped.pdf")
            .report;
    INFO(report.to_text(false));
    // The samples' titles are not the fixture paper's: only title binding may fail.
    for (const auto& check : report.checks())
      if (check.status == pith::CheckStatus::fail) CHECK(check.code.starts_with("pdf.title."));
    CHECK(report.find("pdf.bytes.prefix_intact"));
    CHECK(report.find("pdf.metadata.matches_record"));
    CHECK(report.find("pdf.number.matches_record"));
  }
}
