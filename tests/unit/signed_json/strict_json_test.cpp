// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/signed_json/strict.hpp"

#include <catch2/catch.hpp>
#include <string>

using pith::signed_json::JsonProblem;
using pith::signed_json::parse_strict;

namespace {
JsonProblem problem_of(const std::string& text, const pith::signed_json::StrictJsonLimits& limits = {}) {
  auto r = parse_strict(text, limits);
  REQUIRE_FALSE(r.has_value());
  return r.error().problem;
}
std::string path_of(const std::string& text, const pith::signed_json::StrictJsonLimits& limits = {}) {
  auto r = parse_strict(text, limits);
  REQUIRE_FALSE(r.has_value());
  return r.error().path;
}
}  // namespace

TEST_CASE("strict parser accepts ordinary registry JSON", "[strict_json]") {
  auto r = parse_strict(R"({"a":[1,-2,{"b":null}],"c":"d\u00e9","e":true})");
  REQUIRE(r.has_value());
  CHECK((*r)["a"][1] == -2);
  CHECK((*r)["c"] == "d\xc3\xa9");
  CHECK((*r)["a"][2]["b"].is_null());
}

TEST_CASE("duplicate keys are rejected with their path", "[strict_json]") {
  const std::string text = R"({"events":[{"a":1},{"payload":{"x":1,"x":2}}]})";
  auto r = parse_strict(text);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().problem == JsonProblem::duplicate_key);
  CHECK(r.error().path == "$.events[1].payload.x");
  CHECK(r.error().message.find("duplicate key \"x\"") != std::string::npos);
  CHECK(problem_of(R"({"a":1,"a":1})") == JsonProblem::duplicate_key);
  // Same key in different objects is fine.
  CHECK(parse_strict(R"({"a":{"a":1},"b":{"a":2}})").has_value());
  // Duplicate via an escape spelling is the same key.
  CHECK(problem_of(R"({"a":1,"\u0061":2})") == JsonProblem::duplicate_key);
}

TEST_CASE("floats, large integers, NaN and Infinity are rejected", "[strict_json]") {
  CHECK(problem_of(R"({"a":1.0})") == JsonProblem::float_number);
  CHECK(path_of(R"({"a":[1,2,3e5]})") == "$.a[2]");
  CHECK(problem_of(R"([1e3])") == JsonProblem::float_number);
  CHECK(problem_of(R"([184467440737095516160])") == JsonProblem::float_number);
  CHECK(problem_of(R"([NaN])") == JsonProblem::syntax);
  CHECK(problem_of(R"([Infinity])") == JsonProblem::syntax);
  CHECK(problem_of(R"([-Infinity])") == JsonProblem::syntax);
  pith::signed_json::StrictJsonLimits allow;
  allow.allow_floats = true;
  CHECK(parse_strict(R"({"a":1.5})", allow).has_value());
}

TEST_CASE("invalid UTF-8 and lone surrogates are rejected", "[strict_json]") {
  CHECK(problem_of("{\"a\":\"\xff\"}") == JsonProblem::invalid_utf8);
  CHECK(problem_of("{\"a\":\"\xc0\xaf\"}") == JsonProblem::invalid_utf8);      // overlong '/'
  CHECK(problem_of("{\"a\":\"\xed\xa0\x80\"}") == JsonProblem::invalid_utf8);  // encoded surrogate
  CHECK(problem_of("{\"a\":\"\xe2\x82\"}") == JsonProblem::invalid_utf8);      // truncated
  CHECK(problem_of(R"({"a":"\ud800"})") == JsonProblem::invalid_utf8);
  CHECK(problem_of(R"({"a":"\udc00x"})") == JsonProblem::invalid_utf8);
  CHECK(problem_of("{\"\xff\":1}") == JsonProblem::invalid_utf8);
  // A proper pair is fine.
  auto ok = parse_strict(R"(["\ud83d\ude00"])");
  REQUIRE(ok.has_value());
  CHECK((*ok)[0] == "\xf0\x9f\x98\x80");
  // Messages never echo the invalid bytes (they go into JSON reports).
  auto r = parse_strict("[\"\xff\"]");
  REQUIRE_FALSE(r.has_value());
  for (unsigned char c : r.error().message) CHECK(c < 0x80);
}

TEST_CASE("nesting is bounded", "[strict_json]") {
  auto nested = [](std::size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); };
  CHECK(parse_strict(nested(64)).has_value());
  CHECK(problem_of(nested(65)) == JsonProblem::too_deep);
  CHECK(problem_of(nested(100000)) == JsonProblem::too_deep);
  auto r = parse_strict(R"({"a":{"b":[[{"c":1}]]}})", pith::signed_json::StrictJsonLimits{1024, 3, false});
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().path == "$.a.b[0]");
}

TEST_CASE("size is bounded", "[strict_json]") {
  pith::signed_json::StrictJsonLimits small;
  small.max_bytes = 16;
  CHECK(parse_strict(R"({"a":"01234567"})", small).has_value());  // exactly 16 bytes
  CHECK(problem_of(R"({"a":"012345678"})", small) == JsonProblem::too_large);
  // Default bound: 8 MiB.
  std::string big = "\"" + std::string(8u * 1024u * 1024u, 'a') + "\"";
  CHECK(problem_of(big) == JsonProblem::too_large);
}

TEST_CASE("syntax errors say where (line, column) in plain words; trailing data is refused", "[strict_json]") {
  auto r = parse_strict(R"({"a":[1,2,}])");
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().problem == JsonProblem::syntax);
  CHECK(r.error().path == "$.a");
  CHECK(r.error().byte_offset > 0);
  CHECK(r.error().message ==
        "not valid JSON at line 1, column 11: expected a value (an object, array, string, number, true, false or "
        "null), found '}'");
  // The error a person reads names no JSON path and none of nlohmann's terms.
  CHECK(r.error().to_error().describe() == r.error().message);
  auto key = parse_strict("{\n  \"a\": 1,\n  b: 2\n}");
  REQUIRE_FALSE(key.has_value());
  CHECK(key.error().line == 3);
  CHECK(key.error().column == 3);
  CHECK(key.error().message.find("line 3, column 3: expected a member name in double quotes, found a bare word") !=
        std::string::npos);
  CHECK(key.error().message.find("syntax error") == std::string::npos);
  CHECK(key.error().message.find("$") == std::string::npos);
  auto cut = parse_strict("{\"a\": [1, 2");
  REQUIRE_FALSE(cut.has_value());
  CHECK(cut.error().message.find("but the input ends there") != std::string::npos);
  // Columns count characters, not bytes.
  auto wide = parse_strict("{\"\xc3\xa9\": tru}");
  REQUIRE_FALSE(wide.has_value());
  CHECK(wide.error().message.find("line 1, column ") != std::string::npos);
  CHECK(parse_strict("  ").error().message == "not valid JSON: the input is empty");
  CHECK(problem_of(R"({"a":1} {"b":2})") == JsonProblem::syntax);
  CHECK(problem_of("") == JsonProblem::syntax);
  CHECK(problem_of(R"({"a":1 /* c */})") == JsonProblem::syntax);
}

TEST_CASE("paths quote keys that are not identifiers", "[strict_json]") {
  CHECK(path_of(R"({"odd key":{"x":1,"x":1}})") == "$[\"odd key\"].x");
  CHECK(pith::signed_json::json_path_member("$", "a.b") == "$[\"a.b\"]");
  CHECK(pith::signed_json::json_path_index("$.e", 3) == "$.e[3]");
}
