// SPDX-License-Identifier: GPL-3.0-or-later
// Every failure path, exercised with documents signed by the test signer.
#include "pith/signed_json/canonical.hpp"
#include "pith/registry/number.hpp"
#include "pith/registry/state_merge.hpp"
#include "pith/signed_json/strict.hpp"
#include "pith/registry/trust_store.hpp"
#include "pith/registry/verify.hpp"
#include "support/test_signer.hpp"

#include <catch2/catch.hpp>

using nlohmann::json;
using pith::CheckStatus;
using pith::Verdict;
using namespace pith::test;

namespace {

pith::registry::DocumentVerification verify(const json& doc, const pith::registry::TrustStore& trust = test_trust_store()) {
  auto v = pith::registry::verify_document(to_bytes(doc), trust, "test");
  REQUIRE(v.has_value());
  return std::move(*v);
}

CheckStatus status_of(const pith::Report& r, const char* code) {
  const pith::Check* c = r.find(code);
  INFO("looking for " << code << " in\n" << r.to_text());
  REQUIRE(c != nullptr);
  return c->status;
}


// A copy of `bundle` with the field at `pointer` (a JSON pointer) set to `value`.
json with_field(json bundle, const char* pointer, json value) {
  bundle[json::json_pointer(pointer)] = std::move(value);
  return bundle;
}

// Re-signs everything after an edit, as a registry holding `signer` would:
// events (content hash, id, signature), state, bundle signature.
json resign_all(json bundle, const TestSigner& signer = test_signer()) {
  for (auto& e : bundle["events"]) e = sign_event(signer, e);
  bundle["state"] = recompute_bundle_state(bundle, {signer.trusted_key()});
  return resign_bundle(signer, std::move(bundle));
}


}  // namespace

TEST_CASE("a test bundle verifies with the test key trusted, and only then", "[verify][signed]") {
  const json bundle = make_signed_bundle();
  const auto v = verify(bundle);
  INFO(v.report.to_text());
  CHECK(v.report.verdict() == Verdict::verified);
  REQUIRE(v.record());
  CHECK(v.record()->key_id == "pith-test-2026");
  CHECK(v.record()->key_fingerprint == test_signer().fingerprint_hex());
  CHECK(v.record()->report.verdict() == Verdict::verified);
  // The default tool store does not know the test key: a report, and no record.
  const auto untrusted = verify(bundle, pith::registry::TrustStore::with_pinned_key());
  CHECK(untrusted.report.verdict() == Verdict::unverifiable);
  CHECK_FALSE(untrusted.record().has_value());
  CHECK(untrusted.content().pith_number == v.record()->pith_number);  // still there to report on
}

TEST_CASE("a verification holds a record only when its report verified", "[verify][signed]") {
  json tampered = make_signed_bundle();
  tampered["canonical_record"]["metadata"]["title_canon_sha256"] = pith::sha256_hex("another title");
  const auto v = verify(tampered);
  CHECK(v.report.verdict() == Verdict::failed);
  CHECK_FALSE(v.record().has_value());
  CHECK(v.kind() == pith::registry::DocumentKind::bundle);
  CHECK_FALSE(v.report.pith_number.empty());  // the claimed number, for the failure message
}

