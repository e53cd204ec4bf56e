// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Canonical JSON: the exact bytes the registry hashes and signs.
// canon(x) is byte-identical to Python's
//   json.dumps(x, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
// for the values signed data may hold (objects, arrays, strings, integers,
// true/false/null): keys sorted by code point (UTF-8 byte order is code point
// order), no whitespace, non-ASCII as raw UTF-8, `"` `\` and control
// characters escaped (\n \r \t \b \f, else \u00xx in lower-case hex), `/` and
// 0x7f left raw. Floats are refused: their text differs between Python and
// C++, so no hash over them is portable.
#include "pith/base/error.hpp"

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <initializer_list>
#include <string>
#include <string_view>

namespace pith::signed_json {

// Thrown by canon() on a value that has no canonical form (a float, invalid
// UTF-8). Data from parse_strict() never triggers it.
class CanonicalJsonError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

[[nodiscard]] std::string canon(const nlohmann::json& value);
// The same, as a value instead of an exception.
[[nodiscard]] Result<std::string> try_canon(const nlohmann::json& value);

// sha256(canon(value)) as lower-case hex.
[[nodiscard]] std::string canonical_sha256_hex(const nlohmann::json& value);

// canon(value minus the top-level keys in `skip`), without copying `value`:
// the input of the registry's self-hashes (bundle minus bundle_signature,
// state minus state_sha256, event minus signature/event_id/content_sha256).
[[nodiscard]] std::string canon_without(const nlohmann::json& object, std::initializer_list<std::string_view> skip);

// `value` without the top-level key `key` (e.g. a bundle minus
// bundle_signature), the input of the registry's self-hashes.
[[nodiscard]] nlohmann::json without_key(const nlohmann::json& value, const char* key);

}  // namespace pith::signed_json
