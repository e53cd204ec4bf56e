// SPDX-License-Identifier: GPL-3.0-or-later
// check_pdf_metadata end to end on PDF metadata as pith-stamp writes it,
// and the tampering cases of the check issue (no PDF parser needed: the
// metadata and the byte layout are built directly).
#include "pith/base/crypto.hpp"
#include "pith/check/pdf.hpp"
#include "pith/carrier/vocabulary.hpp"
#include "pith/registry/trust_store.hpp"
#include "pith/pdf/xmp.hpp"
#include "support/test_data.hpp"
#include "support/test_signer.hpp"

#include <catch2/catch.hpp>

using namespace pith;

namespace {

constexpr const char* fixture_title =
    "Layered gradient accumulation and modular pipeline parallelism: fast and efficient training of large "
    "language models";
constexpr const char* other_title = "Exploring the limits of Concurrency in ML Training on Google TPUs";

// Bytes shaped like a stamped PDF: the original revision, the pith update,
// optionally later revisions.
const std::string original = "%PDF-1.5\n% the paper\nxref\n0 1\ntrailer\n<<>>\nstartxref\n9\n%%EOF\n";
const std::string pith_update = "9 0 obj\n<< /Type /Metadata >>\nendobj\nxref\ntrailer\n<<>>\nstartxref\n77\n%%EOF\n";
const std::string later_update = "10 0 obj\n<<>>\nendobj\nxref\ntrailer\n<<>>\nstartxref\n140\n%%EOF\n";

registry::VerifiedRecord verified(const std::string& bytes, const registry::TrustStore& trust) {
  auto v = registry::verify_document(bytes, trust, "bundle");
  REQUIRE(v);
  REQUIRE_FALSE(v->report.has_failure());
  REQUIRE(v->record());
  return *v->record();
}

pith::carrier::PithProperties props_from(const registry::VerifiedRecord& r) {
  auto p = pith::carrier::pith_properties_of(r, "https://pith.science/pith/" + r.number().body, "pith-stamp test");
  p.original_sha256 = sha256_hex(original);
  p.original_length = original.size();
  return p;
}

struct Stamped {
  pdf::PdfMetadata metadata;
  std::string file;
};

Stamped stamp(const std::string& bundle, const registry::VerifiedRecord& r, const std::string& title,
              const pith::carrier::PithProperties& props) {
  Stamped s;
  auto packet = pdf::merge_pith_xmp("", props);
  REQUIRE(packet);
  s.metadata.xmp_packet = *packet;
  s.metadata.info_number = r.number().to_string();
  s.metadata.info_url = props.resolver_url;
  s.metadata.info_title = title;
  s.metadata.embedded_bundle = bundle;
  s.file = original + pith_update;
  return s;
}

struct Fixture {
  registry::TrustStore trust = registry::TrustStore::with_pinned_key();
  std::string bundle = test::read_data("JFLLIOJUI2M3KX3FLLGP4N2V65.bundle.json");
  registry::VerifiedRecord record = verified(bundle, trust);
  Stamped stamped() const { return stamp(bundle, record, fixture_title, props_from(record)); }
};

// The glyph check's reader, standing in for OCR: page 1's title lines are
// drawn as `title` (the text layer's claim, unless a test says otherwise).
check::DrawnReader drawn_as(std::string title) {
  return [title](const std::vector<pdf::Box>&, pdf::ReadMode) -> Result<std::vector<std::string>> {
    return std::vector<std::string>{title};
  };
}

// Page 1 as a reader sees it: the paper's title (what binds the record:
// its title metadata is only a hint).
check::PdfProbes showing_title() {
  check::PdfProbes probes;
  probes.page_text = [] { return pdf::PageText::all_seen({fixture_title, "Joel Lamy-Poirier"}); };
  probes.read_drawn = drawn_as(fixture_title);
  return probes;
}

Report check_stamped(const Stamped& s, const registry::TrustStore& trust) {
  return check::check_pdf_metadata(s.file, s.metadata, trust, "paper.pdf", showing_title()).report;
}

CheckStatus status_of(const Report& r, std::string_view code) {
  const Check* c = r.find(code);
  INFO(code);
  REQUIRE(c != nullptr);
  return c->status;
}

}  // namespace

