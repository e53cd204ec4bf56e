// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/registry/title.hpp"

#include "pith/base/crypto.hpp"

#include <catch2/catch.hpp>

TEST_CASE("both fixture titles hash to their records' title_canon_sha256", "[title]") {
  CHECK(pith::registry::title_canon_sha256("Exploring the limits of Concurrency in ML Training on Google TPUs") ==
        "d0923d88f5513d1faa816d48831900ab94519a7541823483ad2d50c2c989a5f6");
  CHECK(pith::registry::title_canon_sha256("Layered gradient accumulation and modular pipeline parallelism: fast and\n"
                                 "  efficient training of large language models  ") ==
        "434da334d2825ada3dac75e9e2b905314cb028892db0175cc031b036c7f49566");
}

TEST_CASE("AsciiTitleHash: title_canon of text given in pieces, hashed as it is made", "[title]") {
  // Whatever the cut, the pieces hash as title_canon of the whole: spaces
  // at a cut, at either end, runs split across pieces, empty pieces.
  const std::string text = "  Deep\tLEARNING  of   Things: a\nStudy (2nd ed.)   ";
  for (std::size_t a = 0; a <= text.size(); ++a) {
    for (std::size_t b = a; b <= text.size(); b += 3) {
      pith::registry::AsciiTitleHash hash;
      hash.append(text.substr(0, a));
      hash.append(text.substr(a, b - a));
      hash.append(text.substr(b));
      REQUIRE(hash.digest() == pith::sha256(pith::registry::title_canon(text)));
      pith::registry::AsciiTitleHash prefix;
      prefix.append(text.substr(0, a));
      REQUIRE(prefix.digest() == pith::sha256(pith::registry::title_canon(text.substr(0, a))));
    }
  }
}

TEST_CASE("title canonical text", "[title]") {
  CHECK(pith::registry::title_canon("  Hello,\t\tWORLD!\n ") == "hello, world!");
  CHECK(pith::registry::title_canon("A\xc2\xa0" "B") == "a b");                 // no-break space is whitespace
  CHECK(pith::registry::title_canon("E\xcc\x81tude") == "\xc3\xa9tude");       // NFC, then lower case
  CHECK(pith::registry::title_canon("\xc3\x89TUDE") == "\xc3\xa9tude");
  CHECK(pith::registry::title_canon("") == "");
}
