// SPDX-License-Identifier: GPL-3.0-or-later
#include "support/test_signer.hpp"

#include "pith/signed_json/canonical.hpp"
#include "pith/registry/number.hpp"
#include "pith/registry/state_merge.hpp"
#include "pith/registry/title.hpp"

#include <fstream>
#include <sodium.h>
#include <stdexcept>

namespace pith::test {

using nlohmann::json;

TestSigner::TestSigner(std::string key_id, const std::string& seed_text) : key_id_(std::move(key_id)) {
  ensure_sodium();
  const Sha256Digest seed = sha256(seed_text);
  crypto_sign_seed_keypair(public_key_.data(), secret_key_.data(), seed.data());
}

std::string TestSigner::fingerprint_hex() const { return registry::key_fingerprint_hex(public_key_); }

json TestSigner::key_file() const {
  return json{{"key_id", key_id_},
              {"algorithm", "ed25519"},
              {"format", "raw"},
              {"public_key_b64", to_base64(public_key_)},
              {"public_key_hex", to_hex(public_key_)},
              {"fingerprint_sha256_b32_first128bits", registry::key_fingerprint_b32(public_key_)},
              {"fingerprint_sha256_hex", registry::key_fingerprint_hex(public_key_)},
              {"rotates_at", nullptr},
              {"url", "https://example.invalid/pith-test-signing-key.json"},
              {"notes", "TEST ONLY: the pith test suite's signing key (private key derived from a public seed). "
                        "Never trust it outside tests."}};
}

registry::TrustedKey TestSigner::trusted_key() const {
  auto k = registry::parse_key_file(key_file().dump(), "test signer " + key_id_);
  if (!k) throw std::logic_error(k.error().describe());
  return *k;
}

Ed25519Signature TestSigner::sign(const Sha256Digest& digest) const {
  Ed25519Signature sig{};
  crypto_sign_detached(sig.data(), nullptr, digest.data(), digest.size(), secret_key_.data());
  return sig;
}

std::string TestSigner::sign_b64(const Sha256Digest& digest) const { return to_base64(sign(digest)); }

json TestSigner::signature_block(const Sha256Digest& digest, const std::string& signed_message,
                                 const std::string& signed_at) const {
  return json{{"signature_status", "signed_v1"},
              {"algorithm", "ed25519"},
              {"key_id", key_id_},
              {"public_key_fingerprint", fingerprint_hex()},
              {"signature_b64", sign_b64(digest)},
              {"signed_message", signed_message},
              {"signed_at", signed_at}};
}

const TestSigner& test_signer() {
  static const TestSigner signer;
  return signer;
}

const TestSigner& other_signer() {
  static const TestSigner signer("pith-test-other", "pith-test-other: TEST ONLY, an untrusted key");
  return signer;
}

registry::TrustStore test_trust_store() {
  registry::TrustStore store = registry::TrustStore::with_pinned_key();
  if (auto r = store.add(test_signer().trusted_key()); !r) throw std::logic_error(r.error().describe());
  return store;
}

const registry::TrustStore& test_trust() {
  static const registry::TrustStore store = test_trust_store();
  return store;
}

json make_canonical_record(const RecordSpec& spec) {
  json cats = json::array();
  std::vector<std::string> sorted = spec.cross_cats;
  std::sort(sorted.begin(), sorted.end());
  for (const auto& c : sorted) cats.push_back(c);
  return json{{"metadata",
               {{"abstract_canon_sha256", registry::title_canon_sha256(spec.abstract)},
                {"cross_cats_sorted", cats},
                {"license", spec.license},
                {"primary_cat", spec.primary_cat},
                {"submitted_at", spec.submitted_at},
                {"title_canon_sha256", registry::title_canon_sha256(spec.title)}}},
              {"schema_version", "1.0"},
              {"source", {{"id", spec.arxiv_id}, {"kind", "arxiv"}, {"version", spec.version}}}};
}

std::string number_of(const json& record) {
  auto n = registry::derive_pith_number(record);
  if (!n) throw std::invalid_argument(n.error().describe());
  return n->number.to_string();
}

json make_receipt(const TestSigner& signer, const json& record, const std::string& signed_at) {
  auto n = registry::derive_pith_number(record);
  if (!n) throw std::invalid_argument(n.error().describe());
  const Sha256Digest digest = sha256(n->canonical_json);
  return json{{"kind", "pith_receipt"},
              {"key_id", signer.key_id()},
              {"algorithm", "ed25519"},
              {"signed_at", signed_at},
              {"signature_b64", signer.sign_b64(digest)},
              {"signed_message", "canonical_sha256_bytes"},
              {"builder_version", "pith-test-signer-v1"},
              {"receipt_version", "0.3"},
              {"canonical_sha256", n->canonical_sha256},
              {"last_reissued_at", signed_at},
              {"signature_status", "signed_v1"},
              {"first_computed_at", signed_at},
              {"public_key_fingerprint", signer.fingerprint_hex()}};
}

json sign_event(const TestSigner& signer, json event) {
  event.erase("signature");
  event.erase("event_id");
  event.erase("content_sha256");
  const std::string text = signed_json::canon(event);
  const Sha256Digest digest = sha256(text);
  event["content_sha256"] = to_hex(digest);
  event["event_id"] = "sha256:" + to_hex(digest);
  event["signature"] = signer.signature_block(digest, "open_graph_event_sha256_bytes", "2026-08-09T23:02:25.475056Z");
  return event;
}

json make_event(const TestSigner& signer, const std::string& subject, const EventSpec& spec) {
  json event = {{"event_type", spec.event_type},
                {"subject_pith_number", subject},
                {"target", spec.target},
                {"payload", spec.payload},
                {"signer",
                 {{"signer_id", "pith.test"},
                  {"signer_type", "pith_registry"},
                  {"key_id", signer.key_id()},
                  {"public_key_fingerprint", signer.fingerprint_hex()}}},
                {"created_at", spec.created_at},
                {"supersedes", spec.supersedes},
                {"prev_event", spec.prev_event},
                {"schema_version", "1.0"}};
  return sign_event(signer, std::move(event));
}

json make_record_created_event(const TestSigner& signer, const json& record, const std::string& created_at) {
  auto n = registry::derive_pith_number(record);
  if (!n) throw std::invalid_argument(n.error().describe());
  const json& source = record["source"];
  json payload = {{"canonical_record", record},
                  {"canonical_sha256", n->canonical_sha256},
                  {"receipt", make_receipt(signer, record)},
                  {"source_kind", source["kind"]},
                  {"source_id", source["id"]},
                  {"source_version", source["version"]},
                  {"attestation_state", "computed"}};
  return make_event(signer, n->number.to_string(), EventSpec{"record_created", "record", payload, created_at});
}

json make_graph_snapshot_event(const TestSigner& signer, const json& record, const RecordSpec& spec,
                               const std::string& created_at) {
  json paper = {{"title", spec.title},
                {"authors_text", spec.authors},
                {"abstract_excerpt", spec.abstract},
                {"submitted_at", spec.submitted_at},
                {"primary_cat", spec.primary_cat},
                {"license", spec.license}};
  json payload = {{"graph_snapshot", {{"paper", paper}, {"source", record["source"]}, {"builder_version", "pith-test-signer-v1"}}},
                  {"verdict_id", nullptr}};
  return make_event(signer, number_of(record), EventSpec{"graph_snapshot", "graph", payload, created_at});
}

json recompute_bundle_state(const json& bundle, const std::vector<registry::TrustedKey>& keys) {
  registry::TrustStore store;
  for (const auto& k : keys) {
    if (auto r = store.add(k); !r) throw std::logic_error(r.error().describe());
  }
  return registry::recompute_state(bundle["events"], bundle["pith_number"].get<std::string>(), store).state;
}

json resign_bundle(const TestSigner& signer, json bundle, const std::string& signed_at) {
  bundle.erase("bundle_signature");
  const Sha256Digest digest = sha256(signed_json::canon(bundle));
  json sig = signer.signature_block(digest, "bundle_sha256_bytes", signed_at);
  sig["bundle_sha256"] = to_hex(digest);
  bundle["bundle_signature"] = sig;
  return bundle;
}

json assemble_bundle(const TestSigner& signer, const json& record, const json& events, const BundleOptions& options) {
  auto n = registry::derive_pith_number(record);
  if (!n) throw std::invalid_argument(n.error().describe());
  const std::string page = options.base_url + "/pith/" + n->number.body;
  const std::string well_known = options.base_url + "/.well-known/pith/" + n->number.body + "/bundle.json";
  json bundle = {{"bundle_type", "pith_open_graph_bundle"},
                 {"bundle_version", "1.0"},
                 {"pith_number", n->number.to_string()},
                 {"short_pith_number", n->number.short_form().to_string()},
                 {"canonical_record", record},
                 {"canonical_sha256", n->canonical_sha256},
                 {"source", record["source"]},
                 {"events", events},
                 {"timestamp_proofs", json::array()},
                 {"mirror_hints",
                  json::array({{{"mirror_type", "https"},
                                {"name", "Pith Resolver"},
                                {"base_url", options.base_url},
                                {"bundle_url", page + "/bundle.json"},
                                {"state_url", page + "/state.json"},
                                {"well_known_bundle_url", well_known},
                                {"status", "primary"}}})},
                 {"public_keys", json::array({signer.key_file()})},
                 {"merge_version", registry::merge_version_v1},
                 {"built_at", options.built_at},
                 {"links",
                  {{"resolver", page},
                   {"bundle", page + "/bundle.json"},
                   {"state", page + "/state.json"},
                   {"well_known_bundle", well_known}}}};
  std::vector<registry::TrustedKey> keys = options.merge_keys;
  if (keys.empty()) keys.push_back(signer.trusted_key());
  bundle["state"] = recompute_bundle_state(bundle, keys);
  bundle["source_aliases"] = bundle["state"]["current"]["source_aliases"];
  return resign_bundle(signer, std::move(bundle));
}

json make_signed_bundle(const RecordSpec& spec, const TestSigner& signer, const BundleOptions& options) {
  const json record = make_canonical_record(spec);
  const json events = json::array(
      {make_record_created_event(signer, record), make_graph_snapshot_event(signer, record, spec)});
  return assemble_bundle(signer, record, events, options);
}

json make_signed_state(const RecordSpec& spec, const TestSigner& signer) {
  return make_signed_bundle(spec, signer)["state"];
}

void write_key_file(const TestSigner& signer, const std::filesystem::path& path) {
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << signer.key_file().dump(2) << "\n";
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

std::string to_bytes(const json& value) { return signed_json::canon(value); }

}  // namespace pith::test
