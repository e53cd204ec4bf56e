// SPDX-License-Identifier: GPL-3.0-or-later
// The catalog of check codes (base/check_codes.hpp) and docs/report-codes.md
// list the same codes: a code emitted but undocumented, or documented but
// never emitted, fails here.
#include "pith/base/check_codes.hpp"

#include <catch2/catch.hpp>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

namespace {

std::string read_source_file(const std::string& relative) {
  std::ifstream in(std::string(PITH_SOURCE_DIR) + "/" + relative, std::ios::binary);
  REQUIRE(in);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

bool is_dotted_code(const std::string& s) {
  static const std::regex code(R"([a-z0-9_]+(\.[a-z0-9_]+)+)");
  return std::regex_match(s, code);
}

// The codes a table row's first cell names: `a.b.c` in full, or `.d` for the
// previous code with its last part replaced (`bundle.hash.match` / `.mismatch`).
void add_codes_of_cell(const std::string& cell, std::set<std::string>& codes) {
  static const std::regex quoted("`([^`]+)`");
  std::string previous;
  for (std::sregex_iterator it(cell.begin(), cell.end(), quoted), end; it != end; ++it) {
    std::string token = (*it)[1];
    if (token.starts_with('.') && !previous.empty()) token = previous.substr(0, previous.rfind('.')) + token;
    if (!is_dotted_code(token)) continue;
    codes.insert(token);
    previous = token;
  }
}

// Every code docs/report-codes.md documents: the first cell of each table row.
std::set<std::string> documented_codes() {
  std::istringstream doc(read_source_file("docs/report-codes.md"));
  std::set<std::string> codes;
  for (std::string line; std::getline(doc, line);) {
    if (!line.starts_with('|')) continue;
    const auto cell_end = line.find('|', 1);
    add_codes_of_cell(line.substr(1, cell_end == std::string::npos ? std::string::npos : cell_end - 1), codes);
  }
  return codes;
}

}  // namespace

TEST_CASE("every catalog code is a dotted code, listed once") {
  std::set<std::string> seen;
  for (const char* code : pith::check_code::all) {
    INFO(code);
    CHECK(is_dotted_code(code));
    CHECK(seen.insert(code).second);
  }
}

TEST_CASE("the catalog's list holds every constant the header declares") {
  const std::string header = read_source_file("include/pith/base/check_codes.hpp");
  std::size_t constants = 0;
  for (auto at = header.find("inline constexpr const char* "); at != std::string::npos;
       at = header.find("inline constexpr const char* ", at + 1))
    ++constants;
  CHECK(constants == pith::check_code::all.size());
}

TEST_CASE("docs/report-codes.md lists exactly the catalog's codes") {
  const std::set<std::string> catalog(pith::check_code::all.begin(), pith::check_code::all.end());
  const std::set<std::string> documented = documented_codes();
  for (const auto& code : catalog) {
    INFO("in the catalog, not in docs/report-codes.md: " << code);
    CHECK(documented.count(code) == 1);
  }
  for (const auto& code : documented) {
    INFO("in docs/report-codes.md, not in the catalog: " << code);
    CHECK(catalog.count(code) == 1);
  }
}

TEST_CASE("the signature codes of each block are its family's") {
  using namespace pith::check_code;
  CHECK(std::string(receipt_signature.signature_valid) == "receipt.signature.valid");
  CHECK(std::string(event_signature.key_id_missing) == "event.key_id.missing");
  CHECK(std::string(bundle_signature.signed_message_invalid) == "bundle.signed_message.invalid");
  for (const auto& [family, codes] : {std::pair{"receipt.", receipt_signature}, std::pair{"event.", event_signature},
                                      std::pair{"bundle.", bundle_signature}}) {
    for (const char* code : {codes.algorithm_unsupported, codes.signature_status_invalid, codes.signed_message_invalid,
                             codes.signature_malformed, codes.key_id_missing, codes.signature_unverified,
                             codes.signature_valid, codes.signature_invalid}) {
      INFO(code);
      CHECK(std::string(code).starts_with(family));
    }
  }
}
