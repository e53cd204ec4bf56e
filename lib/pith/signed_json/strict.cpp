// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/signed_json/strict.hpp"

#include <vector>

namespace pith::signed_json {

using nlohmann::json;

const char* to_string(JsonProblem p) {
  switch (p) {
    case JsonProblem::syntax: return "syntax";
    case JsonProblem::too_large: return "too_large";
    case JsonProblem::too_deep: return "too_deep";
    case JsonProblem::duplicate_key: return "duplicate_key";
    case JsonProblem::float_number: return "float_number";
    case JsonProblem::invalid_utf8: return "invalid_utf8";
  }
  return "?";
}

namespace {

bool is_identifier(const std::string& key) {
  if (key.empty()) return false;
  for (char c : key) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    if (!ok) return false;
  }
  return !(key[0] >= '0' && key[0] <= '9');
}

// Keys are echoed into messages; keep them printable ASCII and short.
std::string printable(const std::string& s, std::size_t max = 64) {
  std::string out;
  for (unsigned char c : s) {
    if (out.size() >= max) {
      out += "...";
      break;
    }
    if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
      out += static_cast<char>(c);
    } else {
      static const char* hex = "0123456789abcdef";
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

}  // namespace

std::string json_path_member(const std::string& parent, const std::string& key) {
  if (is_identifier(key)) return parent + "." + key;
  return parent + "[\"" + printable(key) + "\"]";
}

std::string json_path_index(const std::string& parent, std::size_t index) {
  return parent + "[" + std::to_string(index) + "]";
}

namespace {

// Builds the document like nlohmann's DOM parser, but refuses what signed
// data must not contain, remembering where it is so errors carry a path.
class StrictSax {
 public:
  explicit StrictSax(const StrictJsonLimits& limits) : limits_(limits) {}

  bool null() { return value(json(nullptr)); }
  bool boolean(bool v) { return value(json(v)); }
  bool number_integer(json::number_integer_t v) { return value(json(v)); }
  bool number_unsigned(json::number_unsigned_t v) { return value(json(v)); }
  bool number_float(json::number_float_t v, const std::string& text) {
    if (!limits_.allow_floats) {
      // Integers beyond 64 bits also arrive here; both are unportable in hashes.
      return reject(JsonProblem::float_number, path_of_next_value(),
                    "number " + printable(text, 40) + " is not an integer within 64 bits (floats are not allowed in signed data)");
    }
    return value(json(v));
  }
  bool string(std::string& v) { return value(json(std::move(v))); }
  bool binary(json::binary_t&) { return reject(JsonProblem::syntax, path_of_next_value(), "binary values are not JSON"); }

  bool start_object(std::size_t) { return open(json::object()); }
  bool start_array(std::size_t) { return open(json::array()); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }

  bool key(std::string& k) {
    Frame& f = frames_.back();
    // One lookup: try_emplace leaves `k` untouched when the key exists.
    auto [it, inserted] = f.node->get_ref<json::object_t&>().try_emplace(std::move(k));
    if (!inserted) {
      return reject(JsonProblem::duplicate_key, json_path_member(container_path(), k),
                    "duplicate key \"" + printable(k) + "\"");
    }
    f.key = &it->first;
    f.slot = &it->second;
    return true;
  }

  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& ex) {
    std::string what = ex.what();
    // nlohmann: "[json.exception.parse_error.101] parse error at line 1, column 5: syntax error
    // while parsing value - invalid string: ill-formed UTF-8 byte; last read: '...'".
    // Keep the reason, drop the echo of the (possibly invalid) bytes.
    if (auto semi = what.find("; last read"); semi != std::string::npos) what.resize(semi);
    if (auto colon = what.find(": "); colon != std::string::npos && what.rfind("[json.exception", 0) == 0) {
      what = what.substr(colon + 2);
    }
    const bool utf8 = what.find("UTF-8") != std::string::npos || what.find("surrogate") != std::string::npos;
    error_.byte_offset = position;
    if (!failed_) {
      failed_ = true;
      error_.problem = utf8 ? JsonProblem::invalid_utf8 : JsonProblem::syntax;
      error_.path = container_path();
      error_.message = printable(what, 200) + " (byte " + std::to_string(position) + ")";
    }
    return false;
  }

  [[nodiscard]] bool failed() const { return failed_; }
  [[nodiscard]] const StrictJsonError& error() const { return error_; }
  json take() { return std::move(root_); }

 private:
  struct Frame {
    json* node;
    const std::string* key = nullptr;  // current key in an object (owned by the map)
    json* slot = nullptr;              // its value, filled by the next value
  };

  static std::string step(const std::string& parent, const Frame& f, std::size_t index) {
    if (f.node->is_array()) return json_path_index(parent, index);
    return f.key ? json_path_member(parent, *f.key) : parent;
  }

  // Path of the innermost open container: each open frame contributes the
  // step to the frame opened inside it (the last array element or the
  // pending object key).
  std::string container_path() const {
    std::string p = "$";
    for (std::size_t i = 0; i + 1 < frames_.size(); ++i) {
      const Frame& f = frames_[i];
      p = step(p, f, f.node->size() - 1);
    }
    return p;
  }

  std::string path_of_next_value() const {
    std::string p = container_path();
    if (frames_.empty()) return p;
    const Frame& f = frames_.back();
    return step(p, f, f.node->size());
  }

  json* insert(json&& v) {
    if (frames_.empty()) {
      root_ = std::move(v);
      return &root_;
    }
    Frame& f = frames_.back();
    if (f.node->is_array()) {
      f.node->push_back(std::move(v));
      return &f.node->back();
    }
    *f.slot = std::move(v);
    return f.slot;
  }

  bool value(json&& v) {
    insert(std::move(v));
    return true;
  }

  bool open(json&& container) {
    if (frames_.size() >= limits_.max_depth) {
      return reject(JsonProblem::too_deep, path_of_next_value(),
                    "nesting deeper than " + std::to_string(limits_.max_depth) + " levels");
    }
    json* node = insert(std::move(container));
    frames_.push_back(Frame{node});
    return true;
  }

  bool close() {
    frames_.pop_back();
    return true;
  }

  bool reject(JsonProblem problem, std::string path, std::string message) {
    failed_ = true;
    error_.problem = problem;
    error_.path = std::move(path);
    error_.message = std::move(message);
    return false;
  }

  const StrictJsonLimits& limits_;
  json root_;
  std::vector<Frame> frames_;
  bool failed_ = false;
  StrictJsonError error_;
};

}  // namespace

std::expected<json, StrictJsonError> parse_strict(std::string_view bytes, const StrictJsonLimits& limits) {
  if (bytes.size() > limits.max_bytes) {
    return std::unexpected(StrictJsonError{JsonProblem::too_large, "$", limits.max_bytes,
                                           "document of " + std::to_string(bytes.size()) + " bytes exceeds the limit of " +
                                               std::to_string(limits.max_bytes) + " bytes"});
  }
  StrictSax sax(limits);
  const bool ok = json::sax_parse(bytes.begin(), bytes.end(), &sax, json::input_format_t::json, true, false);
  if (!ok || sax.failed()) {
    StrictJsonError e = sax.error();
    if (e.message.empty()) e.message = "not a JSON document";
    return std::unexpected(std::move(e));
  }
  return sax.take();
}

Result<json> parse_strict_json(std::string_view bytes, const StrictJsonLimits& limits) {
  auto parsed = parse_strict(bytes, limits);
  if (!parsed) return std::unexpected(parsed.error().to_error());
  return std::move(*parsed);
}

}  // namespace pith::signed_json
