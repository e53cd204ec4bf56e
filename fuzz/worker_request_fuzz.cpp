// SPDX-License-Identifier: GPL-3.0-or-later
// A corpus run's request to a worker (runner/worker_wire.hpp): decoded
// strictly, views inside the message; a request that decodes has exactly
// one encoding.
#include "broken_promise.hpp"
#include "pith/runner/worker_wire.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const auto request = pith::runner::decode_input_request(bytes);
  if (!request) return 0;
  const auto inside = [&](std::string_view v) { return v.data() >= bytes.data() && v.data() + v.size() <= bytes.data() + bytes.size(); };
  if (!inside(request->name) || (request->bytes && !inside(*request->bytes)) ||
      request->name.size() > pith::runner::max_input_name_bytes ||
      pith::runner::encode_input_request(*request) != bytes) {
    pith::fuzz::broken_promise("views inside the message, one encoding");
  }
  return 0;
}
