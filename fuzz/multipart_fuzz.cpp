// SPDX-License-Identifier: GPL-3.0-or-later
// multipart/form-data framing: an upload's body as pith-serve reads it
// (serve/multipart), with a Content-Type taken from the input's first line.
// What is found lies inside the body.
#include "pith/serve/multipart.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto line_end = input.find('\n');
  const std::string_view content_type = input.substr(0, line_end);
  const std::string_view body = line_end == std::string_view::npos ? std::string_view() : input.substr(line_end + 1);
  const auto boundary = pith::serve::form_boundary(content_type);
  auto file = pith::serve::form_file(body, boundary ? *boundary : std::string_view("B"));
  if (file && !file->data.empty() &&
      (file->data.data() < body.data() || file->data.data() + file->data.size() > body.data() + body.size())) {
    std::abort();  // the file must be a view into the body
  }
  return 0;
}
