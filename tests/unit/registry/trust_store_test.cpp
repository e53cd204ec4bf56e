// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/registry/trust_store.hpp"
#include "support/test_data.hpp"
#include "support/test_signer.hpp"

#include <catch2/catch.hpp>
#include <cstdlib>

using nlohmann::json;
using pith::registry::KeyLookup;
using namespace pith;
using namespace pith::test;

TEST_CASE("the pinned store trusts the registry key by id AND fingerprint", "[trust_store]") {
  const auto store = pith::registry::TrustStore::with_pinned_key();
  REQUIRE(store.keys().size() == 1);
  CHECK(store.find("pith-v1-2026-05", "8d4b5ee74e4693bcd1df2446408b0d54").trusted());
  CHECK(store.find("pith-v1-2026-05", "00000000000000000000000000000000").status == registry::KeyLookup::fingerprint_mismatch);
  CHECK(store.find("pith-v1-2026-05", "").status == registry::KeyLookup::fingerprint_mismatch);
  CHECK(store.find("pith-v2", "8d4b5ee74e4693bcd1df2446408b0d54").status == registry::KeyLookup::unknown_key_id);
  CHECK(pith::registry::TrustStore{}.find("pith-v1-2026-05", "8d4b5ee74e4693bcd1df2446408b0d54").status ==
        registry::KeyLookup::unknown_key_id);
}

TEST_CASE("key files: fingerprints are recomputed, disagreements rejected", "[trust_store]") {
  json key = test_signer().key_file();
  CHECK(pith::registry::parse_key_file(key.dump(), "ok").has_value());

  json wrong_fp = key;
  wrong_fp["fingerprint_sha256_hex"] = "8d4b5ee74e4693bcd1df2446408b0d54";
  auto r = pith::registry::parse_key_file(wrong_fp.dump(), "wrong.json");
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().where == "wrong.json");
  CHECK(r.error().message.find("does not match the key") != std::string::npos);

  json wrong_b32 = key;
  wrong_b32["fingerprint_sha256_b32_first128bits"] = "RVFV5Z2OI2J3ZUO7ERDEBCYNKS";
  CHECK_FALSE(pith::registry::parse_key_file(wrong_b32.dump(), "x").has_value());

  json two_keys = key;
  two_keys["public_key_hex"] = pith::to_hex(other_signer().public_key());
  CHECK_FALSE(pith::registry::parse_key_file(two_keys.dump(), "x").has_value());

  json alg = key;
  alg["algorithm"] = "rsa";
  CHECK_FALSE(pith::registry::parse_key_file(alg.dump(), "x").has_value());

  json bad_b64 = key;
  bad_b64["public_key_b64"] = "AAAA";
  bad_b64.erase("public_key_hex");
  CHECK_FALSE(pith::registry::parse_key_file(bad_b64.dump(), "x").has_value());

  json bad_time = key;
  bad_time["not_after"] = "tomorrow";
  CHECK_FALSE(pith::registry::parse_key_file(bad_time.dump(), "x").has_value());

  json inverted = key;
  inverted["not_before"] = "2027-01-01T00:00:00Z";
  inverted["not_after"] = "2026-01-01T00:00:00Z";
  CHECK_FALSE(pith::registry::parse_key_file(inverted.dump(), "x").has_value());

  CHECK_FALSE(pith::registry::parse_key_file("{\"key_id\":\"a\",\"key_id\":\"b\"}", "dup").has_value());
  CHECK_FALSE(pith::registry::parse_key_file("not json", "x").has_value());
}

