// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// TEST ONLY. A deterministic Ed25519 signer standing in for the registry, so
// tests can build signed records, receipts, events, bundles and states, and
// tamper with each signed field. Its key (`pith-test-2026`, written to
// tests/data/test-signing-key.json) is trusted only by stores a test builds
// (test_trust_store()); the tools never trust it unless given --trust-key.
// Same inputs → same bytes (fixed seeds, fixed timestamps, canonical output).
#include "pith/base/crypto.hpp"
#include "pith/registry/trust_store.hpp"

#include <array>
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace pith::test {

inline constexpr const char* test_key_id = "pith-test-2026";
inline constexpr const char* default_created_at = "2026-07-05T02:46:28Z";
inline constexpr const char* default_built_at = "2026-08-09T23:02:25Z";

class TestSigner {
 public:
  // The keypair comes from sha256(seed_text): a different text, a different key.
  explicit TestSigner(std::string key_id = test_key_id,
                      const std::string& seed_text = "pith-test-2026: TEST ONLY, never trust outside tests");

  [[nodiscard]] const std::string& key_id() const { return key_id_; }
  [[nodiscard]] const Ed25519PublicKey& public_key() const { return public_key_; }
  [[nodiscard]] std::string fingerprint_hex() const;
  // The key in the registry's pith-signing-key.json format (marked test-only).
  [[nodiscard]] nlohmann::json key_file() const;
  [[nodiscard]] registry::TrustedKey trusted_key() const;

  [[nodiscard]] Ed25519Signature sign(const Sha256Digest& digest) const;
  [[nodiscard]] std::string sign_b64(const Sha256Digest& digest) const;
  // {signature_status, algorithm, key_id, public_key_fingerprint, signature_b64, signed_message, signed_at}
  [[nodiscard]] nlohmann::json signature_block(const Sha256Digest& digest, const std::string& signed_message,
                                               const std::string& signed_at) const;

 private:
  std::string key_id_;
  Ed25519PublicKey public_key_{};
  std::array<std::uint8_t, 64> secret_key_{};
};

// The default test signer (key id pith-test-2026) and a second, unrelated
// one (key id pith-test-other) for "untrusted key" cases.
[[nodiscard]] const TestSigner& test_signer();
[[nodiscard]] const TestSigner& other_signer();
// Pinned registry key + the default test signer.
[[nodiscard]] registry::TrustStore test_trust_store();
// The same, made once and shared by a test program's cases.
[[nodiscard]] const registry::TrustStore& test_trust();

struct RecordSpec {
  std::string title = "Deterministic Signatures for Paper Records";
  std::string abstract = "We sign canonical records of papers so that anyone can verify them offline.";
  std::string arxiv_id = "2401.00001";
  int version = 1;
  std::string submitted_at = "2024-01-15T12:00:00Z";
  std::string primary_cat = "cs.CR";
  std::vector<std::string> cross_cats = {"cs.DL"};
  std::string license = "http://creativecommons.org/licenses/by/4.0/";
  std::string authors = "A. Tester";
};

[[nodiscard]] nlohmann::json make_canonical_record(const RecordSpec& spec = {});
// pith:YYYY:<26> of a record (throws on a malformed record).
[[nodiscard]] std::string number_of(const nlohmann::json& record);
// A signed receipt for `record` (payload.receipt in record_created).
[[nodiscard]] nlohmann::json make_receipt(const TestSigner& signer, const nlohmann::json& record,
                                          const std::string& signed_at = "2026-07-05T02:46:28.981389Z");

struct EventSpec {
  std::string event_type;
  std::string target;
  nlohmann::json payload;
  std::string created_at = default_created_at;
  nlohmann::json supersedes = nlohmann::json::array();
  nlohmann::json prev_event = nullptr;
};
// An event about `subject`, signed by `signer`.
[[nodiscard]] nlohmann::json make_event(const TestSigner& signer, const std::string& subject, const EventSpec& spec);
// (Re)computes content_sha256 and event_id and (re)signs: after a test edits
// a signed field, this makes the edit "legitimately" signed by `signer`.
[[nodiscard]] nlohmann::json sign_event(const TestSigner& signer, nlohmann::json event);
[[nodiscard]] nlohmann::json make_record_created_event(const TestSigner& signer, const nlohmann::json& record,
                                                       const std::string& created_at = default_created_at);
[[nodiscard]] nlohmann::json make_graph_snapshot_event(const TestSigner& signer, const nlohmann::json& record,
                                                       const RecordSpec& spec = {},
                                                       const std::string& created_at = default_created_at);

struct BundleOptions {
  std::string built_at = default_built_at;
  std::string base_url = "https://pith.science";
  // Keys the merge trusts when computing the bundle's state (default: the
  // signer's own key only).
  std::vector<registry::TrustedKey> merge_keys;
};
// A complete bundle: record, events, state recomputed with the library's
// merge, public_keys = [signer's key file], bundle signature by `signer`.
[[nodiscard]] nlohmann::json assemble_bundle(const TestSigner& signer, const nlohmann::json& record,
                                             const nlohmann::json& events, const BundleOptions& options = {});
// Recomputes bundle_sha256 and signs it again (after a test edits the bundle).
[[nodiscard]] nlohmann::json resign_bundle(const TestSigner& signer, nlohmann::json bundle,
                                           const std::string& signed_at = "2026-08-09T23:02:25.482431Z");
// Recomputes the bundle's `state` from its events (keys: `merge_keys` or the signer's).
[[nodiscard]] nlohmann::json recompute_bundle_state(const nlohmann::json& bundle, const std::vector<registry::TrustedKey>& keys);

// The common case: record from `spec`, record_created + graph_snapshot
// events, bundle — all signed by `signer`.
[[nodiscard]] nlohmann::json make_signed_bundle(const RecordSpec& spec = {}, const TestSigner& signer = test_signer(),
                                                const BundleOptions& options = {});

// The state.json the registry would serve for that bundle.
[[nodiscard]] nlohmann::json make_signed_state(const RecordSpec& spec = {}, const TestSigner& signer = test_signer());

// Writes `signer`'s key file (pith-signing-key.json format) to `path`, for
// `pith-check --trust-key` or a test trust directory.
void write_key_file(const TestSigner& signer, const std::filesystem::path& path);

// canon(value): what the registry serves (any JSON text is accepted by the
// tools, the canonical one is the deterministic choice).
[[nodiscard]] std::string to_bytes(const nlohmann::json& value);

}  // namespace pith::test
