// SPDX-License-Identifier: GPL-3.0-or-later
// terminal_safe: nothing from an input can act on a terminal.
#include "pith/base/report.hpp"
#include "pith/base/terminal_text.hpp"

#include <catch2/catch.hpp>

using pith::terminal_safe;

TEST_CASE("C0, DEL, C1 and bidi controls are escaped visibly", "[terminal]") {
  CHECK(terminal_safe("plain pith:2024:ABC") == "plain pith:2024:ABC");
  CHECK(terminal_safe("caf\xC3\xA9 \xE2\x9C\x93") == "caf\xC3\xA9 \xE2\x9C\x93");  // other UTF-8 kept
  CHECK(terminal_safe("\x1b[2K\r\x1b[32m") == "\\x1B[2K\\x0D\\x1B[32m");
  CHECK(terminal_safe(std::string("a\0b", 3)) == "a\\x00b");
  CHECK(terminal_safe("line\nnext\ttab\x7f") == "line\\x0Anext\\x09tab\\x7F");
  CHECK(terminal_safe("\xC2\x9B" "31m") == "\\u{009B}31m");             // C1 CSI
  CHECK(terminal_safe("abc\xE2\x80\xAE" "fdp.exe") == "abc\\u{202E}fdp.exe");  // RLO
  CHECK(terminal_safe("\xE2\x81\xA6x\xE2\x81\xA9") == "\\u{2066}x\\u{2069}");
  CHECK(terminal_safe("\xD8\x9C") == "\\u{061C}");
}

TEST_CASE("bytes that are not UTF-8 are escaped, never passed through", "[terminal]") {
  CHECK(terminal_safe("\x9b" "31m") == "\\x9B31m");   // a raw C1 byte
  CHECK(terminal_safe("\xC0\x9B") == "\\xC0\\x9B");   // overlong
  CHECK(terminal_safe("\xED\xA0\x80") == "\\xED\\xA0\\x80");  // surrogate
  CHECK(terminal_safe("\xE2\x80") == "\\xE2\\x80");   // truncated
}

TEST_CASE("a report's text output is inert; its JSON stays exact", "[terminal]") {
  pith::Report r;
  const std::string payload = "\x1b[1A\x1b[2K\r\x1b[32m\xE2\x9C\x93 verified";
  r.input = "evil" + payload + ".pdf";
  r.fail("key.untrusted", "key id " + payload);
  const std::string text = r.to_text(false);
  CHECK(text.find('\x1b') == std::string::npos);
  CHECK(text.find('\r') == std::string::npos);
  CHECK(text.find("\\x1B[2K") != std::string::npos);
  const auto json = r.to_json();
  CHECK(json["file"] == r.input);
  CHECK(json["checks"][0]["detail"] == "key id " + payload);
}
