// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/base/table_text.hpp"

#include "pith/base/terminal_text.hpp"
#include "pith/base/utf8.hpp"

#include <cstdint>

namespace pith {
namespace {

constexpr std::string_view replacement_character = "\xEF\xBF\xBD";  // U+FFFD

bool starts_a_formula(char c) { return c == '=' || c == '+' || c == '-' || c == '@' || c == '\t' || c == '\r'; }

bool kept_control(std::uint32_t cp) { return cp == '\t' || cp == '\n' || cp == '\r'; }

}  // namespace

std::string spreadsheet_safe(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 1);
  while (!text.empty()) {
    const Utf8Step step = next_utf8(text);
    const auto cp = static_cast<std::uint32_t>(step.code_point);
    if (step.code_point < 0) {
      out += replacement_character;
    } else if (((cp < 0x20 || cp == 0x7F) && !kept_control(cp)) || is_c1_or_bidi(cp)) {
      // dropped
    } else {
      out.append(text.substr(0, step.length));
    }
    text.remove_prefix(step.length);
  }
  if (!out.empty() && starts_a_formula(out.front())) out.insert(out.begin(), '\'');
  return out;
}

std::string csv_field(std::string_view text) {
  const std::string safe = spreadsheet_safe(text);
  if (safe.find_first_of(",\"\r\n") == std::string::npos) return safe;
  std::string out = "\"";
  for (const char c : safe) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string tsv_field(std::string_view text) {
  std::string out;
  for (const char c : spreadsheet_safe(text)) {
    switch (c) {
      case '\\': out += "\\\\"; break;
      case '\t': out += "\\t"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      default: out += c; break;
    }
  }
  return out;
}

std::string table_row(TableFormat format, const std::vector<std::string>& cells) {
  std::string out;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (i > 0) out += format == TableFormat::csv ? ',' : '\t';
    out += format == TableFormat::csv ? csv_field(cells[i]) : tsv_field(cells[i]);
  }
  return out + (format == TableFormat::csv ? "\r\n" : "\n");
}

}  // namespace pith
