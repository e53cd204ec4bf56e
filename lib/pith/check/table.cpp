// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/check/table.hpp"

#include "pith/base/exit_codes.hpp"
#include "pith/runner/corpus_summary.hpp"

#include <vector>

namespace pith::check {
namespace {

std::string text_of(const nlohmann::json& line, const char* key) {
  const auto it = line.find(key);
  return it != line.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::string joined_codes(const nlohmann::json& line, const char* key) {
  std::string out;
  const auto it = line.find(key);
  if (it == line.end() || !it->is_array()) return out;
  for (const auto& code : *it) {
    if (code.is_string()) out += (out.empty() ? "" : " ") + code.get<std::string>();
  }
  return out;
}

}  // namespace

std::string report_table_header(TableFormat format) {
  return table_row(format, {"file", "archive", "member", "kind", "verdict", "exit_code", "pith_number", "title", "reason",
                            "warnings", "error"});
}

std::string report_table_row(TableFormat format, const nlohmann::json& line, const FileCheck& checked) {
  const Report& report = checked.report;
  return table_row(format, {text_of(line, "file"), text_of(line, "archive"), text_of(line, "member"), text_of(line, "kind"),
                            text_of(line, "verdict"), std::to_string(exit_code_for(report.verdict())),
                            text_of(line, "pith_number"), checked.title.value_or(""), runner::reason_not_verified(report),
                            joined_codes(line, "warnings"), text_of(line, "error")});
}

}  // namespace pith::check
