// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Pith Numbers: `pith:YYYY:<26>`. The body is the first 130 bits of the
// record's canonical SHA-256 in RFC 4648 base32 (A-Z2-7, no padding); the
// year is that of metadata.submitted_at. Short forms `pith:<8|12|16>` are
// prefixes of the body; at arXiv scale an 8-character (40-bit) prefix is not
// unique, so anything durable (a PDF) carries the full form.
// Registry key fingerprints use the same 130-bit codec.
#include "pith/base/crypto.hpp"
#include "pith/base/error.hpp"

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace pith::registry {

inline constexpr std::size_t pith_body_length = 26;

// First 130 bits of `digest` in base32: 26 characters.
[[nodiscard]] std::string base32_130(const Sha256Digest& digest);

// The four-digit year of metadata.submitted_at ("2020-11-07T00:18:43Z" → 2020).
[[nodiscard]] Result<int> record_year(const nlohmann::json& canonical_record);

// How a Pith Number was written.
enum class NumberForm {
  full,         // pith:YYYY:<26>
  body,         // <26> or pith:<26>: the whole body, year not given
  short_prefix  // pith:<8|12|16> or a bare 8/12/16 prefix: must be resolved
};

// A Pith Number in any written form, normalised (upper case). One value type
// for every place a number is read (user input, PDF metadata, \pithnumber,
// registry documents) and one equality rule (`matches`).
struct PithNumber {
  NumberForm form = NumberForm::full;
  std::optional<int> year;  // only in the full form
  std::string body;         // 26 characters, or the 8/12/16-character prefix

  // The full form of a number whose year and 26-character body are known
  // (derived from a record).
  [[nodiscard]] static PithNumber full(int year, std::string body);

  [[nodiscard]] bool is_full() const { return form == NumberForm::full; }
  [[nodiscard]] bool is_short() const { return form == NumberForm::short_prefix; }
  [[nodiscard]] bool has_whole_body() const { return body.size() == pith_body_length; }
  // The canonical spelling: pith:YYYY:<26>, pith:<26>, or pith:<prefix>.
  [[nodiscard]] std::string to_string() const;
  // The short form of the first `length` (8, 12 or 16) body characters.
  [[nodiscard]] PithNumber short_form(std::size_t length = 8) const;
  // The one equality rule: both name the same paper. The bodies agree (a
  // short form matches every body it is a prefix of) and, when BOTH carry a
  // year, the years agree; different years are a conflict, never a match.
  // Symmetric: a.matches(b) == b.matches(a).
  [[nodiscard]] bool matches(const PithNumber& other) const;
  // The same spelling (form, year, body): two full numbers of records are
  // the same record's exactly when equal. `matches` is the looser rule.
  friend bool operator==(const PithNumber&, const PithNumber&) = default;
};

// Whether two written numbers name the same paper: both parse and `matches`
// (text that is not a Pith Number names nothing).
[[nodiscard]] bool same_number(std::string_view a, std::string_view b);
// Whether `written` (a report's, a file's, a user's text) parses and matches `number`.
[[nodiscard]] bool same_number(const PithNumber& number, std::string_view written);

// The only Pith Number parser. Accepts `pith:YYYY:<26>`, `pith:<26>`, a bare
// 26-character body, and the short forms `pith:<8|12|16>` (or bare 8/12/16
// characters); any case, surrounding whitespace. Errors name the offending
// character and its 1-based position in the input as given, and why.
[[nodiscard]] Result<PithNumber> parse_pith_number(std::string_view input);

// A year as a number writes it: four digits (2020, 0999).
[[nodiscard]] std::string four_digit_year(int year);

struct DerivedNumber {
  PithNumber number;             // the full form, pith:YYYY:<26>
  std::string canonical_json;    // canon(record): the hashed bytes
  std::string canonical_sha256;  // lower-case hex
};
// Derives the number a canonical record names. Fails on a record without a
// well-formed submitted_at or one with no canonical form (floats).
[[nodiscard]] Result<DerivedNumber> derive_pith_number(const nlohmann::json& canonical_record);

// Registry key fingerprints (pith-signing-key.json):
// fingerprint_sha256_hex = hex of the first 16 bytes of sha256(raw key);
// fingerprint_sha256_b32_first128bits = base32_130(sha256(raw key)).
[[nodiscard]] std::string key_fingerprint_hex(const Ed25519PublicKey& key);
[[nodiscard]] std::string key_fingerprint_b32(const Ed25519PublicKey& key);

}  // namespace pith::registry