TEST_CASE("each signed field tampered is caught by the check that covers it", "[verify][signed][tamper]") {
  const json bundle = make_signed_bundle();
  SECTION("record title hash (record no longer hashes to its number)") {
    const json b = with_field(bundle, "/canonical_record/metadata/title_canon_sha256",
                              pith::sha256_hex("another title"));
    const auto r = verify(b).report;
    CHECK(status_of(r, "record.hash.mismatch") == CheckStatus::fail);
    CHECK(status_of(r, "record.number.mismatch") == CheckStatus::fail);
    CHECK(status_of(r, "bundle.record.mismatch") == CheckStatus::fail);
    CHECK(r.verdict() == Verdict::failed);
  }
  SECTION("canonical_sha256") {
    const json b = with_field(bundle, "/canonical_sha256", pith::sha256_hex("x"));
    CHECK(status_of(verify(b).report, "record.hash.mismatch") == CheckStatus::fail);
  }
  SECTION("pith_number, consistently re-signed by the registry key") {
    const json b = resign_bundle(test_signer(),
                                 with_field(bundle, "/pith_number", "pith:2024:AAAAAAAAAAAAAAAAAAAAAAAAAA"));
    const auto r = verify(b).report;
    CHECK(status_of(r, "record.number.mismatch") == CheckStatus::fail);
    CHECK(status_of(r, "bundle.signature.valid") == CheckStatus::pass);  // signed, yet wrong
    CHECK(r.verdict() == Verdict::failed);
  }
  SECTION("short_pith_number") {
    const json b = resign_bundle(test_signer(), with_field(bundle, "/short_pith_number", "pith:AAAAAAAA"));
    CHECK(status_of(verify(b).report, "bundle.short_number.mismatch") == CheckStatus::fail);
  }
  SECTION("source") {
    const json b = resign_bundle(test_signer(), with_field(bundle, "/source/version", 2));
    CHECK(status_of(verify(b).report, "bundle.source.mismatch") == CheckStatus::fail);
  }
  SECTION("source_aliases") {
    const json b = resign_bundle(test_signer(), with_field(bundle, "/source_aliases/0/alias_value", "9999.99999"));
    CHECK(status_of(verify(b).report, "bundle.source_aliases.mismatch") == CheckStatus::fail);
  }
  SECTION("receipt signature") {
    json b = bundle;
    std::string sig = b["events"][0]["payload"]["receipt"]["signature_b64"];
    sig[0] = sig[0] == 'A' ? 'B' : 'A';
    b["events"][0]["payload"]["receipt"]["signature_b64"] = sig;
    b = resign_all(b);  // everything else re-signed: only the receipt is wrong
    const auto r = verify(b).report;
    CHECK(status_of(r, "receipt.signature.invalid") == CheckStatus::fail);
    CHECK(status_of(r, "bundle.signature.valid") == CheckStatus::pass);
    CHECK(r.verdict() == Verdict::failed);
  }
  SECTION("event payload without re-signing") {
    const json b = with_field(bundle, "/events/1/payload/graph_snapshot/paper/title", "Edited");
    const auto r = verify(b).report;
    CHECK(status_of(r, "event.hash.mismatch") == CheckStatus::fail);
    CHECK(status_of(r, "bundle.hash.mismatch") == CheckStatus::fail);
  }
  SECTION("event content re-hashed but not re-signed") {
    json b = bundle;
    json e = b["events"][1];
    e["payload"]["graph_snapshot"]["paper"]["title"] = "Edited";
    const json sig = e["signature"];
    e = sign_event(other_signer(), e);
    e["signature"] = sig;  // the old signature over the old content
    b["events"][1] = e;
    b = resign_bundle(test_signer(), b);  // the served state still applies the event
    const auto r = verify(b).report;
    CHECK(status_of(r, "event.signature.invalid") == CheckStatus::fail);
    CHECK(status_of(r, "state.recomputed.mismatch") == CheckStatus::fail);
    CHECK(r.verdict() == Verdict::failed);
    // If the served state itself lists the event as invalid, it is the
    // registry's own finding: a warning, the bundle stays verified.
    b["state"] = recompute_bundle_state(b, {test_signer().trusted_key()});
    b = resign_bundle(test_signer(), b);
    const auto r2 = verify(b).report;
    CHECK(status_of(r2, "event.signature.invalid") == CheckStatus::warn);
    CHECK(r2.verdict() == Verdict::verified);
  }
  SECTION("event_id") {
    const json b = resign_bundle(test_signer(),
                                 with_field(bundle, "/events/1/event_id", "sha256:" + pith::sha256_hex("x")));
    CHECK(status_of(verify(b).report, "event.id.mismatch") == CheckStatus::fail);
  }
  SECTION("event subject") {
    const json b = resign_all(
        with_field(bundle, "/events/1/subject_pith_number", "pith:2024:AAAAAAAAAAAAAAAAAAAAAAAAAA"));
    // The registry key signed an event about another record into this bundle.
    const auto r = verify(b).report;
    CHECK(status_of(r, "event.subject.mismatch") == CheckStatus::warn);  // its state lists it invalid
    CHECK(r.verdict() == Verdict::verified);
    // Served state that pretends the event is valid: caught by recomputation.
    json lie = b;
    lie["state"] = bundle["state"];
    lie = resign_bundle(test_signer(), lie);
    const auto r2 = verify(lie).report;
    CHECK(status_of(r2, "event.subject.mismatch") == CheckStatus::fail);
    CHECK(status_of(r2, "state.recomputed.mismatch") == CheckStatus::fail);
  }
  SECTION("signer block naming another key than the signature") {
    const json b = resign_all(with_field(bundle, "/events/1/signer/key_id", "pith-v1-2026-05"));
    json lie = b;
    lie["state"] = bundle["state"];
    lie = resign_bundle(test_signer(), lie);
    CHECK(status_of(verify(lie).report, "event.signer.mismatch") == CheckStatus::fail);
  }
  SECTION("bundle field outside the events (mirror_hints)") {
    const json b = with_field(bundle, "/mirror_hints/0/base_url", "https://evil.example");
    const auto r = verify(b).report;
    CHECK(status_of(r, "bundle.hash.mismatch") == CheckStatus::fail);
    CHECK(status_of(r, "bundle.signature.invalid") == CheckStatus::fail);
  }
  SECTION("bundle signature bytes") {
    json b = bundle;
    std::string sig = b["bundle_signature"]["signature_b64"];
    sig[5] = sig[5] == 'A' ? 'B' : 'A';
    b["bundle_signature"]["signature_b64"] = sig;
    CHECK(status_of(verify(b).report, "bundle.signature.invalid") == CheckStatus::fail);
  }
  SECTION("malformed signature encoding") {
    const json b = with_field(bundle, "/bundle_signature/signature_b64", "not base64!");
    CHECK(status_of(verify(b).report, "bundle.signature.malformed") == CheckStatus::fail);
  }
  SECTION("served state edited and re-hashed, bundle re-signed") {
    json b = bundle;
    b["state"]["current"]["graph_snapshots"] = json::array();
    b["state"]["state_sha256"] = pith::registry::state_hash(b["state"]);
    b = resign_bundle(test_signer(), b);
    const auto r = verify(b).report;
    CHECK(status_of(r, "state.hash.match") == CheckStatus::pass);
    CHECK(status_of(r, "state.recomputed.mismatch") == CheckStatus::fail);
    CHECK(r.find("state.recomputed.mismatch")->detail.find("$.current.graph_snapshots[0]") != std::string::npos);
  }
  SECTION("served state edited without re-hashing") {
    const json b = resign_bundle(test_signer(), with_field(bundle, "/state/event_count", 3));
    const auto r = verify(b).report;
    CHECK(status_of(r, "state.hash.mismatch") == CheckStatus::fail);
    CHECK(r.find("state.recomputed.mismatch")->detail.find("$.event_count") != std::string::npos);
  }
}