TEST_CASE("title metadata alone never binds: metadata-only is unbound, with the reason", "[pdf-check]") {
  // Another paper whose Info /Title was set to the record's (exiftool
  // -Title=..., one line): the record is genuine, the page is not its paper.
  const Fixture f;
  check::PdfProbes probes;
  probes.page_text = [] { return pdf::PageText::all_seen({"Cats and their discontents", "A. Forger"}); };
  probes.read_drawn = drawn_as("Cats and their discontents");
  const auto s = f.stamped();
  const auto report = check::check_pdf_metadata(s.file, s.metadata, f.trust, "paper.pdf", probes).report;
  INFO(report.to_text());
  CHECK(report.verdict() == Verdict::unbound);
  CHECK(exit_code_for(report.verdict()) == 4);
  REQUIRE(report.find("pdf.title.match"));
  CHECK_FALSE(report.find("pdf.title.match")->binds_content);
  CHECK(report.find("pdf.title.match")->detail.find("a hint, not a binding") != std::string::npos);
  CHECK(status_of(report, "pdf.title.visible_not_found") == CheckStatus::warn);
  CHECK(check::bindings_text(report).find("title metadata alone never binds") != std::string::npos);
}

TEST_CASE("a stamped PDF with the registry's bundle verifies", "[pdf-check]") {
  const Fixture f;
  const auto report = check_stamped(f.stamped(), f.trust);
  INFO(report.to_text());
  CHECK(report.verdict() == Verdict::verified);
  CHECK(report.pith_number == "pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65");
  CHECK(report.input_kind == "pdf");
  CHECK(status_of(report, "pdf.number.found") == CheckStatus::pass);
  CHECK(status_of(report, "pdf.record.source") == CheckStatus::pass);
  CHECK(status_of(report, "pdf.number.matches_record") == CheckStatus::pass);
  CHECK(status_of(report, "pdf.metadata.matches_record") == CheckStatus::pass);
  CHECK(status_of(report, "pdf.title.match") == CheckStatus::pass);
  CHECK(status_of(report, "pdf.bytes.prefix_intact") == CheckStatus::pass);
  CHECK(status_of(report, "pdf.bytes.later_revisions") == CheckStatus::pass);
  CHECK(report.extra["pith_sources"].size() == 5);  // XMP number + URL, Info number + URL, bundle
}

TEST_CASE("tampering: an edit to the embedded bundle fails", "[pdf-check][tamper]") {
  const Fixture f;
  auto s = f.stamped();
  const auto at = s.metadata.embedded_bundle->find("2026-08-09");
  REQUIRE(at != std::string::npos);
  (*s.metadata.embedded_bundle)[at + 3] = '7';  // a signed date, one digit
  const auto report = check_stamped(s, f.trust);
  INFO(report.to_text());
  CHECK(report.verdict() == Verdict::failed);
}

TEST_CASE("tampering: an edit to the XMP record fails", "[pdf-check][tamper]") {
  const Fixture f;
  auto props = props_from(f.record);
  props.canonical_record.replace(props.canonical_record.find("cs."), 3, "xx.");
  const auto report = check_stamped(stamp(f.bundle, f.record, fixture_title, props), f.trust);
  INFO(report.to_text());
  CHECK(report.verdict() == Verdict::failed);
  CHECK(status_of(report, "pdf.metadata.matches_record") == CheckStatus::fail);
}

