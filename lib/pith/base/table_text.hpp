// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Cells of a table a spreadsheet opens (pith-check --csv, --tsv). A cell's
// text can come from a PDF (its title, its file name), so it is hostile:
// - a cell a spreadsheet would run as a formula (starting with = + - @, a
//   tab or a carriage return: OWASP's CSV injection list) gets a leading ';
// - controls are dropped (C0 but tab, newline and carriage return; DEL; C1;
//   bidi controls, which reorder what a reader sees), and bytes that are not
//   valid UTF-8 become U+FFFD: the table is UTF-8 text whatever the input.
// Then each format's own escaping: RFC 4180 quoting for CSV, backslash
// escapes for TSV (the IANA text/tab-separated-values form, where a field
// holds no tab or newline).
#include <string>
#include <string_view>
#include <vector>

namespace pith {

// `text` made safe for a spreadsheet's cell, as above (before any quoting).
[[nodiscard]] std::string spreadsheet_safe(std::string_view text);

// A CSV field (RFC 4180): spreadsheet_safe, then quoted with "" doubled when
// it holds a comma, a quote, a CR or an LF.
[[nodiscard]] std::string csv_field(std::string_view text);

// A TSV field: spreadsheet_safe, then \ as \\, tab as \t, LF as \n, CR as \r.
[[nodiscard]] std::string tsv_field(std::string_view text);

enum class TableFormat { csv, tsv };

// One row: the fields escaped and joined; CSV rows end in CRLF (RFC 4180),
// TSV rows in LF.
[[nodiscard]] std::string table_row(TableFormat format, const std::vector<std::string>& cells);

}  // namespace pith