TEST_CASE("a receipt of another record replayed into a bundle fails", "[verify][signed]") {
  RecordSpec other_spec;
  other_spec.title = "A Different Paper";
  const json other_record = make_canonical_record(other_spec);
  json bundle = make_signed_bundle();
  bundle["events"][0]["payload"]["receipt"] = make_receipt(test_signer(), other_record);  // genuine, for another record
  bundle = resign_all(bundle);
  const auto r = verify(bundle).report;
  CHECK(status_of(r, "receipt.hash.mismatch") == CheckStatus::fail);
  CHECK(status_of(r, "receipt.signature.invalid") == CheckStatus::fail);
  CHECK(r.verdict() == Verdict::failed);

  // The same receipt with its canonical_sha256 edited to match: signature still fails.
  bundle["events"][0]["payload"]["receipt"]["canonical_sha256"] = bundle["canonical_sha256"];
  bundle = resign_all(bundle);
  const auto r2 = verify(bundle).report;
  CHECK(status_of(r2, "receipt.hash.match") == CheckStatus::pass);
  CHECK(status_of(r2, "receipt.signature.invalid") == CheckStatus::fail);
}

TEST_CASE("a bundle re-signed by an untrusted key that ships its own key fails", "[verify][signed][trust]") {
  json bundle = make_signed_bundle();
  bundle["mirror_hints"][0]["base_url"] = "https://evil.example";
  bundle["public_keys"].push_back(other_signer().key_file());
  bundle = resign_bundle(other_signer(), bundle);
  const auto r = verify(bundle).report;
  INFO(r.to_text());
  CHECK(status_of(r, "bundle.hash.match") == CheckStatus::pass);  // intact...
  CHECK(status_of(r, "bundle.signature.unverified") == CheckStatus::skip);
  CHECK(status_of(r, "key.untrusted") == CheckStatus::fail);  // ...but not by the registry
  CHECK(status_of(r, "key.shipped_in_data") == CheckStatus::warn);
  CHECK(r.find("key.shipped_in_data")->detail.find("verifies with it, which proves nothing") != std::string::npos);
  CHECK(status_of(r, "bundle.public_keys.untrusted") == CheckStatus::warn);
  CHECK(r.verdict() == Verdict::failed);
}

