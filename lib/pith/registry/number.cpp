// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/registry/number.hpp"

#include "pith/base/ascii.hpp"
#include "pith/signed_json/canonical.hpp"

#include <algorithm>

namespace pith::registry {

namespace {

constexpr const char* base32_alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

bool is_base32_char(char c) { return (c >= 'A' && c <= 'Z') || (c >= '2' && c <= '7'); }

std::string describe_char(char c) {
  const auto u = static_cast<unsigned char>(c);
  if (u >= 0x21 && u < 0x7f) return std::string("'") + c + "'";
  static const char* hex = "0123456789abcdef";
  return std::string("byte 0x") + hex[u >> 4] + hex[u & 15];
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

}  // namespace

std::string base32_130(const Sha256Digest& digest) {
  std::string out;
  out.reserve(pith_body_length);
  // Read 5 bits at a time, most significant first, across byte boundaries.
  for (std::size_t i = 0; i < pith_body_length; ++i) {
    const std::size_t bit = i * 5;
    const std::size_t byte = bit / 8;
    const std::size_t shift = bit % 8;
    unsigned window = static_cast<unsigned>(digest[byte]) << 8;
    if (byte + 1 < digest.size()) window |= digest[byte + 1];
    const unsigned value = (window >> (11 - shift)) & 31u;
    out += base32_alphabet[value];
  }
  return out;
}

Result<int> record_year(const nlohmann::json& record) {
  const auto* meta = record.is_object() && record.contains("metadata") ? &record["metadata"] : nullptr;
  if (meta == nullptr || !meta->is_object() || !meta->contains("submitted_at") ||
      !(*meta)["submitted_at"].is_string()) {
    return fail(ErrorKind::malformed, "$.metadata.submitted_at", "missing (the year of a Pith Number comes from it)");
  }
  const std::string& s = (*meta)["submitted_at"].get_ref<const std::string&>();
  if (s.size() < 5 || s[4] != '-') return fail(ErrorKind::malformed, "$.metadata.submitted_at", "not an ISO 8601 date: \"" + s.substr(0, 40) + "\"");
  int year = 0;
  for (std::size_t i = 0; i < 4; ++i) {
    if (s[i] < '0' || s[i] > '9') return fail(ErrorKind::malformed, "$.metadata.submitted_at", "year is not four digits");
    year = year * 10 + (s[i] - '0');
  }
  return year;
}

Result<DerivedNumber> derive_pith_number(const nlohmann::json& record) {
  auto year = record_year(record);
  if (!year) return std::unexpected(year.error());
  auto text = signed_json::try_canon(record);
  if (!text) return std::unexpected(text.error());
  const Sha256Digest digest = sha256(*text);
  DerivedNumber out;
  out.number = PithNumber::full(*year, base32_130(digest));
  out.canonical_sha256 = to_hex(digest);
  out.canonical_json = std::move(*text);
  return out;
}

std::string four_digit_year(int year) {
  std::string y = std::to_string(year);
  while (y.size() < 4) y.insert(y.begin(), '0');
  return y;
}

PithNumber PithNumber::full(int year, std::string body) {
  return PithNumber{NumberForm::full, year, std::move(body)};
}

std::string PithNumber::to_string() const {
  if (form == NumberForm::full && year) return "pith:" + four_digit_year(*year) + ":" + body;
  return "pith:" + body;
}

PithNumber PithNumber::short_form(std::size_t length) const {
  return PithNumber{NumberForm::short_prefix, std::nullopt, body.substr(0, length)};
}

bool PithNumber::matches(const PithNumber& other) const {
  const std::size_t common = std::min(body.size(), other.body.size());
  if (common == 0 || body.compare(0, common, other.body, 0, common) != 0) return false;
  return !(year && other.year && *year != *other.year);
}

bool same_number(std::string_view a, std::string_view b) {
  const auto first = parse_pith_number(a);
  const auto second = parse_pith_number(b);
  return first && second && first->matches(*second);
}

bool same_number(const PithNumber& number, std::string_view written) {
  const auto parsed = parse_pith_number(written);
  return parsed && number.matches(*parsed);
}

Result<PithNumber> parse_pith_number(std::string_view input) {
  std::size_t begin = 0;
  std::size_t end = input.size();
  while (begin < end && is_space(input[begin])) ++begin;
  while (end > begin && is_space(input[end - 1])) --end;
  if (begin == end) return fail(ErrorKind::malformed, "", "empty Pith Number");

  PithNumber out;
  std::size_t pos = begin;  // index into input of the body's first character
  auto lower_prefix = [&](std::string_view p) {
    return starts_with_ascii_case_blind(input.substr(pos, end - pos), p);
  };
  const bool prefixed = lower_prefix("pith:");
  if (prefixed) {
    pos += 5;
    // pith:YYYY:<body> — four digits and a colon.
    if (end - pos >= 5 && input[pos + 4] == ':') {
      int year = 0;
      for (std::size_t i = 0; i < 4; ++i) {
        const char c = input[pos + i];
        if (c < '0' || c > '9') {
          return fail(ErrorKind::malformed, "", "invalid character " + describe_char(c) + " at position " + std::to_string(pos + i + 1) +
                              " (the year of pith:YYYY:... is four digits)");
        }
        year = year * 10 + (c - '0');
      }
      out.year = year;
      pos += 5;
    }
  }

  std::string body;
  for (std::size_t i = pos; i < end; ++i) {
    const char c = ascii_upper(input[i]);
    if (!is_base32_char(c)) {
      std::string why = " (Pith Number bodies use A-Z and 2-7";
      if (c == '0' || c == '1' || c == '8' || c == '9') why += "; 0, 1, 8 and 9 never occur";
      why += ")";
      return fail(ErrorKind::malformed, "", "invalid character " + describe_char(input[i]) + " at position " + std::to_string(i + 1) + why);
    }
    body += c;
  }

  if (out.year) {
    if (body.size() != pith_body_length) {
      return fail(ErrorKind::malformed, "", "pith:YYYY: must be followed by the 26-character body, got " + std::to_string(body.size()) +
                          " characters");
    }
    out.form = NumberForm::full;
  } else if (body.size() == pith_body_length) {
    out.form = NumberForm::body;
  } else if (body.size() == 8 || body.size() == 12 || body.size() == 16) {
    out.form = NumberForm::short_prefix;
  } else {
    return fail(ErrorKind::malformed, "", "a Pith Number body has 26 characters (short forms 8, 12 or 16), got " +
                        std::to_string(body.size()));
  }
  out.body = std::move(body);
  return out;
}

std::string key_fingerprint_hex(const Ed25519PublicKey& key) {
  const Sha256Digest d = sha256(std::span<const std::uint8_t>(key.data(), key.size()));
  return to_hex(std::span<const std::uint8_t>(d.data(), 16));
}

std::string key_fingerprint_b32(const Ed25519PublicKey& key) {
  return base32_130(sha256(std::span<const std::uint8_t>(key.data(), key.size())));
}

}  // namespace pith::registry
