// SPDX-License-Identifier: GPL-3.0-or-later
// A lying child cannot produce `verified`: the parent drops the child's trust
// anchors and verifies the carried record again (check/child_report.hpp).
#include "pith/check/child_report.hpp"
#include "pith/check/file.hpp"
#include "pith/check/isolation.hpp"
#include "pith/signed_json/canonical.hpp"
#include "support/test_signer.hpp"

#include <catch2/catch.hpp>

using nlohmann::json;
using pith::CheckStatus;
using pith::Verdict;
namespace check = pith::check;

namespace {

const pith::registry::TrustStore& trust() {
  static const pith::registry::TrustStore store = pith::test::test_trust_store();
  return store;
}

// What a compromised child would send: every check passing, anchored.
check::FileCheck forged_report(const std::string& number) {
  pith::Report r;
  r.input = "paper.pdf";
  r.input_kind = "pdf";
  r.pith_number = number;
  r.pass("pdf.number.found", number + " in XMP pith:number");
  r.trust_anchor("receipt.signature.valid", "receipt: Ed25519 signature by trusted key pith-v1-2026-05");
  return r;
}

check::FileCheck through_child(const check::FileCheck& sent) {
  return check::judged_in_parent(check::run_isolated("paper.pdf", [&] { return sent; }), trust());
}

}  // namespace

TEST_CASE("a forged child report with an anchored verdict is not accepted", "[child][trust]") {
  const json bundle = pith::test::make_signed_bundle();
  const std::string number = bundle["pith_number"].get<std::string>();

  SECTION("no carried record at all") {
    const auto got = through_child(forged_report(number));
    CHECK(got.report.verdict() == Verdict::failed);
    REQUIRE(got.report.find("isolation.child.rejected"));
  }
  SECTION("a record signed by a key the parent does not trust") {
    check::FileCheck sent = forged_report(number);
    const json untrusted = pith::test::make_signed_bundle({}, pith::test::other_signer());
    const auto content = check::check_registry_bytes(pith::test::to_bytes(untrusted), trust(), "x");
    sent.carried = content.carried;
    const auto got = through_child(sent);
    CHECK(got.report.verdict() == Verdict::failed);
  }
  SECTION("a genuine record of another paper") {
    pith::test::RecordSpec other;
    other.title = "Another Paper";
    other.arxiv_id = "2401.09999";
    check::FileCheck sent = forged_report(number);
    sent.carried = check::check_registry_bytes(pith::test::to_bytes(pith::test::make_signed_bundle(other)), trust(), "x").carried;
    const auto got = through_child(sent);
    CHECK(got.report.verdict() == Verdict::failed);
  }
  SECTION("a tampered document under a claimed verdict") {
    json tampered = bundle;
    tampered["canonical_record"]["metadata"]["title"] = "Forged";
    check::FileCheck sent = forged_report(number);
    check::CarriedCopy copy;
    copy.kind = pith::registry::DocumentKind::bundle;
    copy.evidence = check::CarriedCopy::Evidence{pith::test::to_bytes(tampered), "", "", std::nullopt};
    sent.carried = copy;
    CHECK(through_child(sent).report.verdict() == Verdict::failed);
  }
}

TEST_CASE("a genuine child report stays verified, anchored by the parent alone", "[child][trust]") {
  SECTION("a bundle") {
    const auto genuine = check::check_registry_bytes(pith::test::to_bytes(pith::test::make_signed_bundle()), trust(), "b");
    REQUIRE(genuine.report.verdict() == Verdict::verified);
    const auto got = through_child(genuine);
    CHECK(got.report.verdict() == Verdict::verified);
    const pith::Check* anchor = got.report.find("isolation.parent.verified");
    REQUIRE(anchor);
    CHECK(anchor->anchors_trust);
    CHECK(got.to_json()["details"]["carried"].contains("evidence") == false);  // not printed
  }
  SECTION("a record with its receipt parts (as XMP carries it)") {
    const json record = pith::test::make_canonical_record();
    const json receipt = pith::test::make_receipt(pith::test::test_signer(), record);
    const std::string number = pith::test::number_of(record);
    const auto v = pith::registry::verify_record_with_receipt(
        record, receipt["canonical_sha256"].get<std::string>(), number,
        pith::registry::ReceiptParts{receipt["key_id"].get<std::string>(), receipt["public_key_fingerprint"].get<std::string>(),
                                     receipt["signature_b64"].get<std::string>()},
        trust(), "XMP");
    REQUIRE(v.report.verdict() == Verdict::verified);
    check::FileCheck genuine{v.report, check::CarriedCopy::of(v.content(), v.report)};
    genuine.report.pith_number = number;
    REQUIRE(genuine.carried->evidence);
    CHECK(genuine.carried->evidence->document_bytes.empty());
    CHECK(through_child(genuine).report.verdict() == Verdict::verified);
  }
  SECTION("an error report passes unchanged") {
    pith::Report r;
    r.input = "x.pdf";
    r.error = pith::Error{pith::ErrorKind::malformed, {}, "the PDF parser crashed"};
    CHECK(check::judged_in_parent(check::FileCheck{r}, trust()).report.error == r.error);
  }
}
