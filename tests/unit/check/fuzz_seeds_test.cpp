// SPDX-License-Identifier: GPL-3.0-or-later
// The seeds of the message fuzz targets are messages of today's wire: each
// decodes, and encodes to the same bytes (a wire change that forgets them
// fails here; fuzz/pdf_facts_wire_seeds.sh and fuzz/wire_seeds.sh make them
// again, docs/fuzzing.md).
#include "pith/base/wire.hpp"
#include "pith/check/file.hpp"
#include "pith/pdf/crop_wire.hpp"
#include "pith/pdf/drawn_letters.hpp"
#include "pith/pdf/facts.hpp"
#include "pith/registry/trust_store.hpp"
#include "pith/runner/worker_wire.hpp"
#include "pith/serve/broker_wire.hpp"
#include "pith/stamp/examine_wire.hpp"
#include "pith/tex/sty.hpp"
#include "support/test_data.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>

TEST_CASE("the pdf_facts_wire seeds are messages of today's wire") {
  const std::filesystem::path dir = std::filesystem::path(PITH_SOURCE_DIR) / "fuzz/corpus/pdf_facts_wire";
  int seeds = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    INFO(entry.path().filename().string());
    const std::string bytes = pith::test::read_file(entry.path());
    const auto facts = pith::pdf::PdfFacts::from_wire(bytes);
    REQUIRE(facts);
    CHECK(facts->to_wire() == bytes);
    ++seeds;
  }
  CHECK(seeds >= 3);
}

TEST_CASE("the pdf_facts_wire bundle seed reaches verification, as the fuzz target judges it") {
  // The fuzz target judges a message as if it were the file, with the pinned
  // key: the seed's spans point inside it, so its record verifies.
  const std::string bytes =
      pith::test::read_file(std::filesystem::path(PITH_SOURCE_DIR) / "fuzz/corpus/pdf_facts_wire/bundle");
  auto facts = pith::pdf::PdfFacts::from_wire(bytes);
  REQUIRE(facts);
  const auto trust = pith::registry::TrustStore::with_pinned_key();
  const auto checked = pith::check::judge_pdf_facts(bytes, std::move(*facts), trust, "seed.pdf");
  const auto& checks = checked.report.checks();
  CHECK(std::any_of(checks.begin(), checks.end(), [](const pith::Check& c) { return c.anchors_trust; }));
}

namespace {

// Each seed of `target`, by file name.
std::map<std::string, std::string> seeds_of(const std::string& target) {
  std::map<std::string, std::string> seeds;
  const std::filesystem::path dir = std::filesystem::path(PITH_SOURCE_DIR) / "fuzz/corpus" / target;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    seeds.emplace(entry.path().filename().string(), pith::test::read_file(entry.path()));
  return seeds;
}

}  // namespace

TEST_CASE("the stamp_examine_wire seeds are messages of today's wire") {
  const auto seeds = seeds_of("stamp_examine_wire");
  REQUIRE(seeds.size() == 8);
  for (const char* name : {"read", "stamped", "already-stamped"}) {
    INFO(name);
    const std::string& bytes = seeds.at(name);
    auto answer = pith::stamp::decode_examine_answer(bytes, "seed.pdf");
    REQUIRE(answer);
    std::string again;
    pith::append_framed(again, pith::stamp::encode(answer->read));
    if (answer->plan) pith::append_framed(again, pith::stamp::encode(*answer->plan));
    CHECK(again == bytes);
  }
  CHECK(pith::stamp::decode_examine_answer(seeds.at("stamped"), "seed.pdf")->plan->page_one);
  CHECK(pith::stamp::decode_early_read(seeds.at("stamped"))->outcome == pith::pdf::StampOutcome::stamped);
  const auto error = pith::stamp::decode_examine_answer(seeds.at("error"), "seed.pdf");
  REQUIRE_FALSE(error);
  CHECK(error.error() == pith::Error{pith::ErrorKind::malformed, "paper.pdf", "damaged"});
  CHECK(pith::stamp::decode_page_one(seeds.at("page-one")).page_one);
  CHECK(pith::stamp::decode_written_checked(seeds.at("written-checked"), "seed.pdf"));
  const auto pages = pith::stamp::decode_pages_read(seeds.at("pages-read"), "seed.pdf");
  REQUIRE(pages);
  CHECK(pages->sha256.size() == 2);
  CHECK(pith::stamp::decode_page_one(seeds.at("page-one")).pages->first_page == 7);
  const auto finish = pith::stamp::decode_examine_request(seeds.at("finish-request"));
  REQUIRE(finish);
  CHECK(finish->ask == pith::stamp::ExamineAsk::finish);
  CHECK(finish->original_sha256 == std::string(64, 'a'));
}

