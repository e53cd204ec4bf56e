// SPDX-License-Identifier: GPL-3.0-or-later
#include "pith/check/visible.hpp"

#include "pith/base/crypto.hpp"
#include "pith/pdf/evidence.hpp"

#include <algorithm>
#include <regex>
#include <span>

namespace pith::check {
namespace {

// New-style ids (0704.0001 on) and old-style (hep-th/9901001).
const std::string& id_pattern() {
  static const std::string id = R"(((?:\d{4}\.\d{4,5})|(?:[a-z][a-z-]*(?:\.[A-Z]{2})?/\d{7}))(?:v(\d+))?)";
  return id;
}

std::optional<int> version_of(const std::smatch& m) {
  if (!m[2].matched || m[2].length() > 4) return std::nullopt;
  return std::stoi(m[2].str());
}

}  // namespace

std::vector<ArxivSighting> arxiv_watermarks(const std::vector<std::string>& lines) {
  static const std::regex watermark("arXiv:" + id_pattern() + R"(\s*\[[^\]]{1,40}\])");
  std::vector<ArxivSighting> out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string text = normalise_visible_text(lines[i]);
    for (auto it = std::sregex_iterator(text.begin(), text.end(), watermark); it != std::sregex_iterator(); ++it) {
      out.push_back({(*it)[1].str(), version_of(*it), "page 1 text '" + it->str() + "'", true, i});
    }
  }
  return out;
}

std::vector<ArxivSighting> arxiv_links(const std::vector<std::string>& uris) {
  static const std::regex link(R"(^https?://(?:www\.|export\.)?arxiv\.org/(?:abs|pdf)/)" + id_pattern(), std::regex::icase);
  std::vector<ArxivSighting> out;
  for (const auto& uri : uris) {
    std::smatch m;
    if (std::regex_search(uri, m, link)) out.push_back({m[1].str(), version_of(m), "page 1 link '" + uri.substr(0, 120) + "'", false, 0});
  }
  return out;
}

// --- Evidence ---------------------------------------------------------------

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

void embed_evidence(Report& report, std::string_view pdf_bytes) {
  const auto region = evidence_region(report);
  if (!region) return;
  auto png = pdf::render_evidence_png(pdf_bytes, region->box, 110);
  if (!png) return;
  report.extra["evidence"] = {
      {"binding", region->binding},
      {"box", {region->box.x0, region->box.y0, region->box.x1, region->box.y1}},
      {"png_base64", to_base64(std::span(reinterpret_cast<const std::uint8_t*>(png->data()), png->size()))}};
}

}  // namespace pith::check