TEST_CASE("a bundle signed entirely by an unknown key is unverifiable", "[verify][signed][trust]") {
  const json bundle = make_signed_bundle({}, other_signer());
  const auto r = verify(bundle).report;
  INFO(r.to_text());
  CHECK(status_of(r, "key.untrusted") == CheckStatus::warn);
  CHECK(status_of(r, "key.shipped_in_data") == CheckStatus::warn);
  CHECK(r.verdict() == Verdict::unverifiable);
  CHECK_FALSE(r.has_failure());
}

TEST_CASE("a key claiming the registry key id is refused", "[verify][signed][trust]") {
  const TestSigner impostor("pith-v1-2026-05", "an impostor using the registry's key id");
  SECTION("with its own fingerprint") {
    const auto r = verify(make_signed_bundle({}, impostor)).report;
    CHECK(status_of(r, "key.fingerprint.mismatch") == CheckStatus::fail);
    CHECK(r.verdict() == Verdict::failed);
  }
  SECTION("claiming the registry's fingerprint too") {
    json bundle = make_signed_bundle({}, impostor);
    bundle["bundle_signature"]["public_key_fingerprint"] = pith::registry::pinned_registry_key().fingerprint_hex;
    const auto r = verify(bundle).report;
    CHECK(status_of(r, "bundle.signature.invalid") == CheckStatus::fail);
  }
  SECTION("a trusted key id with an unknown fingerprint") {
    json bundle = make_signed_bundle();
    bundle["bundle_signature"]["public_key_fingerprint"] = other_signer().fingerprint_hex();
    CHECK(status_of(verify(bundle).report, "key.fingerprint.mismatch") == CheckStatus::fail);
  }
  SECTION("an unknown key id on a signature made by the trusted key") {
    json bundle = make_signed_bundle();
    bundle["bundle_signature"]["key_id"] = "pith-unknown";
    const auto r = verify(bundle).report;
    CHECK(status_of(r, "key.untrusted") == CheckStatus::fail);  // receipt and events are trusted
    CHECK(r.verdict() == Verdict::failed);
  }
}

TEST_CASE("algorithm, status and message other than expected fail", "[verify][signed]") {
  const json bundle = make_signed_bundle();
  SECTION("bundle algorithm") {
    const json b = with_field(bundle, "/bundle_signature/algorithm", "ed448");
    CHECK(status_of(verify(b).report, "bundle.algorithm.unsupported") == CheckStatus::fail);
  }
  SECTION("bundle signature_status") {
    const json b = with_field(bundle, "/bundle_signature/signature_status", "unsigned");
    CHECK(status_of(verify(b).report, "bundle.signature_status.invalid") == CheckStatus::fail);
  }
  SECTION("bundle signed_message") {
    const json b = with_field(bundle, "/bundle_signature/signed_message", "bundle_sha256_hex");
    CHECK(status_of(verify(b).report, "bundle.signed_message.invalid") == CheckStatus::fail);
  }
  SECTION("receipt algorithm, everything re-signed") {
    const json b = resign_all(with_field(bundle, "/events/0/payload/receipt/algorithm", "rsa"));
    const auto r = verify(b).report;
    CHECK(status_of(r, "receipt.algorithm.unsupported") == CheckStatus::fail);
    CHECK(r.verdict() == Verdict::failed);
  }
  SECTION("receipt signed_message") {
    const json b = resign_all(with_field(bundle, "/events/0/payload/receipt/signed_message", "canonical_sha256_hex"));
    CHECK(status_of(verify(b).report, "receipt.signed_message.invalid") == CheckStatus::fail);
  }
  SECTION("event algorithm") {
    const json b = resign_bundle(test_signer(), with_field(bundle, "/events/1/signature/algorithm", "none"));
    CHECK(status_of(verify(b).report, "event.algorithm.unsupported") == CheckStatus::fail);
  }
}

