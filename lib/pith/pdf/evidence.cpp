// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/pdf/evidence.hpp"

#include "pith/base/child_process.hpp"
#include "pith/base/png.hpp"
#include "pith/pdf/page_text.hpp"

#include <charconv>

namespace pith::pdf {

namespace {

// What the child sends: "WIDTH HEIGHT\n" then the RGB rows.
std::string crop_to_wire(const pdf::PageCrop& crop) {
  return std::to_string(crop.width) + " " + std::to_string(crop.height) + "\n" + crop.rgb;
}

Result<pdf::PageCrop> crop_from_wire(std::string_view sent) {
  const auto bad = [] { return fail(ErrorKind::internal, "evidence", "the rendering child sent a malformed image"); };
  const auto newline = sent.find('\n');
  if (newline == std::string_view::npos || newline > 24) return bad();
  const std::string_view head = sent.substr(0, newline);
  const auto space = head.find(' ');
  if (space == std::string_view::npos) return bad();
  pdf::PageCrop crop;
  const auto [w_end, w_ec] = std::from_chars(head.data(), head.data() + space, crop.width);
  const auto [h_end, h_ec] = std::from_chars(head.data() + space + 1, head.data() + head.size(), crop.height);
  if (w_ec != std::errc() || h_ec != std::errc() || w_end != head.data() + space || h_end != head.data() + head.size())
    return bad();
  // At 150 dpi a whole page is 1275 x 1650: bounded well above that.
  if (crop.width <= 0 || crop.height <= 0 || crop.width > 4000 || crop.height > 4000) return bad();
  crop.rgb = std::string(sent.substr(newline + 1));
  if (crop.rgb.size() != static_cast<std::size_t>(crop.width) * static_cast<std::size_t>(crop.height) * 3) return bad();
  return crop;
}

}  // namespace

Result<std::string> render_evidence_png(std::string_view pdf_bytes, const Box& seen, double dpi) {
  constexpr double margin = 12;  // points around what was seen
  const pdf::Box box{seen.x0 - margin, seen.y0 - margin, seen.x1 + margin, seen.y1 + margin};
  ChildLimits limits;
  limits.memory_bytes = (std::uint64_t{1} << 30) + pdf_bytes.size();
  auto sent = run_in_child(
      "rendering page 1",
      [&]() -> std::string {
        auto crop = pdf::render_page_crop(pdf_bytes, box, dpi);
        return crop ? crop_to_wire(*crop) : std::string();
      },
      limits);
  if (!sent) return std::unexpected(sent.error());
  auto crop = crop_from_wire(*sent);
  if (!crop) return std::unexpected(crop.error());
  std::string png = encode_png_rgb(crop->width, crop->height, crop->rgb);
  if (png.empty()) return fail(ErrorKind::internal, "evidence", "the image could not be encoded");
  return png;
}

}  // namespace pith::pdf
