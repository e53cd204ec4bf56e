// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/pdf/evidence.hpp"

#include "pith/base/child_process.hpp"
#include "pith/base/png.hpp"
#include "pith/pdf/crop_wire.hpp"
#include "pith/pdf/page_text.hpp"

namespace pith::pdf {

Result<std::string> render_evidence_png(std::string_view pdf_bytes, const Box& seen, double dpi) {
  constexpr double margin = 12;  // points around what was seen
  const pdf::Box box{seen.x0 - margin, seen.y0 - margin, seen.x1 + margin, seen.y1 + margin};
  ChildLimits limits;
  limits.memory_bytes = (std::uint64_t{1} << 30) + pdf_bytes.size();
  auto sent = run_in_child(
      "rendering page 1",
      [&] { return encode_page_crop(pdf::render_page_crop(pdf_bytes, box, dpi)); },
      limits);
  if (!sent) return std::unexpected(sent.error());
  auto crop = decode_page_crop(*sent);
  if (!crop) return std::unexpected(crop.error());
  std::string png = encode_png_rgb(crop->width, crop->height, crop->rgb);
  if (png.empty()) return fail(ErrorKind::internal, "evidence", "the image could not be encoded");
  return png;
}

}  // namespace pith::pdf