TEST_CASE("equivocating events are listed, counted and not applied", "[verify][signed][merge]") {
  const auto& s = test_signer();
  const json record = make_canonical_record();
  const std::string number = number_of(record);
  const json rc = make_record_created_event(s, record);
  const json gs = make_graph_snapshot_event(s, record);
  const std::string rc_id = rc["event_id"];
  const json first = make_event(s, number, {"correction", "record", {{"note", "first"}}, "2026-07-06T00:00:00Z", json::array(), rc_id});
  const json second = make_event(s, number, {"correction", "record", {{"note", "second"}}, "2026-07-07T00:00:00Z", json::array(), rc_id});
  const json bundle = assemble_bundle(s, record, json::array({rc, gs, second, first}));
  const json& state = bundle["state"];
  CHECK(state["equivocation_count"] == 1);
  CHECK(state["equivocations"][0]["event_id"] == second["event_id"]);
  CHECK(state["equivocations"][0]["conflicts_with"] == first["event_id"]);
  CHECK(state["valid_event_count"] == 4);
  CHECK(state["applied_event_ids"].size() == 3);
  CHECK(state["current"]["corrections"].size() == 1);
  CHECK(state["current"]["corrections"][0]["payload"]["note"] == "first");
  const auto r = verify(bundle).report;
  INFO(r.to_text());
  CHECK(status_of(r, "state.recomputed.match") == CheckStatus::pass);
  CHECK(status_of(r, "state.equivocation") == CheckStatus::warn);
  CHECK(status_of(r, "event.equivocation") == CheckStatus::warn);
  CHECK(r.verdict() == Verdict::verified);

  SECTION("a second record_created is an equivocation too") {
    RecordSpec spec;
    const json rc2 = make_record_created_event(s, record, "2026-07-08T00:00:00Z");
    const json b2 = assemble_bundle(s, record, json::array({rc, rc2}));
    CHECK(b2["state"]["equivocation_count"] == 1);
    CHECK(b2["state"]["equivocations"][0]["reason"] == "a second record_created event");
    CHECK(b2["state"]["current"]["record_created"]["event_id"] == rc_id);
  }
}

TEST_CASE("superseded events leave current but stay applied", "[verify][signed][merge]") {
  const auto& s = test_signer();
  const json record = make_canonical_record();
  const std::string number = number_of(record);
  const json rc = make_record_created_event(s, record);
  const json gs = make_graph_snapshot_event(s, record);
  const json gs2 = make_event(s, number, {"graph_snapshot", "graph", {{"graph_snapshot", {{"v", 2}}}},
                                          "2026-07-09T00:00:00Z", json::array({gs["event_id"]}), nullptr});
  const json bundle = assemble_bundle(s, record, json::array({rc, gs, gs2}));
  const json& current = bundle["state"]["current"];
  REQUIRE(current["graph_snapshots"].size() == 1);
  CHECK(current["graph_snapshots"][0]["event_id"] == gs2["event_id"]);
  CHECK(bundle["state"]["applied_event_ids"].size() == 3);
  CHECK(verify(bundle).report.verdict() == Verdict::verified);

  SECTION("superseding record_created is invalid") {
    const json bad = make_event(s, number, {"correction", "record", json::object(), "2026-07-10T00:00:00Z",
                                            json::array({rc["event_id"]}), nullptr});
    const json b = assemble_bundle(s, record, json::array({rc, bad}));
    CHECK(b["state"]["invalid_event_count"] == 1);
    CHECK(b["state"]["invalid_events"][0]["reason"] == "record_created cannot be superseded");
  }
  SECTION("superseding an unknown event is invalid") {
    const json bad = make_event(s, number, {"correction", "record", json::object(), "2026-07-10T00:00:00Z",
                                            json::array({"sha256:" + pith::sha256_hex("nothing")}), nullptr});
    const json b = assemble_bundle(s, record, json::array({rc, bad}));
    CHECK(b["state"]["invalid_events"][0]["reason"] == "supersedes an event that is not an earlier applied event");
  }
  SECTION("prev_event naming an unknown event is invalid") {
    const json bad = make_event(s, number, {"correction", "record", json::object(), "2026-07-10T00:00:00Z",
                                            json::array(), "sha256:" + pith::sha256_hex("nothing")});
    const json b = assemble_bundle(s, record, json::array({rc, bad}));
    CHECK(b["state"]["invalid_events"][0]["reason"] == "prev_event names no earlier applied event");
    CHECK(verify(b).report.verdict() == Verdict::verified);  // acknowledged by the served state
  }
}

