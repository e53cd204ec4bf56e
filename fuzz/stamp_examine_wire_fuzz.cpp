// SPDX-License-Identifier: GPL-3.0-or-later
// What pith-stamp's reading children send it (stamp/examine_wire.hpp), as a
// child taken over by a parser exploit could write it: the examining
// child's framed answer (and its early first message), the drawing child's
// page 1, the checking child's verdict, the pages read; and pith-stamp's requests to the
// examining worker. Decoded strictly; an answer that
// decodes has exactly one encoding: encoding it again gives the same bytes.
#include "broken_promise.hpp"
#include "pith/base/wire.hpp"
#include "pith/stamp/examine_wire.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

using pith::fuzz::broken_promise;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  if (auto answer = pith::stamp::decode_examine_answer(bytes, "fuzz.pdf")) {
    if (answer->plan.has_value() != answer->read.outcome.has_value()) broken_promise("a plan comes with an outcome");
    std::string again;
    pith::append_framed(again, pith::stamp::encode(answer->read));
    if (answer->plan) pith::append_framed(again, pith::stamp::encode(*answer->plan));
    if (again != bytes) broken_promise("a decoded answer encodes to the same bytes");
  }
  if (auto early = pith::stamp::decode_early_read(bytes); early && !early->outcome) {
    broken_promise("an early message has an outcome");
  }
  const auto drawn = pith::stamp::decode_page_one(bytes);
  if (drawn.page_one && pith::stamp::encode(drawn) != bytes) broken_promise("a drawn page 1 encodes to the same bytes");
  if (auto request = pith::stamp::decode_examine_request(bytes); request && pith::stamp::encode(*request) != bytes)
    broken_promise("a decoded request encodes to the same bytes");
  if (pith::stamp::decode_written_checked(bytes, "fuzz.pdf") && bytes != pith::stamp::encode_written_checked()) {
    broken_promise("only the one passed-check message passes");
  }
  if (auto pages = pith::stamp::decode_pages_read(bytes, "fuzz.pdf"); pages && pith::stamp::encode(*pages) != bytes) {
    broken_promise("a decoded run of pages encodes to the same bytes");
  }
  return 0;
}