TEST_CASE("validity windows", "[trust_store]") {
  json key = test_signer().key_file();
  key["not_before"] = "2026-01-01T00:00:00Z";
  key["not_after"] = "2026-12-31T23:59:59Z";
  key["rotates_at"] = "2026-06-01T00:00:00Z";  // informational: not an expiry
  auto k = pith::registry::parse_key_file(key.dump(), "w");
  REQUIRE(k.has_value());
  CHECK(k->valid_at("2026-07-05T02:46:28Z"));
  CHECK(k->valid_at("2026-07-05T02:46:28.981389Z"));
  CHECK_FALSE(k->valid_at("2025-12-31T23:59:59Z"));
  CHECK_FALSE(k->valid_at("2027-01-01T00:00:00Z"));
  CHECK_FALSE(k->valid_at(""));  // unknown time: not inside a window
  CHECK_FALSE(k->valid_at("garbage"));
  pith::registry::TrustStore store;
  REQUIRE(store.add(*k).has_value());
  CHECK(store.find(k->key_id, k->fingerprint_hex, "2026-03-01T00:00:00Z").trusted());
  CHECK(store.find(k->key_id, k->fingerprint_hex, "2028-03-01T00:00:00Z").status == registry::KeyLookup::outside_window);
  // No window: any time, even unknown.
  CHECK(pith::registry::pinned_registry_key().valid_at(""));
}

TEST_CASE("a key id cannot be re-bound to another key", "[trust_store]") {
  pith::registry::TrustStore store = pith::registry::TrustStore::with_pinned_key();
  const TestSigner impostor("pith-v1-2026-05", "impostor");
  auto r = store.add(impostor.trusted_key());
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().message.find("already trusted") != std::string::npos);
  CHECK(store.add(pith::registry::pinned_registry_key()).has_value());  // the same key again is fine
  CHECK(store.keys().size() == 1);
}

TEST_CASE("the user trust directory and explicit key files", "[trust_store]") {
  const auto dir = fresh_temp_dir("trust");
  const auto keys = dir / "pith" / "keys";
  write_file(keys / "test.json", test_signer().key_file().dump(2));
  json bad = other_signer().key_file();
  bad["fingerprint_sha256_hex"] = "00";
  write_file(keys / "bad.json", bad.dump());
  write_file(keys / "ignored.txt", "not a key");
  ::setenv("XDG_CONFIG_HOME", dir.c_str(), 1);
  REQUIRE(pith::registry::TrustStore::user_key_dir() == keys);
  std::vector<std::string> warnings;
  const auto store = pith::registry::TrustStore::with_defaults(&warnings);
  ::unsetenv("XDG_CONFIG_HOME");
  CHECK(store.keys().size() == 2);
  CHECK(store.find("pith-test-2026", test_signer().fingerprint_hex()).trusted());
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0].find("bad.json") != std::string::npos);

  pith::registry::TrustStore explicit_store;
  CHECK(explicit_store.add_key_file(data_path("test-signing-key.json")).has_value());
  auto missing = explicit_store.add_key_file(dir / "missing.json");
  REQUIRE_FALSE(missing.has_value());
  CHECK(missing.error().where.find("missing.json") != std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("load: the one loader of a run's store, defaults then --trust-key files", "[trust_store]") {
  const auto dir = fresh_temp_dir("trust-load");
  json bad = other_signer().key_file();
  bad["fingerprint_sha256_hex"] = "00";
  write_file(dir / "pith" / "keys" / "bad.json", bad.dump());
  ::setenv("XDG_CONFIG_HOME", dir.c_str(), 1);
  std::vector<std::string> warnings;
  const auto store = pith::registry::TrustStore::load({data_path("test-signing-key.json").string()}, &warnings);
  REQUIRE(store.has_value());
  CHECK(store->keys().size() == 2);  // pinned + the --trust-key file; the bad directory key skipped
  CHECK(store->find("pith-test-2026", test_signer().fingerprint_hex()).trusted());
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0].find("bad.json") != std::string::npos);

  // An unusable --trust-key file: no store at all, the error names the file.
  warnings.clear();
  const auto refused = pith::registry::TrustStore::load({(dir / "missing.json").string()}, &warnings);
  ::unsetenv("XDG_CONFIG_HOME");
  REQUIRE_FALSE(refused.has_value());
  CHECK(refused.error().where.find("missing.json") != std::string::npos);
  CHECK(warnings.size() == 1);  // the directory's warnings still reach the caller
  std::filesystem::remove_all(dir);
}
