// SPDX-License-Identifier: GPL-3.0-or-later
// pith-serve's messages between its HTTP side and its check broker
// (serve/broker_wire.hpp): the job (decoded strictly; one encoding) and the
// answer, whose check is check/file.hpp's FileCheck in its JSON form, decoded field by field.
// Nothing may throw out of either.
#include "broken_promise.hpp"
#include "pith/serve/broker_wire.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  if (auto job = pith::serve::decode_broker_job(bytes)) {
    if (job->name.size() > pith::serve::max_upload_name_bytes || pith::serve::encode(*job) != bytes ||
        bytes.size() > pith::serve::max_broker_job_bytes) {
      pith::fuzz::broken_promise("a job within its bounds, one encoding");
    }
  }
  if (auto answer = pith::serve::decode_broker_answer(bytes)) {
    // What the HTTP side does with it: the page's JSON and the verdict.
    (void)answer->checked.to_json().dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    (void)answer->checked.report.verdict();
  }
  return 0;
}
