// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The keys pith trusts, and nothing else. A signature counts only when its key
// is in this store, matched by key_id AND fingerprint. Keys shipped inside the
// data being verified (a bundle's `public_keys`) are hints, never trusted.
//
// Sources, in order: the registry key `pith-v1-2026-05` pinned in the code;
// key files in the user's trust directory `$XDG_CONFIG_HOME/pith/keys/*.json`
// (default ~/.config/pith/keys); explicit files (`--trust-key FILE`). Key
// files use the registry's own format (pith-signing-key.json). On load, the
// fingerprint is recomputed from the key bytes; a file whose
// `fingerprint_sha256_hex` (or b32 field) disagrees is rejected, as is one
// whose public_key_b64 and public_key_hex disagree.
//
// Validity window (optional): `not_before` / `not_after`, ISO 8601 UTC
// (`2026-05-01T00:00:00Z`). A key is trusted for a signature only if the
// signed time claim of that data (event `created_at`, bundle `built_at`, the
// record_created event's `created_at` for its receipt) falls inside the
// window; with no window the key is always in force. The registry's own
// `rotates_at` is read but NOT used as an expiry: it announces when new
// records switch keys, and records signed before stay valid.
#include "pith/base/crypto.hpp"
#include "pith/base/error.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pith::registry {

struct TrustedKey {
  std::string key_id;
  Ed25519PublicKey public_key{};
  std::string fingerprint_hex;  // recomputed from public_key, never read from data
  std::string fingerprint_b32;
  std::optional<std::string> not_before;  // ISO 8601 UTC
  std::optional<std::string> not_after;
  std::optional<std::string> rotates_at;  // informational only
  std::string origin;                     // "pinned" or the file it came from

  // Whether `time` (ISO 8601 UTC; empty = unknown) is inside the window.
  // An unknown time is inside only when the key has no window.
  [[nodiscard]] bool valid_at(std::string_view time) const;
  [[nodiscard]] std::string window_text() const;
};

// The registry key pinned in this build.
inline constexpr const char* registry_key_id = "pith-v1-2026-05";
[[nodiscard]] const TrustedKey& pinned_registry_key();

// Parses a key file (pith-signing-key.json format). `origin` names it in errors.
[[nodiscard]] Result<TrustedKey> parse_key_file(std::string_view bytes, std::string_view origin);

enum class KeyLookup { trusted, unknown_key_id, fingerprint_mismatch, outside_window };

struct KeyMatch {
  KeyLookup status = KeyLookup::unknown_key_id;
  const TrustedKey* key = nullptr;  // set for trusted, fingerprint_mismatch and outside_window
  [[nodiscard]] bool trusted() const { return status == KeyLookup::trusted; }
  // One line saying why a key is not trusted (empty when trusted).
  [[nodiscard]] std::string explain(std::string_view key_id, std::string_view fingerprint) const;
};

class TrustStore {
 public:
  // An empty store (tests; `--no-default-keys` style uses).
  TrustStore() = default;
  // The pinned registry key only.
  [[nodiscard]] static TrustStore with_pinned_key();
  // Pinned key + the user's trust directory. Bad files in the directory are
  // skipped and reported in `warnings` (skipping a key never adds trust).
  [[nodiscard]] static TrustStore with_defaults(std::vector<std::string>* warnings = nullptr);
  // The trust store of a run, the one loader every tool and job uses: the
  // defaults above (their warnings in `warnings`), then each `key_files`
  // entry (--trust-key FILE) in order. A key file that cannot be used is an
  // error (no store: a run never goes on trusting less than it was told to).
  [[nodiscard]] static Result<TrustStore> load(const std::vector<std::string>& key_files,
                                               std::vector<std::string>* warnings = nullptr);

  // Adds a key; fails if the same key_id is already present with other bytes.
  [[nodiscard]] Result<void> add(TrustedKey key);
  [[nodiscard]] Result<void> add_key_file(const std::filesystem::path& file);
  // Loads every *.json in `dir` (sorted by name). Missing dir: nothing added.
  [[nodiscard]] std::vector<Error> add_key_dir(const std::filesystem::path& dir);

  // $XDG_CONFIG_HOME/pith/keys, else $HOME/.config/pith/keys.
  [[nodiscard]] static std::optional<std::filesystem::path> user_key_dir();

  // Looks a signature's key up by key_id AND fingerprint (fingerprint_sha256_hex),
  // optionally at a signed time claim (ISO 8601; empty = unknown).
  [[nodiscard]] KeyMatch find(std::string_view key_id, std::string_view fingerprint_hex,
                              std::string_view at_time = {}) const;
  [[nodiscard]] const TrustedKey* find_by_id(std::string_view key_id) const;

  [[nodiscard]] const std::vector<TrustedKey>& keys() const { return keys_; }

 private:
  std::vector<TrustedKey> keys_;
};

}  // namespace pith::registry
