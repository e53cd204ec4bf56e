// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/registry/trust_store.hpp"

#include "pith/base/input_file.hpp"

#include "pith/registry/number.hpp"
#include "pith/signed_json/strict.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace pith::registry {

namespace {
// A key file is a few hundred bytes.
constexpr std::size_t max_key_file_bytes = 64u * 1024u;
}  // namespace


using nlohmann::json;

namespace {

// The registry key, as published at https://pith.science/pith-signing-key.json
// (copy in tests/data/pith-signing-key.json; a test checks they agree and that
// the fingerprint below is recomputed from these bytes).
constexpr const char* pinned_key_b64 = "stVStoiQhXFxp4s2pdzPNoqVNBMojDU/fJ2db5S3CbM=";

// `YYYY-MM-DDTHH:MM:SS` followed by optional fraction and `Z`: such strings
// compare correctly as text once cut to their first 19 characters.
bool is_utc_timestamp(std::string_view t) {
  if (t.size() < 20 || t.back() != 'Z') return false;
  static const char* shape = "dddd-dd-ddTdd:dd:dd";
  for (std::size_t i = 0; i < 19; ++i) {
    const char c = t[i];
    if (shape[i] == 'd' ? !(c >= '0' && c <= '9') : c != shape[i]) return false;
  }
  return true;
}

Result<std::optional<std::string>> optional_time(const json& doc, const char* key, std::string_view origin) {
  if (!doc.contains(key) || doc[key].is_null()) return std::optional<std::string>{};
  if (!doc[key].is_string() || !is_utc_timestamp(doc[key].get_ref<const std::string&>())) {
    return fail(ErrorKind::malformed, std::string(origin), std::string("\"") + key + "\" is not an ISO 8601 UTC time (YYYY-MM-DDTHH:MM:SSZ)");
  }
  return std::optional<std::string>{doc[key].get<std::string>()};
}

TrustedKey make_pinned() {
  auto raw = from_base64_fixed<32>(pinned_key_b64);
  TrustedKey k;
  k.key_id = registry_key_id;
  k.public_key = *raw;  // a constant: decoding cannot fail (tested)
  k.fingerprint_hex = key_fingerprint_hex(k.public_key);
  k.fingerprint_b32 = key_fingerprint_b32(k.public_key);
  k.origin = "pinned";
  return k;
}

}  // namespace

bool TrustedKey::valid_at(std::string_view time) const {
  if (!not_before && !not_after) return true;
  if (!is_utc_timestamp(time)) return false;
  const std::string_view t = time.substr(0, 19);
  if (not_before && t < std::string_view(*not_before).substr(0, 19)) return false;
  if (not_after && t > std::string_view(*not_after).substr(0, 19)) return false;
  return true;
}

std::string TrustedKey::window_text() const {
  if (!not_before && !not_after) return "no validity window";
  return "valid " + (not_before ? *not_before : std::string("(any time)")) + " to " +
         (not_after ? *not_after : std::string("(no end)"));
}

const TrustedKey& pinned_registry_key() {
  static const TrustedKey key = make_pinned();
  return key;
}

Result<TrustedKey> parse_key_file(std::string_view bytes, std::string_view origin) {
  const std::string where(origin);
  signed_json::StrictJsonLimits limits;
  limits.max_bytes = 64 * 1024;
  auto doc = signed_json::parse_strict_json(bytes, limits);
  if (!doc) return std::unexpected(doc.error().within(where));
  if (!doc->is_object()) return fail(ErrorKind::malformed, where, "a key file is a JSON object");
  auto str = [&](const char* key) -> const std::string* {
    return doc->contains(key) && (*doc)[key].is_string() ? &(*doc)[key].get_ref<const std::string&>() : nullptr;
  };
  const std::string* key_id = str("key_id");
  if (!key_id || key_id->empty()) return fail(ErrorKind::malformed, where, "missing \"key_id\"");
  if (const std::string* alg = str("algorithm"); !alg || *alg != "ed25519") {
    return fail(ErrorKind::malformed, where, "\"algorithm\" must be \"ed25519\"");
  }
  if (const std::string* fmt = str("format"); fmt && *fmt != "raw") return fail(ErrorKind::malformed, where, "\"format\" must be \"raw\"");

  TrustedKey k;
  k.key_id = *key_id;
  const std::string* b64 = str("public_key_b64");
  const std::string* hex = str("public_key_hex");
  if (!b64 && !hex) return fail(ErrorKind::malformed, where, "missing \"public_key_b64\" (or \"public_key_hex\")");
  if (b64) {
    auto raw = from_base64_fixed<32>(*b64);
    if (!raw) return fail(ErrorKind::malformed, where, "public_key_b64: " + raw.error().message);
    k.public_key = *raw;
  }
  if (hex) {
    auto raw = from_hex_fixed<32>(*hex);
    if (!raw) return fail(ErrorKind::malformed, where, "public_key_hex: " + raw.error().message);
    if (b64 && *raw != k.public_key) return fail(ErrorKind::malformed, where, "public_key_hex and public_key_b64 are different keys");
    k.public_key = *raw;
  }
  k.fingerprint_hex = key_fingerprint_hex(k.public_key);
  k.fingerprint_b32 = key_fingerprint_b32(k.public_key);
  if (const std::string* fp = str("fingerprint_sha256_hex"); fp && *fp != k.fingerprint_hex) {
    return fail(ErrorKind::malformed, where, "fingerprint_sha256_hex " + *fp + " does not match the key (its fingerprint is " +
                           k.fingerprint_hex + ")");
  }
  if (const std::string* fp = str("fingerprint_sha256_b32_first128bits"); fp && *fp != k.fingerprint_b32) {
    return fail(ErrorKind::malformed, where, "fingerprint_sha256_b32_first128bits " + *fp + " does not match the key (its fingerprint is " +
                           k.fingerprint_b32 + ")");
  }
  auto nb = optional_time(*doc, "not_before", origin);
  if (!nb) return std::unexpected(nb.error());
  auto na = optional_time(*doc, "not_after", origin);
  if (!na) return std::unexpected(na.error());
  auto ra = optional_time(*doc, "rotates_at", origin);
  if (!ra) return std::unexpected(ra.error());
  k.not_before = *nb;
  k.not_after = *na;
  k.rotates_at = *ra;
  if (k.not_before && k.not_after && k.not_before->substr(0, 19) > k.not_after->substr(0, 19)) {
    return fail(ErrorKind::malformed, where, "not_before is after not_after");
  }
  k.origin = where;
  return k;
}

