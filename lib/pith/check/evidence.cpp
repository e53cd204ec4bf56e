// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/check/evidence.hpp"

#include "pith/base/child_process.hpp"
#include "pith/base/crypto.hpp"
#include "pith/base/png.hpp"
#include "pith/pdf/page_text.hpp"

#include <algorithm>
#include <charconv>
#include <span>

namespace pith::check {

std::optional<EvidenceRegion> evidence_region(const Report& report) {
  const auto bindings = report.extra.find("bindings");
  if (bindings == report.extra.end() || !bindings->is_object()) return std::nullopt;
  for (const char* name : {"visible_title", "visible_abstract", "arxiv_id"}) {
    const auto b = bindings->find(name);
    if (b == bindings->end() || !b->is_object() || b->value("state", "") != "match") continue;
    const auto region = b->find("region");
    if (region == b->end() || !region->is_object()) continue;
    const auto box = region->find("box");
    if (box == region->end() || !box->is_array() || box->size() != 4) continue;
    if (!std::all_of(box->begin(), box->end(), [](const nlohmann::json& v) { return v.is_number(); })) continue;
    return EvidenceRegion{name, {(*box)[0].get<double>(), (*box)[1].get<double>(), (*box)[2].get<double>(),
                                 (*box)[3].get<double>()}};
  }
  return std::nullopt;
}

std::string describe_binding(std::string_view binding) {
  if (binding == "visible_title") return "the record's title as a reader sees it on page 1";
  if (binding == "visible_abstract") return "the record's abstract as a reader sees it on page 1";
  if (binding == "arxiv_id") return "arXiv's watermark as a reader sees it on page 1";
  return std::string(binding);
}

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

Result<std::string> render_evidence_png(std::string_view pdf_bytes, const EvidenceRegion& region, double dpi) {
  constexpr double margin = 12;  // points around what was seen
  const pdf::Box box{region.box.x0 - margin, region.box.y0 - margin, region.box.x1 + margin, region.box.y1 + margin};
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

void embed_evidence(Report& report, std::string_view pdf_bytes) {
  const auto region = evidence_region(report);
  if (!region) return;
  auto png = render_evidence_png(pdf_bytes, *region, 110);
  if (!png) return;
  report.extra["evidence"] = {
      {"binding", region->binding},
      {"box", {region->box.x0, region->box.y0, region->box.x1, region->box.y1}},
      {"png_base64", to_base64(std::span(reinterpret_cast<const std::uint8_t*>(png->data()), png->size()))}};
}

}  // namespace pith::check
