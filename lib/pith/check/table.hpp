// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// pith-check --csv / --tsv (exiftool -csv's habit): one header row, then a row
// per input with a fixed set of columns, the --json line's own fields:
//   file, archive, member, kind, verdict, exit_code, pith_number, title,
//   reason, warnings, error
// `title` is the PDF's title metadata as it claims it (FileCheck::title: a
// hint, never verified); `reason` is why the input is not verified (the
// summary's and joblog's reason, runner/corpus_summary.hpp), empty when it
// is; `warnings` the warning codes separated by spaces. Every cell is made
// safe for a spreadsheet (base/table_text.hpp).
#include "pith/base/table_text.hpp"
#include "pith/check/file.hpp"

#include <nlohmann/json.hpp>
#include <string>

namespace pith::check {

[[nodiscard]] std::string report_table_header(TableFormat format);

// `line`: the input's --json object (check/job.cpp json_report).
[[nodiscard]] std::string report_table_row(TableFormat format, const nlohmann::json& line, const FileCheck& checked);

}  // namespace pith::check
