// SPDX-License-Identifier: GPL-3.0-or-later
// stamp/examine_wire: what pith-stamp's reading children send comes back
// whole (the plan's bytes included), the first message alone as soon as it is
// whole; what a child taken over by an exploit could send instead (an outcome
// no program knows, a hash that is not one, a second plan, a message cut
// short) is a named malformed result, never a crash or a guess.
#include "pith/base/wire.hpp"
#include "pith/stamp/examine_wire.hpp"

#include <catch2/catch.hpp>

#include <array>

#include <string>

using namespace pith;
using namespace pith::stamp;

namespace {

ExamineRead stamping_read() {
  ExamineRead read{"pith:2021:JFLLIOJUI2M3KX3FLLGP4N2V65", "--pith", {{"Info /Title", "A paper"}},
                   pdf::StampOutcome::stamped, pdf::PdfRect{1, 2, 3, 4}};
  return read;
}

ExaminePlan stamping_plan() {
  ExaminePlan plan;
  plan.original_sha256 = std::string(64, 'c');
  plan.original_length = 99;
  plan.notes = {"a note"};
  plan.pages = 2;
  plan.page_one = pdf::PageFingerprint{10, 20, std::string(64, 'd')};
  plan.update = std::string("\0update\xff", 8);
  return plan;
}

std::string answer_of(std::initializer_list<std::string> messages) {
  std::string out;
  for (const auto& m : messages) append_framed(out, m);
  return out;
}

}  // namespace

TEST_CASE("the examining child's answer comes back whole") {
  const std::string sent = answer_of({encode(stamping_read()), encode(stamping_plan())});
  const auto answer = decode_examine_answer(sent, "paper.pdf");
  REQUIRE(answer);
  CHECK(answer->read.outcome == pdf::StampOutcome::stamped);
  CHECK(answer->read.titles.at(0).title == "A paper");
  REQUIRE(answer->plan);
  CHECK(answer->plan->update == std::string("\0update\xff", 8));
  CHECK(answer->plan->page_one == pdf::PageFingerprint{10, 20, std::string(64, 'd')});
  CHECK(answer->plan->pages == 2u);

  // The first message alone, as soon as it is whole (the plan still hashing).
  std::string early;
  append_framed(early, encode(stamping_read()));
  CHECK(decode_early_read(early.substr(0, early.size() - 1)) == std::nullopt);
  CHECK(decode_early_read(early)->badge_rect == pdf::PdfRect{1, 2, 3, 4});
  // Without a record there is no plan, and the answer is the first message.
  ExamineRead no_record = stamping_read();
  no_record.outcome.reset();
  CHECK_FALSE(decode_examine_answer(answer_of({encode(no_record)}), "paper.pdf")->plan);
}

TEST_CASE("each request to the examining worker comes back as asked, pith-check's facts included") {
  for (const ExamineAsk ask : {ExamineAsk::read, ExamineAsk::plan, ExamineAsk::pages, ExamineAsk::finish, ExamineAsk::check, ExamineAsk::facts}) {
    ExamineRequest request;
    request.ask = ask;
    request.name = "paper.pdf";
    const auto decoded = decode_examine_request(encode(request));
    REQUIRE(decoded);
    CHECK(decoded->ask == ask);
    CHECK(decoded->name == "paper.pdf");
    CHECK(decoded->printed_number_wanted);
  }
  // A read told that the .tex beside names a number: no number page 1 prints is looked for.
  ExamineRequest reading;
  reading.printed_number_wanted = false;
  const auto decoded = decode_examine_request(encode(reading));
  REQUIRE(decoded);
  CHECK_FALSE(decoded->printed_number_wanted);
}

TEST_CASE("an error the child sent comes back as it sent it") {
  const Error sent{ErrorKind::malformed, "paper.pdf", "damaged cross-reference data"};
  CHECK(decode_examine_answer(answer_of({encode(stamping_read()), encode_error_message(sent)}), "paper.pdf").error() ==
        sent);
  CHECK(decode_written_checked(encode_error_message(sent), "paper.pdf").error() == sent);
  CHECK(decode_written_checked(encode_written_checked(), "paper.pdf"));
}

