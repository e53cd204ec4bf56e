// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/base/ascii.hpp"

#include <catch2/catch.hpp>

using namespace pith;

TEST_CASE("ascii_lower folds A-Z only, byte by byte") {
  CHECK(ascii_lower('A') == 'a');
  CHECK(ascii_lower('Z') == 'z');
  CHECK(ascii_lower('@') == '@');  // just before 'A'
  CHECK(ascii_lower('[') == '[');  // just after 'Z'
  CHECK(ascii_upper('a') == 'A');
  CHECK(ascii_upper('{') == '{');
  // UTF-8 is left alone: "İ" (U+0130) and "É" keep their bytes.
  CHECK(ascii_lower("ARXIV:\xC4\xB0\xC3\x89x") == "arxiv:\xC4\xB0\xC3\x89x");
  CHECK(ascii_lower("") == "");
}

TEST_CASE("case-blind comparisons take the pattern in lower case") {
  CHECK(equals_ascii_case_blind("Content-Disposition", "content-DISPOSITION"));
  CHECK_FALSE(equals_ascii_case_blind("name", "names"));
  CHECK_FALSE(equals_ascii_case_blind("na\xC3\x89", "na\xC3\xA9"));  // É is not é: not ASCII
  CHECK(starts_with_ascii_case_blind("PiTh:2020:ABC", "pith:"));
  CHECK_FALSE(starts_with_ascii_case_blind("pit", "pith:"));
  CHECK_FALSE(starts_with_ascii_case_blind("pith;", "pith:"));
  CHECK(contains_ascii_case_blind("see ArXiV:2101.00001 here", "arxiv:"));
  CHECK(contains_ascii_case_blind("HTTPS://ARXIV.ORG/abs", "arxiv.org"));
  CHECK_FALSE(contains_ascii_case_blind("arxiv-org", "arxiv.org"));
  CHECK_FALSE(contains_ascii_case_blind("", "a"));
}
