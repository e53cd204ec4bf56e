// SPDX-License-Identifier: GPL-3.0-or-later
// table_text: a cell from a PDF never runs as a spreadsheet formula, carries
// no control, and survives its format's quoting (pith-check --csv, --tsv).
#include "pith/base/table_text.hpp"

#include <catch2/catch.hpp>
#include <string>

using pith::csv_field;
using pith::spreadsheet_safe;
using pith::table_row;
using pith::TableFormat;
using pith::tsv_field;

TEST_CASE("a cell that would start a formula gets a leading quote", "[table]") {
  CHECK(spreadsheet_safe("=1+1") == "'=1+1");
  CHECK(spreadsheet_safe("+1") == "'+1");
  CHECK(spreadsheet_safe("-1") == "'-1");
  CHECK(spreadsheet_safe("@SUM(A1)") == "'@SUM(A1)");
  CHECK(spreadsheet_safe("\tx") == "'\tx");
  CHECK(spreadsheet_safe("\rx") == "'\rx");
  CHECK(spreadsheet_safe("a=1") == "a=1");
  CHECK(spreadsheet_safe("") == "");
  // A control dropped from the front cannot hide a formula behind it.
  CHECK(spreadsheet_safe("\x1b=cmd") == "'=cmd");
}

TEST_CASE("controls are dropped, bad UTF-8 becomes U+FFFD", "[table]") {
  CHECK(spreadsheet_safe("a\x1b[31mb\x07\x7f") == "a[31mb");
  CHECK(spreadsheet_safe(std::string("a\0b", 3)) == "ab");
  CHECK(spreadsheet_safe("x\xC2\x9By") == "xy");                // C1 CSI
  CHECK(spreadsheet_safe("abc\xE2\x80\xAE" "fdp") == "abcfdp");  // RLO
  CHECK(spreadsheet_safe("caf\xC3\xA9") == "caf\xC3\xA9");
  CHECK(spreadsheet_safe("a\xFF" "b") == "a\xEF\xBF\xBD" "b");
  CHECK(spreadsheet_safe("tab\tnew\nline\r") == "tab\tnew\nline\r");  // kept, for the format to quote
}

TEST_CASE("CSV quotes as RFC 4180, TSV escapes", "[table]") {
  CHECK(csv_field("plain") == "plain");
  CHECK(csv_field("a,b") == "\"a,b\"");
  CHECK(csv_field("say \"hi\"") == "\"say \"\"hi\"\"\"");
  CHECK(csv_field("two\nlines") == "\"two\nlines\"");
  CHECK(csv_field("=\"x\",1") == "\"'=\"\"x\"\",1\"");
  CHECK(tsv_field("a\tb\nc\rd\\e") == "a\\tb\\nc\\rd\\\\e");
  CHECK(tsv_field("-x") == "'-x");
  CHECK(table_row(TableFormat::csv, {"a", "b,c", ""}) == "a,\"b,c\",\r\n");
  CHECK(table_row(TableFormat::tsv, {"a", "b\tc", ""}) == "a\tb\\tc\t\n");
}