std::string KeyMatch::explain(std::string_view key_id, std::string_view fingerprint) const {
  const std::string id(key_id);
  const std::string fp(fingerprint);
  switch (status) {
    case KeyLookup::trusted: return {};
    case KeyLookup::unknown_key_id:
      return "key " + id + " (fingerprint " + (fp.empty() ? "none given" : fp) + ") is not in the trust store";
    case KeyLookup::fingerprint_mismatch:
      return "key id " + id + " is trusted with fingerprint " + key->fingerprint_hex + ", but the data names " +
             (fp.empty() ? "no fingerprint" : fp);
    case KeyLookup::outside_window:
      return "key " + id + " is trusted only " + key->window_text() + "; the data's signed time is outside it";
  }
  return "untrusted key";
}

TrustStore TrustStore::with_pinned_key() {
  TrustStore s;
  s.keys_.push_back(pinned_registry_key());
  return s;
}

TrustStore TrustStore::with_defaults(std::vector<std::string>* warnings) {
  TrustStore s = with_pinned_key();
  if (auto dir = user_key_dir()) {
    for (const Error& e : s.add_key_dir(*dir)) {
      if (warnings) warnings->push_back(e.describe() + " (key skipped)");
    }
  }
  return s;
}

Result<TrustStore> TrustStore::load(const std::vector<std::string>& key_files, std::vector<std::string>* warnings) {
  TrustStore s = with_defaults(warnings);
  for (const auto& file : key_files) {
    if (auto added = s.add_key_file(file); !added) return std::unexpected(added.error());
  }
  return s;
}

Result<void> TrustStore::add(TrustedKey key) {
  for (const TrustedKey& k : keys_) {
    if (k.key_id == key.key_id) {
      if (k.public_key != key.public_key) {
        return fail(ErrorKind::usage, key.origin, "key id " + key.key_id + " is already trusted (" + k.origin + ") with another key");
      }
      return {};  // the same key twice: nothing to add
    }
  }
  keys_.push_back(std::move(key));
  return {};
}

Result<void> TrustStore::add_key_file(const std::filesystem::path& file) {
  if (auto mine = check_not_writable_by_others(file, "key file"); !mine) return mine;
  auto bytes = read_input_file(file, max_key_file_bytes);
  if (!bytes) return std::unexpected(bytes.error());
  auto key = parse_key_file(*bytes, file.string());
  if (!key) return std::unexpected(key.error());
  return add(std::move(*key));
}

std::vector<Error> TrustStore::add_key_dir(const std::filesystem::path& dir) {
  std::vector<Error> errors;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return errors;
  // A directory others can write lets them add keys: none of it is trusted.
  if (auto mine = check_not_writable_by_others(dir, "key directory"); !mine) return {mine.error()};
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    if (auto r = add_key_file(f); !r) errors.push_back(r.error());
  }
  return errors;
}

std::optional<std::filesystem::path> TrustStore::user_key_dir() {
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg) {
    return std::filesystem::path(xdg) / "pith" / "keys";
  }
  if (const char* home = std::getenv("HOME"); home && *home) {
    return std::filesystem::path(home) / ".config" / "pith" / "keys";
  }
  return std::nullopt;
}

KeyMatch TrustStore::find(std::string_view key_id, std::string_view fingerprint_hex, std::string_view at_time) const {
  const TrustedKey* k = find_by_id(key_id);
  if (k == nullptr) return KeyMatch{KeyLookup::unknown_key_id, nullptr};
  if (fingerprint_hex != k->fingerprint_hex) return KeyMatch{KeyLookup::fingerprint_mismatch, k};
  if (!k->valid_at(at_time)) return KeyMatch{KeyLookup::outside_window, k};
  return KeyMatch{KeyLookup::trusted, k};
}

const TrustedKey* TrustStore::find_by_id(std::string_view key_id) const {
  for (const TrustedKey& k : keys_) {
    if (k.key_id == key_id) return &k;
  }
  return nullptr;
}

}  // namespace pith::registry