TEST_CASE("tampering: another number in the Info dictionary only is a conflict", "[pdf-check][tamper]") {
  const Fixture f;
  auto s = f.stamped();
  s.metadata.info_number = "pith:2020:WXNI57C2SJ24QK62DB7DTUREA3";
  const auto report = check_stamped(s, f.trust);
  INFO(report.to_text());
  CHECK(report.verdict() == Verdict::failed);
  const Check* c = report.find("pdf.number.conflict");
  REQUIRE(c != nullptr);
  CHECK(c->detail.find("Info /PithNumber names pith:2020:WXNI57C2SJ24QK62DB7DTUREA3") != std::string::npos);
}

TEST_CASE("tampering: bytes changed inside the original prefix fail", "[pdf-check][tamper]") {
  const Fixture f;
  auto s = f.stamped();
  s.file[12] = 'X';
  const auto report = check_stamped(s, f.trust);
  CHECK(report.verdict() == Verdict::failed);
  CHECK(status_of(report, "pdf.bytes.prefix_broken") == CheckStatus::fail);
}

TEST_CASE("a later incremental edit is a warning with its count", "[pdf-check][tamper]") {
  const Fixture f;
  auto s = f.stamped();
  s.file += later_update + later_update;
  const auto report = check_stamped(s, f.trust);
  CHECK(report.verdict() == Verdict::verified);
  CHECK(status_of(report, "pdf.bytes.later_revisions") == CheckStatus::warn);
  CHECK(report.find("pdf.bytes.later_revisions")->detail.find("2 later revision") == 0);
}

TEST_CASE("tampering: metadata copied into another paper is a title mismatch", "[pdf-check][tamper]") {
  // The other paper's page 1 shows its own title, and its metadata says so.
  const Fixture f;
  check::PdfProbes probes;
  probes.page_text = [] { return pdf::PageText::all_seen({other_title, "A. Forger"}); };
  probes.read_drawn = drawn_as(other_title);
  const auto s = stamp(f.bundle, f.record, other_title, props_from(f.record));
  const auto report = check::check_pdf_metadata(s.file, s.metadata, f.trust, "paper.pdf", probes).report;
  INFO(report.to_text());
  CHECK(report.verdict() == Verdict::failed);
  CHECK(status_of(report, "pdf.title.mismatch") == CheckStatus::fail);
}

TEST_CASE("a wrong metadata title on a paper whose page 1 shows the record's title is a warning", "[pdf-check]") {
  // acmart writes `\title{\vspace{-10pt}Site-to-Site...}` into /Title as
  // "-10ptSite-to-Site...": the producer's metadata is wrong, the paper a
  // reader sees is the record's. Metadata is a hint: it cannot fail it.
  const Fixture f;
  const auto report = check_stamped(stamp(f.bundle, f.record, "-10pt" + std::string(fixture_title), props_from(f.record)), f.trust);
  INFO(report.to_text());
  CHECK(report.verdict() == Verdict::verified);
  CHECK(status_of(report, "pdf.title.mismatch") == CheckStatus::warn);
  CHECK(report.find("pdf.title.mismatch")->detail.find("page 1 shows the record's title") != std::string::npos);
  CHECK(status_of(report, "pdf.title.visible_match") == CheckStatus::pass);
}

TEST_CASE("a PDF with no pith data is 'no number'", "[pdf-check]") {
  pdf::PdfMetadata m;
  m.info_title = fixture_title;
  const auto checked = check::check_pdf_metadata("%PDF-1.5\n", m, registry::TrustStore::with_pinned_key(), "plain.pdf");
  CHECK(checked.report.verdict() == Verdict::not_found);
  CHECK(exit_code_for(checked.report.verdict()) == 3);
  CHECK_FALSE(checked.carried);
}

