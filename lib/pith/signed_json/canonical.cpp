// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/signed_json/canonical.hpp"

#include "pith/base/crypto.hpp"

#include <vector>

namespace pith::signed_json {

using nlohmann::json;

namespace {

// Iterative walk: a float anywhere means there is no canonical form.
const json* find_float(const json& root) {
  std::vector<const json*> todo{&root};
  while (!todo.empty()) {
    const json* v = todo.back();
    todo.pop_back();
    if (v->is_number_float()) return v;
    if (v->is_structured()) {
      for (const auto& child : *v) todo.push_back(&child);
    }
  }
  return nullptr;
}

}  // namespace

std::string canon(const json& value) {
  if (find_float(value) != nullptr) {
    throw CanonicalJsonError("canonical JSON: floats have no canonical form");
  }
  try {
    // indent -1 gives "," and ":" with no spaces; ensure_ascii=false keeps
    // UTF-8 raw; strict error handling refuses invalid UTF-8.
    return value.dump(-1, ' ', false, json::error_handler_t::strict);
  } catch (const json::type_error& e) {
    throw CanonicalJsonError(std::string("canonical JSON: ") + e.what());
  }
}

Result<std::string> try_canon(const json& value) {
  try {
    return canon(value);
  } catch (const CanonicalJsonError& e) {
    return fail(ErrorKind::malformed, "", e.what());
  }
}

std::string canon_without(const json& object, std::initializer_list<std::string_view> skip) {
  if (!object.is_object()) return canon(object);
  std::string out = "{";
  bool first = true;
  // nlohmann's object is a std::map: iteration is already in key order.
  for (auto it = object.begin(); it != object.end(); ++it) {
    bool skipped = false;
    for (std::string_view k : skip) skipped = skipped || it.key() == k;
    if (skipped) continue;
    if (!first) out += ',';
    first = false;
    out += canon(json(it.key()));
    out += ':';
    out += canon(it.value());
  }
  out += '}';
  return out;
}

std::string canonical_sha256_hex(const json& value) { return sha256_hex(canon(value)); }

json without_key(const json& value, const char* key) {
  json copy = value;
  if (copy.is_object()) copy.erase(key);
  return copy;
}

}  // namespace pith::signed_json
