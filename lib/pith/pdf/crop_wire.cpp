// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/pdf/crop_wire.hpp"

#include "pith/base/wire.hpp"

namespace pith::pdf {

std::string encode_page_crop(const Result<PageCrop>& rendered) {
  WireWriter w(page_crop_tag, page_crop_wire_version);
  w.flag(rendered.has_value());
  if (!rendered) {
    w.error(rendered.error());
    return w.take();
  }
  w.count(static_cast<std::uint64_t>(rendered->width));
  w.count(static_cast<std::uint64_t>(rendered->height));
  w.bytes(rendered->rgb);
  return w.take();
}

Result<PageCrop> decode_page_crop(std::string_view message) {
  const auto malformed = [](const std::string& why) {
    return fail(ErrorKind::internal, "evidence", "the rendering child sent a malformed image (" + why + ")");
  };
  WireReader r(message, page_crop_tag, page_crop_wire_version);
  if (!r.flag("drawn")) {
    Error e = r.error("error");
    if (auto problem = r.finish()) return malformed(*problem);
    return fail(ErrorKind::internal, "evidence", "page 1 could not be rendered: " + e.message);
  }
  const std::uint64_t width = r.count("width");
  const std::uint64_t height = r.count("height");
  constexpr auto side = static_cast<std::uint64_t>(max_crop_side);
  const bool sized = width > 0 && height > 0 && width <= side && height <= side;
  PageCrop crop;
  crop.rgb = r.bytes("rgb", static_cast<std::size_t>(side * side * 3));
  if (auto problem = r.finish()) return malformed(*problem);
  if (!sized) return malformed("no such size");
  if (crop.rgb.size() != width * height * 3) return malformed("the rows are not width x height x 3 bytes");
  crop.width = static_cast<int>(width);
  crop.height = static_cast<int>(height);
  return crop;
}

}  // namespace pith::pdf