TEST_CASE("a hostile answer is a malformed result naming the problem") {
  const auto problem = [](const std::string& sent) {
    const auto answer = decode_examine_answer(sent, "paper.pdf");
    REQUIRE_FALSE(answer);
    CHECK(answer.error().kind == ErrorKind::internal);
    CHECK(answer.error().where == "paper.pdf");
    return answer.error().message;
  };
  const std::string read = encode(stamping_read());
  const std::string plan = encode(stamping_plan());
  CHECK_THAT(problem(answer_of({read})), Catch::Contains("cut short"));  // an outcome, and no plan
  CHECK_THAT(problem(answer_of({read, plan, plan})), Catch::Contains("bytes follow the last message"));
  CHECK_THAT(problem(answer_of({plan})), Catch::Contains("it is not a pith-stamp-read message"));
  ExaminePlan bad_hash = stamping_plan();
  bad_hash.original_sha256 = std::string(64, 'C');
  CHECK_THAT(problem(answer_of({read, encode(bad_hash)})), Catch::Contains("original_sha256"));
  ExaminePlan huge_page = stamping_plan();
  huge_page.page_one->width = 1 << 20;
  CHECK_THAT(problem(answer_of({read, encode(huge_page)})), Catch::Contains("page_one has no such size"));
  // An outcome this program does not know: the name is swapped for another of the same length.
  std::string unknown = answer_of({read, plan});
  unknown.replace(unknown.find("stamped"), 7, "stomped");
  CHECK_THAT(problem(unknown), Catch::Contains("outcome names no value this program knows"));
  CHECK_THAT(problem(answer_of({read, plan}).substr(0, 40)), Catch::Contains("cut short"));
  // The drawing child: anything but a well-formed page 1 draws nothing.
  CHECK_FALSE(decode_page_one("garbage").page_one);
  CHECK(decode_page_one(encode(PageOneDrawn{stamping_plan().page_one, std::nullopt})).page_one);
}

TEST_CASE("a finish request carries the hash this process made, and only a hash") {
  ExamineRequest finish;
  finish.ask = ExamineAsk::finish;
  finish.original_sha256 = std::string(64, 'd');
  const auto back = decode_examine_request(encode(finish));
  REQUIRE(back);
  CHECK(back->ask == ExamineAsk::finish);
  CHECK(back->original_sha256 == finish.original_sha256);
  finish.original_sha256 = std::string(64, 'D');  // upper case: not the one form a hash has on the wire
  const auto refused = decode_examine_request(encode(finish));
  REQUIRE_FALSE(refused);
  CHECK_THAT(refused.error().message, Catch::Contains("original_sha256"));
}

TEST_CASE("a pages request carries its share and the shares' heads, within bounds") {
  ExamineRequest pages;
  pages.ask = ExamineAsk::pages;
  pages.share = pith::pdf::PageShare{1, 2, {10, 4}};
  const auto back = decode_examine_request(encode(pages));
  REQUIRE(back);
  CHECK(back->share.index == 1);
  CHECK(back->share.of == 2);
  CHECK(back->share.head == std::array<unsigned, 2>{10, 4});
  pages.share.head[0] = pith::pdf::max_share_head + 1;
  const auto refused = decode_examine_request(encode(pages));
  REQUIRE_FALSE(refused);
  CHECK_THAT(refused.error().message, Catch::Contains("head"));
  pages.share = pith::pdf::PageShare{2, 2, {0, 0}};
  CHECK_FALSE(decode_examine_request(encode(pages)));
}

TEST_CASE("a run of pages read comes back whole, or as the worker's error, and strictly") {
  pith::pdf::PageTextRun run{12, 3, {std::string(64, 'a'), std::string(64, 'b')}, {100, 200}, {37, 40}, std::nullopt};
  const auto back = decode_pages_read(encode(run), "paper.pdf");
  REQUIRE(back);
  CHECK(*back == run);
  const auto error = decode_pages_read(pith::encode_error_message(pith::Error{pith::ErrorKind::malformed, "paper.pdf", "damaged"}), "paper.pdf");
  REQUIRE_FALSE(error);
  CHECK(error.error().message == "damaged");
  CHECK_FALSE(decode_pages_read(encode_written_checked(), "paper.pdf"));
  CHECK_FALSE(decode_pages_read(encode(run) + "x", "paper.pdf"));
  const auto refused = [](pith::pdf::PageTextRun bad) {
    const auto decoded = decode_pages_read(encode(bad), "paper.pdf");
    return decoded ? std::string() : decoded.error().message;
  };
  auto past_the_end = run;
  past_the_end.first_page = 12;  // pages 12 and 13 of 12
  CHECK_THAT(refused(past_the_end), Catch::Contains("no such run of pages"));
  auto huge = run;
  huge.first_page = ~std::uint64_t{0};  // no wrap-around past the page count
  CHECK_THAT(refused(huge), Catch::Contains("no such run of pages"));
  auto no_sizes = run;
  no_sizes.text_bytes.pop_back();
  CHECK_THAT(refused(no_sizes), Catch::Contains("no such run of pages"));
  auto no_work = run;
  no_work.work.push_back(1);
  CHECK_THAT(refused(no_work), Catch::Contains("no such run of pages"));
  auto upper = run;
  upper.sha256[1] = std::string(64, 'B');
  CHECK_THAT(refused(upper), Catch::Contains("not a SHA-256 in hex"));
}
