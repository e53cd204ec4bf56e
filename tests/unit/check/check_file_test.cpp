// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/check/file.hpp"
#include "pith/check/pdf.hpp"
#include "pith/base/exit_codes.hpp"
#include "support/pdf_samples.hpp"
#include "support/test_data.hpp"
#include "support/test_signer.hpp"

#include <catch2/catch.hpp>

using pith::Verdict;
using namespace pith::test;

TEST_CASE("check_registry_file: kinds by content, errors for the unreadable", "[check_file]") {
  const auto trust = pith::registry::TrustStore::with_pinned_key();
  const auto bundle = pith::check::check_registry_file(data_path("JFLLIOJUI2M3KX3FLLGP4N2V65.bundle.json"), trust).report;
  CHECK(bundle.verdict() == Verdict::verified);
  CHECK(bundle.input_kind == "bundle");
  CHECK(pith::exit_code_for(bundle.verdict()) == pith::exit_code::ok);

  const auto dir = fresh_temp_dir("check");
  write_file(dir / "renamed.pdf", read_data("JFLLIOJUI2M3KX3FLLGP4N2V65.bundle.json"));
  CHECK(pith::check::check_registry_file(dir / "renamed.pdf", trust).report.verdict() == Verdict::verified);

  const auto missing = pith::check::check_registry_file(dir / "missing.json", trust).report;
  CHECK(missing.verdict() == Verdict::error);
  REQUIRE(missing.error.has_value());
  CHECK(missing.input == (dir / "missing.json").string());
  CHECK(pith::exit_code_for(missing.verdict()) == pith::exit_code::usage_or_io);

  CHECK(pith::check::check_registry_file(dir, trust).report.verdict() == Verdict::error);

  write_file(dir / "big.json", std::string(pith::check::max_registry_file_bytes + 10, ' '));
  const auto big = pith::check::check_registry_file(dir / "big.json", trust).report;
  CHECK(big.verdict() == Verdict::error);
  CHECK(big.error->message.find("larger than") != std::string::npos);

  write_file(dir / "key.json", read_data("pith-signing-key.json"));
  CHECK(pith::check::check_registry_file(dir / "key.json", trust).report.verdict() == Verdict::error);

  const auto record = pith::check::check_registry_file(data_path("WXNI57C2SJ24QK62DB7DTUREA3.canonical_record.json"), trust).report;
  CHECK(record.verdict() == Verdict::unverifiable);
  CHECK(pith::exit_code_for(record.verdict()) == pith::exit_code::unverifiable);
  std::filesystem::remove_all(dir);
}

TEST_CASE("check_bytes: the same dispatch for an input in memory, named as given", "[check_file]") {
  const auto trust = pith::registry::TrustStore::with_pinned_key();
  const auto bundle = pith::check::check_bytes(read_data("JFLLIOJUI2M3KX3FLLGP4N2V65.bundle.json"), "a.tar:b.json", trust);
  CHECK(bundle.report.verdict() == Verdict::verified);
  CHECK(bundle.report.input == "a.tar:b.json");

  const auto junk = pith::check::check_bytes("GIF89a....", "upload", trust).report;
  CHECK(junk.verdict() == Verdict::error);
  CHECK(junk.input == "upload");

  const auto pdf = pith::test::sample_pdf(pith::test::SamplePdf::classic);
  REQUIRE(pdf.has_value());  // make test installs TeX Live and qpdf
  const std::string bytes = read_file(*pdf);
  const auto from_file = pith::check::check_file(*pdf, trust).report;
  // Read in a child and judged here, and the whole check in this process.
  const std::vector<pith::Report> in_memory_reports{pith::check::check_bytes(bytes, "member.pdf", trust).report,
                                                    pith::check::check_pdf_bytes(bytes, trust, "member.pdf").report};
  for (const auto& in_memory : in_memory_reports) {
    CHECK(in_memory.input == "member.pdf");
    CHECK(in_memory.verdict() == from_file.verdict());
    CHECK(in_memory.input_kind == from_file.input_kind);
  }
}
