#include "pith/title_binding.hpp"
#include "pith/strict_json.hpp"
#include "support/test_data.hpp"

#include <catch2/catch.hpp>

using pith::TitleMatch;

TEST_CASE("both fixture titles hash to their records' title_canon_sha256", "[title]") {
  CHECK(pith::title_canon_sha256("Exploring the limits of Concurrency in ML Training on Google TPUs") ==
        "d0923d88f5513d1faa816d48831900ab94519a7541823483ad2d50c2c989a5f6");
  CHECK(pith::title_canon_sha256("Layered gradient accumulation and modular pipeline parallelism: fast and\n"
                                 "  efficient training of large language models  ") ==
        "434da334d2825ada3dac75e9e2b905314cb028892db0175cc031b036c7f49566");
}

TEST_CASE("title canonical text", "[title]") {
  CHECK(pith::title_canon("  Hello,\t\tWORLD!\n ") == "hello, world!");
  CHECK(pith::title_canon("A\xc2\xa0" "B") == "a b");                 // no-break space is whitespace
  CHECK(pith::title_canon("E\xcc\x81tude") == "\xc3\xa9tude");       // NFC, then lower case
  CHECK(pith::title_canon("\xc3\x89TUDE") == "\xc3\xa9tude");
  CHECK(pith::title_canon("") == "");
}

TEST_CASE("title binding against a record", "[title]") {
  auto record = pith::parse_strict_json(pith::test::read_data("WXNI57C2SJ24QK62DB7DTUREA3.canonical_record.json"));
  REQUIRE(record.has_value());
  auto ok = pith::check_title_binding("Exploring the Limits of Concurrency in ML Training on Google TPUs", *record);
  CHECK(ok.result == TitleMatch::match);
  CHECK(pith::check_title_binding("Exploring the limits of Concurrency", *record).result == TitleMatch::mismatch);
  CHECK(pith::check_title_binding("Exploring the limits of Concurrency in ML Training on Google TPU\xc2\xb4s", *record)
            .result == TitleMatch::undetermined);
  CHECK(pith::check_title_binding("x", nlohmann::json::object()).result == TitleMatch::unavailable);

  pith::Report r;
  pith::add_title_check(r, "Wrong title", *record);
  REQUIRE(r.find("title.mismatch") != nullptr);
  CHECK(r.verdict() == pith::Verdict::failed);
  pith::Report u;
  pith::add_title_check(u, "T\xc3\xaftle", *record);
  REQUIRE(u.find("title.undetermined") != nullptr);
  CHECK(u.find("title.undetermined")->status == pith::CheckStatus::warn);
}
