// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/pdf/evidence.hpp"

#include "pith/base/png.hpp"
#include "pith/pdf/crop_wire.hpp"
#include "pith/pdf/page_text.hpp"

namespace pith::pdf {

std::string render_evidence_crop(std::string_view pdf_bytes, const Box& seen, double dpi) {
  constexpr double margin = 12;  // points around what was seen
  const pdf::Box box{seen.x0 - margin, seen.y0 - margin, seen.x1 + margin, seen.y1 + margin};
  return encode_page_crop(pdf::render_page_crop(pdf_bytes, box, dpi));
}

Result<std::string> evidence_png(std::string_view sent) {
  auto crop = decode_page_crop(sent);
  if (!crop) return std::unexpected(crop.error());
  std::string png = encode_png_rgb(crop->width, crop->height, crop->rgb);
  if (png.empty()) return fail(ErrorKind::internal, "evidence", "the image could not be encoded");
  return png;
}

}  // namespace pith::pdf