TEST_CASE("the copy a PDF carries is handed on typed: the bundle's events, or the XMP record alone", "[pdf-check]") {
  const Fixture f;
  auto s = f.stamped();
  const auto with_bundle = check::check_pdf_metadata(s.file, s.metadata, f.trust, "paper.pdf");
  REQUIRE(with_bundle.carried);
  CHECK(with_bundle.carried->kind == registry::DocumentKind::bundle);
  CHECK(with_bundle.carried->event_ids == check::applied_event_ids(f.record));
  CHECK_FALSE(with_bundle.carried->event_ids.empty());
  CHECK(with_bundle.to_json()["details"]["carried"] == with_bundle.carried->to_json());

  s.metadata.embedded_bundle.reset();
  const auto xmp_only = check::check_pdf_metadata(s.file, s.metadata, f.trust, "paper.pdf", showing_title());
  INFO(xmp_only.report.to_text());
  REQUIRE(xmp_only.carried);
  CHECK(xmp_only.carried->kind == registry::DocumentKind::resolver_answer);
  CHECK(xmp_only.carried->event_ids.empty());
  CHECK_FALSE(xmp_only.carried->completeness);
  // The record and its receipt, checked as a resolver answer holding them would be.
  for (const char* code : {"record.hash.match", "record.number.match", "receipt.hash.match", "receipt.signature.valid"}) {
    CHECK(status_of(xmp_only.report, code) == CheckStatus::pass);
  }
  CHECK(xmp_only.report.verdict() == Verdict::verified);
}

TEST_CASE("without an embedded bundle, the XMP record and receipt are verified", "[pdf-check]") {
  const Fixture f;
  auto s = f.stamped();
  s.metadata.embedded_bundle.reset();
  const auto report = check_stamped(s, f.trust);
  INFO(report.to_text());
  CHECK(report.verdict() == Verdict::verified);
  const Check* source = report.find("pdf.record.source");
  REQUIRE(source != nullptr);
  CHECK(source->detail.find("XMP pith:canonicalRecord") == 0);

  SECTION("a forged receipt signature fails") {
    auto props = props_from(f.record);
    auto& sig = props.receipt_signature;
    sig[5] = sig[5] == 'A' ? 'B' : 'A';
    auto forged = stamp(f.bundle, f.record, fixture_title, props);
    forged.metadata.embedded_bundle.reset();
    const auto forged_report = check_stamped(forged, f.trust);
    INFO(forged_report.to_text());
    CHECK(forged_report.verdict() == Verdict::failed);
  }
  SECTION("a record with duplicate keys is refused") {
    auto props = props_from(f.record);
    props.canonical_record.insert(1, R"("metadata":{},)");
    auto dup = stamp(f.bundle, f.record, fixture_title, props);
    dup.metadata.embedded_bundle.reset();
    const auto dup_report = check_stamped(dup, f.trust);
    CHECK(dup_report.verdict() == Verdict::failed);
    CHECK(status_of(dup_report, "pdf.record.source") == CheckStatus::fail);
  }
}

TEST_CASE("a bundle signed by a key outside the trust store is unverifiable", "[pdf-check]") {
  test::RecordSpec spec;
  spec.title = "A Test Paper About Stamps";
  const auto bundle = test::to_bytes(test::make_signed_bundle(spec));
  const auto trusted = test::test_trust_store();
  const auto record = verified(bundle, trusted);
  const auto s = stamp(bundle, record, spec.title, props_from(record));

  check::PdfProbes probes;
  probes.page_text = [&] { return pdf::PageText::all_seen({spec.title}); };
  probes.read_drawn = drawn_as(spec.title);
  const auto good = check::check_pdf_metadata(s.file, s.metadata, trusted, "paper.pdf", probes).report;
  INFO(good.to_text());
  CHECK(good.verdict() == Verdict::verified);
  CHECK(status_of(good, "pdf.title.match") == CheckStatus::pass);

  const auto pinned_only = check_stamped(s, registry::TrustStore::with_pinned_key());
  INFO(pinned_only.to_text());
  CHECK(pinned_only.verdict() == Verdict::unverifiable);
}