TEST_CASE("invalid events: acknowledged by the state they warn, hidden they fail", "[verify][signed][merge]") {
  const auto& s = test_signer();
  const json record = make_canonical_record();
  const std::string number = number_of(record);
  const json rc = make_record_created_event(s, record);
  const json foreign = make_event(other_signer(), number, {"author_attestation", "record", {{"orcid", "0000"}}});
  json broken = make_event(s, number, {"correction", "record", {{"note", "x"}}, "2026-07-06T00:00:00Z"});
  broken["content_sha256"] = pith::sha256_hex("wrong");

  const json bundle = assemble_bundle(s, record, json::array({rc, foreign, broken}));
  CHECK(bundle["state"]["invalid_event_count"] == 2);
  CHECK(bundle["state"]["current"]["author_attestations"].empty());
  const auto r = verify(bundle).report;
  INFO(r.to_text());
  CHECK(r.verdict() == Verdict::verified);
  CHECK(status_of(r, "event.hash.mismatch") == CheckStatus::warn);
  CHECK(status_of(r, "key.untrusted") == CheckStatus::warn);
  CHECK(status_of(r, "state.recomputed.match") == CheckStatus::pass);

  // A state computed by someone trusting the foreign key applies it: we do not.
  BundleOptions opts;
  opts.merge_keys = {s.trusted_key(), other_signer().trusted_key()};
  const json lenient = assemble_bundle(s, record, json::array({rc, foreign}), opts);
  CHECK(lenient["state"]["current"]["author_attestations"].size() == 1);
  const auto r2 = verify(lenient).report;
  INFO(r2.to_text());
  CHECK(status_of(r2, "key.untrusted") == CheckStatus::fail);
  CHECK(status_of(r2, "state.recomputed.mismatch") == CheckStatus::fail);
  CHECK(r2.verdict() == Verdict::failed);
}

TEST_CASE("key validity windows bound what a key may sign", "[verify][signed][trust]") {
  json key = test_signer().key_file();
  key["not_after"] = "2026-01-01T00:00:00Z";  // before the test bundle's times
  auto expired = pith::registry::parse_key_file(key.dump(), "expired");
  REQUIRE(expired.has_value());
  pith::registry::TrustStore store;
  REQUIRE(store.add(*expired).has_value());
  const auto r = verify(make_signed_bundle(), store).report;
  CHECK(status_of(r, "key.untrusted") == CheckStatus::warn);
  CHECK(r.find("key.untrusted")->detail.find("valid (any time) to 2026-01-01T00:00:00Z") != std::string::npos);
  CHECK(r.verdict() == Verdict::unverifiable);

  key["not_after"] = "2027-01-01T00:00:00Z";
  key["not_before"] = "2026-01-01T00:00:00Z";
  auto current = pith::registry::parse_key_file(key.dump(), "current");
  REQUIRE(current.has_value());
  pith::registry::TrustStore store2;
  REQUIRE(store2.add(*current).has_value());
  CHECK(verify(make_signed_bundle(), store2).report.verdict() == Verdict::verified);
}

