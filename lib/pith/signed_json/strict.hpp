// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A strict JSON parser for signed data. Two readers of the same signed bytes
// must see the same values, so anything a parser may resolve differently is
// rejected: duplicate object keys, invalid UTF-8 (including lone surrogates
// in \u escapes), NaN/Infinity (not JSON anyway), floats (Python and C++
// print them differently, so they cannot be hashed portably), nesting deeper
// than a bound and documents larger than a bound. Every error names the JSON
// path where it happened (`$.events[1].payload`).
#include "pith/base/error.hpp"

#include <cstddef>
#include <expected>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace pith::signed_json {

struct StrictJsonLimits {
  std::size_t max_bytes = 8u * 1024u * 1024u;  // 8 MiB: a bundle is ~15 KiB
  std::size_t max_depth = 64;                  // containers nested inside each other
  bool allow_floats = false;  // registry data has none; hashed data must not
};

enum class JsonProblem { syntax, too_large, too_deep, duplicate_key, float_number, invalid_utf8 };
[[nodiscard]] const char* to_string(JsonProblem p);

struct StrictJsonError {
  JsonProblem problem = JsonProblem::syntax;
  std::string path;         // JSON path of the offending value, `$` for the root
  std::size_t byte_offset = 0;
  std::size_t line = 0;     // syntax and invalid_utf8: where, as an editor counts (from 1)
  std::size_t column = 0;
  std::string message;      // ASCII only: never echoes the offending bytes

  // Not valid JSON at all: the message says where (line and column), a JSON path would say nothing more.
  [[nodiscard]] bool is_syntax() const { return problem == JsonProblem::syntax || problem == JsonProblem::invalid_utf8; }
  [[nodiscard]] Error to_error() const { return Error{ErrorKind::malformed, is_syntax() ? std::string() : path, message}; }
};

// Parses `bytes` as one JSON document under `limits`.
[[nodiscard]] std::expected<nlohmann::json, StrictJsonError> parse_strict(std::string_view bytes,
                                                                          const StrictJsonLimits& limits = {});
// The same, with the error as a pith::Error (where = JSON path).
[[nodiscard]] Result<nlohmann::json> parse_strict_json(std::string_view bytes, const StrictJsonLimits& limits = {});

// `$`, `$.key`, `$["odd key"]`, `$.events[1]`: how paths are spelled in messages.
[[nodiscard]] std::string json_path_member(const std::string& parent, const std::string& key);
[[nodiscard]] std::string json_path_index(const std::string& parent, std::size_t index);

}  // namespace pith::signed_json
