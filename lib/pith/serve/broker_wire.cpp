// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/serve/broker_wire.hpp"

#include "pith/base/wire.hpp"

#include <nlohmann/json.hpp>

namespace pith::serve {
namespace {

auto broken(const std::string& why) { return fail(ErrorKind::internal, "check broker", why); }

}  // namespace

std::string encode(const BrokerJob& job) {
  WireWriter w(broker_job_tag, broker_wire_version);
  w.bytes(job.name);
  return w.take();
}

Result<BrokerJob> decode_broker_job(std::string_view message) {
  WireReader r(message, broker_job_tag, broker_wire_version);
  BrokerJob job{r.bytes("name", max_upload_name_bytes)};
  if (auto problem = r.finish()) return broken("a malformed job: " + *problem);
  return job;
}

std::string encode(const BrokerAnswer& answer) {
  WireWriter w(broker_answer_tag, broker_wire_version);
  w.flag(answer.child_failed);
  // Names are hostile bytes: dumped with `replace`, so the check is always JSON.
  w.bytes(check::file_check_to_wire(answer.checked).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  return w.take();
}

Result<BrokerAnswer> decode_broker_answer(std::string_view message) {
  WireReader r(message, broker_answer_tag, broker_wire_version);
  const bool child_failed = r.flag("child_failed");
  const std::string_view check_json = r.view("check");
  if (auto problem = r.finish()) return broken("the check broker's answer is malformed: " + *problem);
  const auto json = nlohmann::json::parse(check_json, nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded()) return broken("the check broker's answer holds a check that is not JSON");
  // file_check_from_wire checks each field's type before it reads it; a
  // JSON exception all the same is a malformed answer, never one that escapes.
  try {
    auto checked = check::file_check_from_wire(json);
    if (!checked) return broken(checked.error().describe());
    return BrokerAnswer{std::move(*checked), child_failed};
  } catch (const nlohmann::json::exception& e) {
    return broken(std::string("the check broker's answer holds a malformed check: ") + e.what());
  }
}

}  // namespace pith::serve
