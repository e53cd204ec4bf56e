// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/signed_json/strict.hpp"

#include <algorithm>
#include <utility>
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

// Where byte `offset` is, as a person counts: line and column (characters,
// not bytes), both from 1.
std::pair<std::size_t, std::size_t> line_and_column(std::string_view bytes, std::size_t offset) {
  offset = std::min(offset, bytes.size());
  std::size_t line = 1;
  std::size_t column = 1;
  for (std::size_t i = 0; i < offset; ++i) {
    const auto c = static_cast<unsigned char>(bytes[i]);
    if (c == '\n') {
      ++line;
      column = 1;
    } else if ((c & 0xC0) != 0x80) {  // a UTF-8 continuation byte is part of the character before it
      ++column;
    }
  }
  return {line, column};
}

// What nlohmann's "syntax error while parsing <context> - <found>; expected
// <token>" means, in the words of someone who has not read its source.
std::string expected_in_plain_words(const std::string& context, const std::string& expected) {
  if (context == "object key") return "expected a member name in double quotes";
  if (context == "object separator") return "expected ':' after the member name";
  if (context == "object") return "expected ',' or '}' after the member's value";
  if (context == "array") return "expected ',' or ']' after the element";
  if (expected == "end of input") return "expected nothing more after the document's value";
  return "expected a value (an object, array, string, number, true, false or null)";
}

std::string found_in_plain_words(const std::string& found) {
  if (found == "invalid literal") return "found a bare word (only true, false and null go without double quotes)";
  if (found.rfind("invalid string: control character", 0) == 0) {
    const auto code = found.find("U+");
    return "found a string with a control character" + (code == std::string::npos ? "" : " " + found.substr(code, 6)) +
           " written as is (a line break or tab in a string must be escaped)";
  }
  if (found.rfind("invalid string: ", 0) == 0) return "found a string that is not valid (" + found.substr(16) + ")";
  if (found.rfind("invalid number", 0) == 0) {
    const auto semi = found.find("; ");
    return "found a number that is not valid" + (semi == std::string::npos ? "" : " (" + found.substr(semi + 2) + ")");
  }
  if (found == "unexpected end of input") return "but the input ends there";
  if (found.rfind("unexpected ", 0) == 0) {
    const std::string token = found.substr(11);
    if (token == "string literal") return "found a string";
    if (token == "number literal") return "found a number";
    if (token.ends_with(" literal")) return "found " + token.substr(0, token.size() - 8);
    return "found " + token;
  }
  return found;
}

// nlohmann: "[json.exception.parse_error.101] parse error at line 1, column 5:
// syntax error while parsing object key - invalid literal; last read: 'x';
// expected string literal". The last read bytes are never echoed (they may be
// anything); the rest is said plainly.
std::string plain_syntax_error(const std::string& what) {
  std::string text = what;
  if (auto at = text.find("syntax error"); at != std::string::npos) text = text.substr(at);
  std::string context;
  constexpr std::string_view while_parsing = "syntax error while parsing ";
  if (text.starts_with(while_parsing)) {
    const auto dash = text.find(" - ");
    if (dash != std::string::npos) context = text.substr(while_parsing.size(), dash - while_parsing.size());
  }
  const auto dash = text.find(" - ");
  std::string rest = dash == std::string::npos ? text : text.substr(dash + 3);
  // "<found>[; last read: '<bytes>']; expected <token>": the token is last.
  std::string expected;
  const auto last_read = rest.find("; last read");
  if (auto at = rest.rfind("; expected "); at != std::string::npos && (last_read == std::string::npos || at > last_read)) {
    expected = rest.substr(at + 11);
    rest.resize(at);
  }
  if (auto at = rest.find("; last read"); at != std::string::npos) rest.resize(at);
  if (context.empty() && expected.empty()) return printable(rest, 200);
  return printable(expected_in_plain_words(context, expected), 200) + ", " + printable(found_in_plain_words(rest), 200);
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
  StrictSax(const StrictJsonLimits& limits, std::string_view bytes) : limits_(limits), bytes_(bytes) {}

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
    const std::string what = ex.what();
    const bool utf8 = what.find("UTF-8") != std::string::npos || what.find("surrogate") != std::string::npos;
    error_.byte_offset = position;
    if (!failed_) {
      failed_ = true;
      error_.problem = utf8 ? JsonProblem::invalid_utf8 : JsonProblem::syntax;
      error_.path = container_path();
      // `position` counts the bytes read, the offending one last.
      const auto [line, column] = line_and_column(bytes_, position == 0 ? 0 : position - 1);
      error_.line = line;
      error_.column = column;
      error_.message = bytes_.find_first_not_of(" \t\r\n") == std::string_view::npos
                           ? std::string("not valid JSON: the input is empty")
                           : "not valid JSON at line " + std::to_string(line) + ", column " + std::to_string(column) +
                                 ": " + plain_syntax_error(what);
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
  std::string_view bytes_;  // the document, to say where an error is
  json root_;
  std::vector<Frame> frames_;
  bool failed_ = false;
  StrictJsonError error_;
};

}  // namespace

std::expected<json, StrictJsonError> parse_strict(std::string_view bytes, const StrictJsonLimits& limits) {
  if (bytes.size() > limits.max_bytes) {
    StrictJsonError e;
    e.problem = JsonProblem::too_large;
    e.path = "$";
    e.byte_offset = limits.max_bytes;
    e.message = "document of " + std::to_string(bytes.size()) + " bytes exceeds the limit of " +
                std::to_string(limits.max_bytes) + " bytes";
    return std::unexpected(std::move(e));
  }
  StrictSax sax(limits, bytes);
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
