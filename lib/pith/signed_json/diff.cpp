// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/signed_json/diff.hpp"

#include "pith/signed_json/strict.hpp"

#include <set>

namespace pith::signed_json {

using nlohmann::json;

std::string json_preview(const json& value, std::size_t max) {
  std::string s = value.dump(-1, ' ', false, json::error_handler_t::replace);
  if (s.size() <= max) return s;
  std::size_t cut = max;
  // Do not cut inside a UTF-8 sequence.
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return s.substr(0, cut) + "...";
}

std::string JsonDifference::describe(const char* left_name, const char* right_name) const {
  return "first difference at " + path + ": " + left_name + " " + left + ", " + right_name + " " + right;
}

namespace {

std::optional<JsonDifference> diff(const json& a, const json& b, const std::string& path) {
  // Signed and unsigned integers of equal value are equal (nlohmann keeps two types).
  if (a.is_number() && b.is_number()) {
    if (a != b) return JsonDifference{path, json_preview(a), json_preview(b)};
    return std::nullopt;
  }
  if (a.type() != b.type()) return JsonDifference{path, json_preview(a), json_preview(b)};
  if (a.is_object()) {
    std::set<std::string> keys;
    for (auto it = a.begin(); it != a.end(); ++it) keys.insert(it.key());
    for (auto it = b.begin(); it != b.end(); ++it) keys.insert(it.key());
    for (const auto& k : keys) {
      const std::string child = json_path_member(path, k);
      auto ia = a.find(k);
      auto ib = b.find(k);
      if (ia == a.end()) return JsonDifference{child, "(absent)", json_preview(*ib)};
      if (ib == b.end()) return JsonDifference{child, json_preview(*ia), "(absent)"};
      if (auto d = diff(*ia, *ib, child)) return d;
    }
    return std::nullopt;
  }
  if (a.is_array()) {
    const std::size_t n = std::min(a.size(), b.size());
    for (std::size_t i = 0; i < n; ++i) {
      if (auto d = diff(a[i], b[i], json_path_index(path, i))) return d;
    }
    if (a.size() != b.size()) {
      const std::string child = json_path_index(path, n);
      return a.size() > n ? JsonDifference{child, json_preview(a[n]), "(absent)"}
                          : JsonDifference{child, "(absent)", json_preview(b[n])};
    }
    return std::nullopt;
  }
  if (a != b) return JsonDifference{path, json_preview(a), json_preview(b)};
  return std::nullopt;
}

}  // namespace

std::optional<JsonDifference> first_difference(const json& left, const json& right) { return diff(left, right, "$"); }

}  // namespace pith::signed_json
