// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The first place two JSON values differ, as a JSON path, for reports such
// as "state recomputed from events differs at $.current.source_aliases[2]".
// Objects are walked in key (code point) order, arrays by index.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace pith::signed_json {

struct JsonDifference {
  std::string path;        // e.g. $.current.record_created.created_at
  std::string left;        // short preview of the left value ("(absent)" if missing)
  std::string right;
  [[nodiscard]] std::string describe(const char* left_name, const char* right_name) const;
};

[[nodiscard]] std::optional<JsonDifference> first_difference(const nlohmann::json& left, const nlohmann::json& right);

// A value shortened for a one-line message (valid UTF-8 kept, at most ~`max` bytes).
[[nodiscard]] std::string json_preview(const nlohmann::json& value, std::size_t max = 80);

}  // namespace pith::signed_json
