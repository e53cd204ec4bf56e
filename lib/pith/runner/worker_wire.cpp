// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/runner/worker_wire.hpp"

#include "pith/base/wire.hpp"

namespace pith::runner {

std::string encode_input_request(const InputRequest& request) {
  WireWriter w(input_request_tag, input_request_version);
  w.bytes(request.name);
  w.flag(request.bytes.has_value());
  if (request.bytes) w.bytes(*request.bytes);
  return w.take();
}

Result<InputRequest> decode_input_request(std::string_view message) {
  WireReader r(message, input_request_tag, input_request_version);
  InputRequest request;
  request.name = r.view("name", max_input_name_bytes);
  if (r.flag("bytes")) request.bytes = r.view("bytes");
  if (auto problem = r.finish()) return fail(ErrorKind::malformed, "a worker's request", std::move(*problem));
  return request;
}

}  // namespace pith::runner