TEST_CASE("the page_crop_wire seeds are messages of today's wire") {
  const auto seeds = seeds_of("page_crop_wire");
  const auto crop = pith::pdf::decode_page_crop(seeds.at("crop"));
  REQUIRE(crop);
  CHECK(crop->width == 2);
  CHECK(pith::pdf::encode_page_crop(*crop) == seeds.at("crop"));
  const auto none = pith::pdf::decode_page_crop(seeds.at("not-rendered"));
  REQUIRE_FALSE(none);
  CHECK(none.error().message.find("poppler could not render it") != std::string::npos);
}

TEST_CASE("the worker_request and broker_wire seeds are messages of today's wire") {
  for (const auto& [name, bytes] : seeds_of("worker_request")) {
    INFO(name);
    const auto request = pith::runner::decode_input_request(bytes);
    REQUIRE(request);
    CHECK(pith::runner::encode_input_request(*request) == bytes);
  }
  const auto broker = seeds_of("broker_wire");
  const auto job = pith::serve::decode_broker_job(broker.at("job"));
  REQUIRE(job);
  CHECK(pith::serve::encode(*job) == broker.at("job"));
  const auto answer = pith::serve::decode_broker_answer(broker.at("answer"));
  REQUIRE(answer);
  CHECK(answer->checked.report.verdict() == pith::Verdict::verified);
  CHECK(answer->checked.carried);
}

TEST_CASE("the sty_data seed is a generated pith.sty whose data reads back") {
  const auto sty = seeds_of("sty_data").at("pith.sty");
  const auto data = pith::tex::read_sty_data(sty, "pith.sty");
  REQUIRE(data);
  CHECK_FALSE(data->document_bytes.empty());
}

TEST_CASE("the drawn_letters_wire seeds are answers of today's wire, and it is strict") {
  // Each seed: one byte, the lines asked for; then the reading child's answer.
  const auto seeds = seeds_of("drawn_letters_wire");
  REQUIRE(seeds.size() == 3);
  for (const char* name : {"two-lines", "accents"}) {
    INFO(name);
    const std::string& seed = seeds.at(name);
    const std::string answer = seed.substr(1);
    const auto read = pith::pdf::drawn_letters_from_wire(answer, static_cast<unsigned char>(seed[0]));
    REQUIRE(read);
    CHECK(pith::pdf::drawn_letters_to_wire(*read) == answer);
  }
  CHECK(pith::pdf::drawn_letters_from_wire(seeds.at("two-lines").substr(1), 2)->at(1) == "and modular pipeline parallelism");
  const auto error = pith::pdf::drawn_letters_from_wire(seeds.at("error").substr(1), 0);
  REQUIRE_FALSE(error);
  CHECK(error.error().message == "Tesseract could not read the line");
  // Not the lines asked for, bytes after the last line, or a line that is not UTF-8: a child taken over.
  CHECK_FALSE(pith::pdf::drawn_letters_from_wire("ok\nA\n", 2));
  CHECK_FALSE(pith::pdf::drawn_letters_from_wire("ok\nA\nB", 1));
  CHECK_FALSE(pith::pdf::drawn_letters_from_wire("ok\nA \xff title\n", 1));
  CHECK_FALSE(pith::pdf::drawn_letters_from_wire("ok\n\xc0\xaf\n", 1));  // an overlong '/'
  CHECK_FALSE(pith::pdf::drawn_letters_from_wire("garbage", 0));
}