TEST_CASE("a state alone: verified via its receipt, with what it cannot show", "[verify][signed][state]") {
  const json bundle = make_signed_bundle();
  const json state = bundle["state"];
  const auto v = verify(state);
  INFO(v.report.to_text());
  CHECK(v.report.verdict() == Verdict::verified);
  CHECK(v.kind() == pith::registry::DocumentKind::state);
  CHECK(status_of(v.report, "events.unavailable") == CheckStatus::skip);

  SECTION("state hash broken") {
    json s = state;
    s["event_count"] = 7;
    CHECK(status_of(verify(s).report, "state.hash.mismatch") == CheckStatus::fail);
  }
  SECTION("record swapped (and re-hashed)") {
    RecordSpec other;
    other.title = "Swapped";
    json s = state;
    s["current"]["canonical_record"] = make_canonical_record(other);
    s["state_sha256"] = pith::registry::state_hash(s);
    const auto r = verify(s).report;
    CHECK(status_of(r, "record.number.mismatch") == CheckStatus::fail);
    CHECK(status_of(r, "state.record.mismatch") == CheckStatus::fail);
  }
  SECTION("without the test key") {
    CHECK(verify(state, pith::registry::TrustStore::with_pinned_key()).report.verdict() == Verdict::unverifiable);
  }
}

TEST_CASE("resolver answers and bare records", "[verify][signed]") {
  const json record = make_canonical_record();
  const std::string number = number_of(record);
  json answer = {{"@context", "https://schema.org"}, {"pith_number", number}, {"canonical_record", record}};
  auto v = verify(answer);
  CHECK(v.kind() == pith::registry::DocumentKind::resolver_answer);
  CHECK(v.report.verdict() == Verdict::unverifiable);
  answer["receipt"] = make_receipt(test_signer(), record);
  v = verify(answer);
  CHECK(v.report.verdict() == Verdict::verified);
  CHECK(v.content().receipt_signature_b64 == answer["receipt"]["signature_b64"]);
  answer["pith_number"] = "pith:2024:AAAAAAAAAAAAAAAAAAAAAAAAAA";
  CHECK(status_of(verify(answer).report, "record.number.mismatch") == CheckStatus::fail);

  const auto bare = verify(record);
  CHECK(bare.kind() == pith::registry::DocumentKind::record);
  CHECK(bare.content().pith_number.value().to_string() == number);
  CHECK(bare.report.verdict() == Verdict::unverifiable);
}

TEST_CASE("JSON that signed data must not contain fails; non-documents are errors", "[verify][strict]") {
  const auto trust = test_trust_store();
  const std::string bytes = to_bytes(make_signed_bundle());
  SECTION("duplicate key") {
    // Insert a second "pith_number" right after the opening brace.
    const std::string dup = "{\"pith_number\":\"pith:2024:AAAAAAAAAAAAAAAAAAAAAAAAAA\"," + bytes.substr(1);
    auto v = pith::registry::verify_document(dup, trust, "dup.json");
    REQUIRE(v.has_value());
    CHECK(v->report.verdict() == Verdict::failed);
    REQUIRE(v->report.find("json.strict.invalid") != nullptr);
    CHECK(v->report.find("json.strict.invalid")->detail.find("$.pith_number") != std::string::npos);
  }
  SECTION("float") {
    const std::string f = "{\"bundle_version\":1.0," + bytes.substr(1);
    auto v = pith::registry::verify_document(f, trust, "float.json");
    REQUIRE(v.has_value());
    CHECK(v->report.verdict() == Verdict::failed);
  }
  SECTION("deep nesting") {
    const std::string deep = "{\"x\":" + std::string(100, '[') + std::string(100, ']') + "," + bytes.substr(1);
    auto v = pith::registry::verify_document(deep, trust, "deep.json");
    REQUIRE(v.has_value());
    CHECK(v->report.verdict() == Verdict::failed);
    CHECK(v->report.find("json.strict.invalid")->detail.find("too_deep") != std::string::npos);
  }
  SECTION("oversized") {
    std::string big = bytes;
    big.insert(1, "\"pad\":\"" + std::string(9u * 1024u * 1024u, 'a') + "\",");
    auto v = pith::registry::verify_document(big, trust, "big.json");
    REQUIRE_FALSE(v.has_value());
    CHECK(v.error().where == "big.json");
    CHECK(v.error().message.find("exceeds") != std::string::npos);
  }
  SECTION("not JSON, not a registry document") {
    CHECK_FALSE(pith::registry::verify_document("%PDF-1.7", trust, "x").has_value());
    CHECK_FALSE(pith::registry::verify_document("{\"hello\":1}", trust, "x").has_value());
    CHECK_FALSE(pith::registry::verify_document("[]", trust, "x").has_value());
  }
}
